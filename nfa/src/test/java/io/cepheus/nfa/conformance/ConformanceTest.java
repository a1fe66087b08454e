package io.cepheus.nfa.conformance;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The CEP conformance suite: every {@code *.case} file of the conformance directory (see
 * {@link ConformanceDirectory}) runs through the NFA engine and must print what Apache Flink CEP printed
 * (its {@code .expected} file). One dynamic test per file; failing cases print a unified diff to stdout, and
 * a closing line {@code conformance: N passed, M failed} counts cases.
 *
 * <p>Run: {@code mvn -pl nfa -am test -Dtest=ConformanceTest -Dsurefire.failIfNoSpecifiedTests=false}; add
 * {@code -Dcepheus.conformance.dir=/some/dir} to run other cases.
 */
class ConformanceTest {

    /** Case verdicts of this run, for the summary; dynamic tests run one after another on one thread. */
    private static final List<CaseVerdict> VERDICTS = new ArrayList<>();

    @TestFactory
    Stream<DynamicTest> conformanceCases() throws IOException {
        ConformanceDirectory where = ConformanceDirectory.fromSystem();
        Path dir = where.chosen();
        if (!Files.isDirectory(dir)) {
            fail("conformance directory " + dir + " does not exist (tried " + where.tried() + "; set -D"
                    + ConformanceDirectory.DIR_PROPERTY + ")");
        }
        List<Path> files;
        try (Stream<Path> listing = Files.list(dir)) {
            files = listing.filter(p -> p.getFileName().toString().endsWith(".case")).sorted()
                    .collect(Collectors.toList());
        }
        if (files.isEmpty()) {
            fail("no *.case files in conformance directory " + dir);
        }
        System.out.println("conformance: running " + files.size() + " case files from " + dir);
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), f.toUri(),
                () -> runFile(f)));
    }

    private static void runFile(Path file) {
        List<CaseVerdict> verdicts = CaseFileRunner.run(file);
        synchronized (VERDICTS) {
            VERDICTS.addAll(verdicts);
        }
        List<String> failed = new ArrayList<>();
        for (CaseVerdict v : verdicts) {
            if (!v.passed()) {
                failed.add(v.name());
                System.out.println("conformance FAILED " + v.file() + " :: " + v.name() + "\n" + v.report());
            }
        }
        if (verdicts.isEmpty()) {
            fail(file + " holds no cases");
        }
        if (!failed.isEmpty()) {
            fail(file.getFileName() + ": " + failed.size() + " of " + verdicts.size() + " cases failed: " + failed
                    + " (diffs on stdout)");
        }
    }

    @AfterAll
    static void printSummary() {
        synchronized (VERDICTS) {
            long passed = VERDICTS.stream().filter(CaseVerdict::passed).count();
            System.out.println("conformance: " + passed + " passed, " + (VERDICTS.size() - passed) + " failed");
        }
    }
}
