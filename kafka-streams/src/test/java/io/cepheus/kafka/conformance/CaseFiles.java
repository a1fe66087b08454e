package io.cepheus.kafka.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.conformance.CaseVerdict;
import io.cepheus.nfa.conformance.ConformanceDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/** The Kafka suites' shared loop: one dynamic test per case file, failing with the names of its failing cases. */
final class CaseFiles {

    private CaseFiles() {
    }

    /**
     * @param dir      the folder of case files
     * @param property the system property that names another folder, for the message
     * @param run      runs one file's cases
     * @param verdicts collects every verdict, for the suite's closing line
     * @return one test per {@code *.case} file, in name order
     */
    static Stream<DynamicTest> each(ConformanceDirectory dir, String property,
            Function<Path, List<CaseVerdict>> run, List<CaseVerdict> verdicts) throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(dir.requireExisting(property))) {
            files = list.filter(p -> p.getFileName().toString().endsWith(".case")).sorted().toList();
        }
        assertTrue(!files.isEmpty(), "no *.case files in " + dir.chosen());
        return files.stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
            List<CaseVerdict> outcome = run.apply(file);
            verdicts.addAll(outcome);
            StringBuilder failures = new StringBuilder();
            for (CaseVerdict v : outcome) {
                if (!v.passed()) {
                    System.out.println(v.report());
                    failures.append(v.name()).append(' ');
                }
            }
            assertTrue(failures.length() == 0, "failing cases: " + failures);
        }));
    }

    /** @return the suite's closing line */
    static String closingLine(String suite, List<CaseVerdict> verdicts) {
        long passed = verdicts.stream().filter(CaseVerdict::passed).count();
        return suite + ": " + passed + " passed, " + (verdicts.size() - passed) + " failed";
    }
}
