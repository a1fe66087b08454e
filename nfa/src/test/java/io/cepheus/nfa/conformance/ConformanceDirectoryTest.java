package io.cepheus.nfa.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConformanceDirectoryTest {

    @TempDir
    Path root;

    @Test
    void explicitDirectoryWinsEvenIfMissing() {
        Path module = root.resolve("main/nfa");
        ConformanceDirectory d = ConformanceDirectory.locate("/no/such/dir", root.toString(), module);
        assertEquals(Path.of("/no/such/dir"), d.chosen());
        assertEquals(module.resolve("cases").normalize(),
                ConformanceDirectory.locate("cases", null, module).chosen());
    }

    @Test
    void aRelativeExplicitDirectoryIsAlsoLookedUpFromTheProjectRoot() throws IOException {
        Path module = Files.createDirectories(root.resolve("main/nfa"));
        Path fromRoot = Files.createDirectories(root.resolve("main/my-cases"));
        ConformanceDirectory d = ConformanceDirectory.locate("my-cases", null, module);
        assertEquals(fromRoot, d.chosen(), "typed from the project root, run from the module's folder");
        Path fromModule = Files.createDirectories(root.resolve("main/nfa/my-cases"));
        assertEquals(fromModule, ConformanceDirectory.locate("my-cases", null, module).chosen(), "the module wins");
    }

    @Test
    void sharedDirectoryThenRelativeFallbacks() throws IOException {
        Path module = Files.createDirectories(root.resolve("main/nfa"));
        Path twoUp = Files.createDirectories(root.resolve("shared/conformance"));
        // nothing under the shared property: fall back to ../../shared/conformance
        assertEquals(twoUp, ConformanceDirectory.locate(null, root.resolve("elsewhere").toString(), module).chosen());
        Path oneUp = Files.createDirectories(root.resolve("main/shared/conformance"));
        assertEquals(oneUp, ConformanceDirectory.locate("  ", null, module).chosen());
        Path shared = Files.createDirectories(root.resolve("elsewhere/conformance"));
        assertEquals(shared, ConformanceDirectory.locate(null, root.resolve("elsewhere").toString(), module)
                .chosen());
    }

    @Test
    void noCandidateExistsChoosesTheFirstForTheMessage() {
        Path module = root.resolve("a/b");
        ConformanceDirectory d = ConformanceDirectory.locate(null, root.resolve("s").toString(), module);
        assertEquals(root.resolve("s/conformance"), d.chosen());
        assertEquals(3, d.tried().size());
    }
}
