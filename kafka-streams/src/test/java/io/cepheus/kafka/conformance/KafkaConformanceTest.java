package io.cepheus.kafka.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.conformance.CaseFileRunner;
import io.cepheus.nfa.conformance.CaseVerdict;
import io.cepheus.nfa.conformance.ConformanceDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every CEP conformance case through the Kafka Streams adapter, on {@link org.apache.kafka.streams.TopologyTestDriver}
 * ({@link KafkaCaseDriver}), with the suite's closing line; {@code -Dcepheus.conformance.dir=PATH} runs another
 * directory of cases.
 */
class KafkaConformanceTest {

    private static final List<CaseVerdict> VERDICTS = new ArrayList<>();

    @TestFactory
    Stream<DynamicTest> everyCaseThroughTheProcessor() throws IOException {
        ConformanceDirectory dir = ConformanceDirectory.fromSystem();
        List<Path> files;
        try (Stream<Path> list = Files.list(dir.requireExisting(ConformanceDirectory.DIR_PROPERTY))) {
            files = list.filter(p -> p.getFileName().toString().endsWith(".case")).sorted().toList();
        }
        assertTrue(!files.isEmpty(), "no *.case files in conformance directory " + dir.chosen());
        return files.stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
            List<CaseVerdict> verdicts = CaseFileRunner.run(file, KafkaCaseDriver::run);
            VERDICTS.addAll(verdicts);
            StringBuilder failures = new StringBuilder();
            for (CaseVerdict v : verdicts) {
                if (!v.passed()) {
                    System.out.println(v.report());
                    failures.append(v.name()).append(' ');
                }
            }
            assertTrue(failures.length() == 0, "failing cases: " + failures);
        }));
    }

    @AfterAll
    static void summary() {
        long passed = VERDICTS.stream().filter(CaseVerdict::passed).count();
        System.out.println("conformance (Kafka Streams processor on TopologyTestDriver): " + passed + " passed, "
                + (VERDICTS.size() - passed) + " failed");
        System.out.println("conformance: " + passed + " passed, " + (VERDICTS.size() - passed) + " failed");
    }
}
