package io.cepheus.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Pins what {@code io.cepheus.kafka} exports and needs: its one package, on the runtime, the rules and Kafka Streams.
 */
class ModuleExportsTest {

    @Test
    void exportsItsOnePackageAndRequiresTheRuntimeRulesAndKafkaOnly() throws Exception {
        Path output = Path.of(CepProcessorSupplier.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path moduleInfo = output.resolve("module-info.class");
        assertTrue(Files.isRegularFile(moduleInfo), "no compiled module-info at " + moduleInfo);
        ModuleDescriptor d;
        try (InputStream in = Files.newInputStream(moduleInfo)) {
            d = ModuleDescriptor.read(in);
        }
        assertEquals("io.cepheus.kafka", d.name());
        assertEquals(Set.of("io.cepheus.kafka"),
                d.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet()));
        assertEquals(Set.of("io.cepheus.runtime", "io.cepheus.rules", "kafka.streams", "kafka.clients", "java.base"),
                d.requires().stream().map(ModuleDescriptor.Requires::name).collect(Collectors.toSet()));
    }
}
