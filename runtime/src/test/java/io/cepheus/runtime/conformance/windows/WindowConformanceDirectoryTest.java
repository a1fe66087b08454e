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
 * repository, {@code conformance/windows}: {@code -Dcepheus.windows.conformance.dir} wins, a relative path is
 * also looked up from the project root (tests run in the module's folder).
 */
class WindowConformanceDirectoryTest {

    @TempDir
    Path root;

    @Test
    void explicitDirectoryWinsEvenIfMissing() {
        Path module = root.resolve("repo/runtime");
        ConformanceDirectory d = WindowConformanceTest.locate("/no/such/dir", module);
        assertEquals(Path.of("/no/such/dir"), d.chosen());
        assertEquals(module.resolve("cases").normalize(), WindowConformanceTest.locate("cases", module).chosen());
    }

    @Test
    void aRelativeExplicitDirectoryIsAlsoLookedUpFromTheProjectRoot() throws IOException {
        Path module = Files.createDirectories(root.resolve("repo/runtime"));
        Path fromRoot = Files.createDirectories(root.resolve("repo/my-window-cases"));
        ConformanceDirectory d = WindowConformanceTest.locate("my-window-cases", module);
        assertEquals(fromRoot, d.chosen(), "typed from the project root, run from the module's folder");
        assertEquals(List.of(module.resolve("my-window-cases"), fromRoot), d.tried());
        Path fromModule = Files.createDirectories(root.resolve("repo/runtime/my-window-cases"));
        assertEquals(fromModule, WindowConformanceTest.locate("my-window-cases", module).chosen(), "the module wins");
    }

    @Test
    void byDefaultTheWindowFolderOfTheRepository() throws IOException {
        Path module = Files.createDirectories(root.resolve("repo/runtime"));
        Files.createDirectories(root.resolve("repo/conformance/cep")); // the CEP suite's cases are not these
        Path windows = Files.createDirectories(root.resolve("repo/conformance/windows"));
        assertEquals(windows, WindowConformanceTest.locate(null, module).chosen());
        assertEquals(windows, WindowConformanceTest.locate("  ", root.resolve("repo")).chosen());
    }

    @Test
    void noCandidateExistsChoosesTheProjectRootsFolderForTheMessage() {
        Path module = root.resolve("repo/runtime");
        ConformanceDirectory d = WindowConformanceTest.locate(null, module);
        assertEquals(root.resolve("repo/conformance/windows"), d.chosen());
        assertEquals(List.of(module.resolve("conformance/windows"), root.resolve("repo/conformance/windows")),
                d.tried());
    }
}
