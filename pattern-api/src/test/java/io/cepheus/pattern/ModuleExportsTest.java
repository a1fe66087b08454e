package io.cepheus.pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Pins what the {@code io.cepheus.pattern} module exports. Tests run on the class path, so the compiled
 * descriptor is read from the directory (or jar) the main classes were loaded from.
 */
class ModuleExportsTest {

    private static ModuleDescriptor mainDescriptor() throws IOException, URISyntaxException {
        // Pattern.class comes from the main output (target/classes), never from the test output
        Path mainOutput = Path.of(Pattern.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path moduleInfo = mainOutput.resolve("module-info.class");
        assertTrue(Files.isRegularFile(moduleInfo), "no compiled module-info at " + moduleInfo);
        try (InputStream in = Files.newInputStream(moduleInfo)) {
            return ModuleDescriptor.read(in);
        }
    }

    /** @return exported package to its target modules (empty set = exported to everyone) */
    private static Map<String, Set<String>> exports(ModuleDescriptor descriptor) {
        Map<String, Set<String>> out = new TreeMap<>();
        for (Exports e : descriptor.exports()) {
            out.put(e.source(), e.targets());
        }
        return out;
    }

    @Test
    void exportsThePatternPackageAndOnlyQualifiesTheInternals() throws Exception {
        ModuleDescriptor descriptor = mainDescriptor();

        assertEquals("io.cepheus.pattern", descriptor.name());
        assertEquals(Map.of(
                        "io.cepheus.pattern", Set.of(),
                        "io.cepheus.pattern.internal", Set.of("io.cepheus.nfa", "io.cepheus.rules")),
                exports(descriptor));
    }

    @Test
    void noInternalPackageIsExportedToEveryone() throws Exception {
        for (Exports e : mainDescriptor().exports()) {
            if (!e.isQualified()) {
                assertFalse(e.source().contains("internal"), e.source() + " is exported to every module");
            }
        }
    }

    @Test
    void nothingIsOpenForDeepReflection() throws Exception {
        ModuleDescriptor descriptor = mainDescriptor();
        assertFalse(descriptor.isOpen(), "the module is declared open");
        assertEquals(Set.of(), descriptor.opens());
    }
}
