package io.cepheus.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Pins what {@code io.cepheus.micrometer} exports and needs: its one package, on the runtime and Micrometer. */
class ModuleExportsTest {

    @Test
    void exportsItsOnePackageAndRequiresTheRuntimeAndMicrometerOnly() throws Exception {
        Path output = Path.of(CepheusMetrics.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path moduleInfo = output.resolve("module-info.class");
        assertTrue(Files.isRegularFile(moduleInfo), "no compiled module-info at " + moduleInfo);
        ModuleDescriptor d;
        try (InputStream in = Files.newInputStream(moduleInfo)) {
            d = ModuleDescriptor.read(in);
        }
        assertEquals("io.cepheus.micrometer", d.name());
        assertEquals(Set.of("io.cepheus.micrometer"),
                d.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet()));
        assertEquals(Set.of("io.cepheus.runtime", "micrometer.core", "java.base"),
                d.requires().stream().map(ModuleDescriptor.Requires::name).collect(Collectors.toSet()));
    }
}
