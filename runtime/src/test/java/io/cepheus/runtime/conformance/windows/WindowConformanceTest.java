package io.cepheus.runtime.conformance.windows;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.conformance.ConformanceDirectory;
import io.cepheus.nfa.conformance.LineDiff;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every window and join conformance case (the repository's {@code conformance/windows}, or
 * {@code -Dcepheus.windows.conformance.dir=PATH}, a relative path also looked up from the project root) through
 * the real engine, compared with what Apache Flink's operators emit; prints a diff per failing case and the
 * closing line {@code window conformance: N passed, M failed}. The directory is found as the CEP suite finds
 * its own ({@link ConformanceDirectory}).
 */
class WindowConformanceTest {

    /** The system property naming another case directory. */
    static final String DIR_PROPERTY = "cepheus.windows.conformance.dir";
    /** The suite's folder under the repository's {@code conformance/}. */
    static final String SUITE = "windows";

    private static int passed;
    private static int failed;

    /** One runner per case kind. */
    private static Map<String, CaseRunner> runners() {
        return Map.of("window", new WindowCaseRunner(), "windowjoin", new WindowJoinCaseRunner(),
                "intervaljoin", new IntervalJoinCaseRunner());
    }

    @TestFactory
    Stream<DynamicTest> everyCaseFile() throws IOException {
        Path dir = directory();
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(p -> p.getFileName().toString().endsWith(".case")).sorted().toList();
        }
        assertTrue(!files.isEmpty(), "no *.case files in window conformance directory " + dir);
        System.out.println("window conformance: running " + files.size() + " case files from " + dir);
        Map<String, CaseRunner> runners = runners();
        return files.stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(),
                () -> runFile(file, runners)));
    }

    private static void runFile(Path file, Map<String, CaseRunner> runners) throws IOException {
        String name = file.getFileName().toString();
        List<WindowCase> cases = WindowCaseParser.parse(Files.readString(file), name);
        Path expectedFile = file.resolveSibling(name.substring(0, name.length() - ".case".length()) + ".expected");
        Map<String, List<String>> expected =
                ExpectedWindowOutput.parse(Files.readString(expectedFile), expectedFile.getFileName().toString());
        List<String> failures = new ArrayList<>();
        for (WindowCase c : cases) {
            String verdict = verdict(c, expected.get(c.name()), runners.get(c.kind()));
            if (verdict.isEmpty()) {
                passed++;
            } else {
                failed++;
                failures.add(c.name());
                System.out.println("FAIL " + name + " / " + c.name() + "\n" + verdict);
            }
        }
        assertTrue(failures.isEmpty(), "failing cases in " + name + ": " + failures);
    }

    /** @return the empty string if the case passes, else what is wrong (a diff) */
    private static String verdict(WindowCase c, List<String> expected, CaseRunner runner) {
        if (expected == null) {
            return "no '== " + c.name() + "' section in the .expected file";
        }
        if (runner == null) {
            return "no runner for kind '" + c.kind() + "'";
        }
        List<List<String>> actual;
        try {
            actual = runner.run(c);
        } catch (RuntimeException e) {
            return "the engine threw " + e;
        }
        List<List<String>> both = WindowOutputComparator.normalise(c, expected, actual);
        return LineDiff.unified("expected (Flink)", "actual (Cepheus)", both.get(0), both.get(1), String::equals);
    }

    private static Path directory() {
        ConformanceDirectory where = locate(System.getProperty(DIR_PROPERTY), Path.of("").toAbsolutePath());
        if (!Files.isDirectory(where.chosen())) {
            throw new IllegalStateException("window conformance directory " + where.chosen() + " does not exist"
                    + " (tried " + where.tried() + "; set -D" + DIR_PROPERTY + "=PATH)");
        }
        return where.chosen();
    }

    /**
     * @param explicitDir the value of {@value #DIR_PROPERTY}, or null
     * @param workingDir  the directory relative paths start from
     * @return where this suite's cases are looked for
     */
    static ConformanceDirectory locate(String explicitDir, Path workingDir) {
        return ConformanceDirectory.locate(explicitDir, workingDir, SUITE);
    }

    @AfterAll
    static void summary() {
        System.out.println("window conformance: " + passed + " passed, " + failed + " failed");
    }
}
