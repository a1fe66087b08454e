package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Pins what {@code io.cepheus.runtime} exports: the engine API, time and agents; every {@code internal}
 * package (shards, operators, queues, timers) stays hidden. Read from the compiled descriptor, since tests run
 * on the class path.
 */
class ModuleExportsTest {

    private static ModuleDescriptor descriptor() throws Exception {
        Path mainOutput = Path.of(CepEngine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path moduleInfo = mainOutput.resolve("module-info.class");
        assertTrue(Files.isRegularFile(moduleInfo), "no compiled module-info at " + moduleInfo);
        try (InputStream in = Files.newInputStream(moduleInfo)) {
            return ModuleDescriptor.read(in);
        }
    }

    @Test
    void exportsExactlyThePublicPackages() throws Exception {
        ModuleDescriptor d = descriptor();
        Map<String, Set<String>> exports = new TreeMap<>();
        d.exports().forEach(e -> exports.put(e.source(), e.targets()));
        assertEquals("io.cepheus.runtime", d.name());
        assertEquals(Map.of("io.cepheus.runtime", Set.of(), "io.cepheus.runtime.time", Set.of(),
                "io.cepheus.runtime.agent", Set.of(), "io.cepheus.runtime.join", Set.of(),
                "io.cepheus.runtime.window", Set.of()), exports);
        exports.keySet().forEach(p -> assertFalse(p.contains("internal"), p));
        assertFalse(d.isOpen());
        assertEquals(Set.of(), d.opens());
    }
}
