package io.cepheus.nfa.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CEP suite's cases are found in the repository ({@code conformance/cep}, from the module's folder or the
 * project root) unless {@code -Dcepheus.conformance.dir} names another directory, which then wins even if it is
 * missing (the suite fails, naming it).
 */
class ConformanceDirectoryTest {

    @TempDir
    Path root;

    @Test
    void explicitDirectoryWinsEvenIfMissing() throws IOException {
        Path module = Files.createDirectories(root.resolve("repo/nfa"));
        Files.createDirectories(root.resolve("repo/conformance/cep"));
        ConformanceDirectory d = ConformanceDirectory.locate("/no/such/dir", module, "cep");
        assertEquals(Path.of("/no/such/dir"), d.chosen());
        assertEquals(module.resolve("cases").normalize(), ConformanceDirectory.locate("cases", module, "cep").chosen());
    }

    @Test
    void aRelativeExplicitDirectoryIsAlsoLookedUpFromTheProjectRoot() throws IOException {
        Path module = Files.createDirectories(root.resolve("repo/nfa"));
        Path fromRoot = Files.createDirectories(root.resolve("repo/my-cases"));
        ConformanceDirectory d = ConformanceDirectory.locate("my-cases", module, "cep");
        assertEquals(fromRoot, d.chosen(), "typed from the project root, run from the module's folder");
        Path fromModule = Files.createDirectories(root.resolve("repo/nfa/my-cases"));
        assertEquals(fromModule, ConformanceDirectory.locate("my-cases", module, "cep").chosen(), "the module wins");
    }

    @Test
    void byDefaultTheSuiteFolderOfTheRepository() throws IOException {
        Path module = Files.createDirectories(root.resolve("repo/nfa"));
        Path inRepo = Files.createDirectories(root.resolve("repo/conformance/cep"));
        Files.createDirectories(root.resolve("repo/conformance/windows"));
        assertEquals(inRepo, ConformanceDirectory.locate(null, module, "cep").chosen(), "from a module's folder");
        assertEquals(inRepo, ConformanceDirectory.locate("  ", root.resolve("repo"), "cep").chosen(),
                "from the project root");
        assertEquals(root.resolve("repo/conformance/windows"),
                ConformanceDirectory.locate(null, module, "windows").chosen(), "each suite its own folder");
    }

    @Test
    void noCandidateExistsChoosesTheProjectRootsFolderForTheMessage() {
        Path module = root.resolve("repo/nfa");
        ConformanceDirectory d = ConformanceDirectory.locate(null, module, "cep");
        assertEquals(root.resolve("repo/conformance/cep"), d.chosen());
        assertEquals(List.of(module.resolve("conformance/cep"), root.resolve("repo/conformance/cep")), d.tried());
    }
}
