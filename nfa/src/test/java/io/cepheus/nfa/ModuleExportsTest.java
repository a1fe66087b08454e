package io.cepheus.nfa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleDescriptor.Requires;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Pins what the {@code io.cepheus.nfa} module exports: the public API package to everyone; the internals
 * (program, engine, buffer) only to the runtime, which reads their memory hints ({@code CacheHints}). Tests run on the class path, so the compiled
 * descriptor is read from the directory (or jar) the main classes were loaded from.
 */
class ModuleExportsTest {

    private static ModuleDescriptor mainDescriptor() throws IOException, URISyntaxException {
        // NfaCompiler.class comes from the main output (target/classes), never from the test output
        Path mainOutput = Path.of(NfaCompiler.class.getProtectionDomain().getCodeSource().getLocation().toURI());
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
    void exportsTheApiPackageAndOnlyQualifiesTheInternals() throws Exception {
        ModuleDescriptor descriptor = mainDescriptor();

        assertEquals("io.cepheus.nfa", descriptor.name());
        assertEquals(Map.of("io.cepheus.nfa", Set.of(), "io.cepheus.nfa.trace", Set.of(), "io.cepheus.nfa.internal",
                Set.of("io.cepheus.runtime")),
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

    @Test
    void usersOfTheNfaSeeThePatternApiTransitively() throws Exception {
        // the public API takes and returns Pattern, so requiring io.cepheus.nfa alone must be enough
        boolean transitive = false;
        for (Requires r : mainDescriptor().requires()) {
            if (r.name().equals("io.cepheus.pattern")) {
                transitive = r.modifiers().contains(Requires.Modifier.TRANSITIVE);
            }
        }
        assertTrue(transitive, "io.cepheus.nfa must `requires transitive io.cepheus.pattern`");
    }
}
