package io.cepheus.runtime.conformance.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.nfa.conformance.ConformanceDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The window suite finds its cases as the CEP suite does (ConformanceDirectoryTest), in its own folder of the
 * shared material: {@code -Dcepheus.windows.conformance.dir} wins, a relative path is also looked up from the
 * project root (tests run in the module's folder), then {@code ${cepheus.shared.dir}/conformance-windows} and the
 * relative fallbacks.
 */
class WindowConformanceDirectoryTest {

    @TempDir
    Path root;

    @Test
    void explicitDirectoryWinsEvenIfMissing() {
        Path module = root.resolve("main/runtime");
        ConformanceDirectory d = WindowConformanceTest.locate("/no/such/dir", root.toString(), module);
        assertEquals(Path.of("/no/such/dir"), d.chosen());
        assertEquals(module.resolve("cases").normalize(), WindowConformanceTest.locate("cases", null, module).chosen());
    }

    @Test
    void aRelativeExplicitDirectoryIsAlsoLookedUpFromTheProjectRoot() throws IOException {
        Path module = Files.createDirectories(root.resolve("main/runtime"));
        Path fromRoot = Files.createDirectories(root.resolve("main/my-window-cases"));
        ConformanceDirectory d = WindowConformanceTest.locate("my-window-cases", null, module);
        assertEquals(fromRoot, d.chosen(), "typed from the project root, run from the module's folder");
        assertEquals(List.of(module.resolve("my-window-cases"), fromRoot), d.tried());
        Path fromModule = Files.createDirectories(root.resolve("main/runtime/my-window-cases"));
        assertEquals(fromModule, WindowConformanceTest.locate("my-window-cases", null, module).chosen(),
                "the module wins");
    }

    @Test
    void sharedDirectoryThenRelativeFallbacksInTheWindowFolder() throws IOException {
        Path module = Files.createDirectories(root.resolve("main/runtime"));
        Files.createDirectories(root.resolve("shared/conformance")); // the CEP suite's cases are not these
        Path twoUp = Files.createDirectories(root.resolve("shared/conformance-windows"));
        assertEquals(twoUp, WindowConformanceTest.locate(null, root.resolve("elsewhere").toString(), module)
                .chosen());
        Path oneUp = Files.createDirectories(root.resolve("main/shared/conformance-windows"));
        assertEquals(oneUp, WindowConformanceTest.locate("  ", null, module).chosen());
        Path shared = Files.createDirectories(root.resolve("elsewhere/conformance-windows"));
        assertEquals(shared, WindowConformanceTest.locate(null, root.resolve("elsewhere").toString(), module)
                .chosen());
    }

    @Test
    void noCandidateExistsChoosesTheFirstForTheMessage() {
        Path module = root.resolve("a/b");
        ConformanceDirectory d = WindowConformanceTest.locate(null, root.resolve("s").toString(), module);
        assertEquals(root.resolve("s/conformance-windows"), d.chosen());
        assertEquals(List.of(root.resolve("s/conformance-windows"), root.resolve("a/shared/conformance-windows"),
                root.resolve("shared/conformance-windows")), d.tried());
    }
}
