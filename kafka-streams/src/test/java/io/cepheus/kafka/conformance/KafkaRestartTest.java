package io.cepheus.kafka.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.conformance.CaseFileRunner;
import io.cepheus.nfa.conformance.CaseVerdict;
import io.cepheus.nfa.conformance.ConformanceDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import io.cepheus.kafka.TestDriverRig;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Restart equivalence on the conformance cases: each case runs with the driver closed and reopened at random points
 * of its input (a seed per case, printed on failure), on the state it left or on state rebuilt from the changelog
 * topic alone, and must still give the expected output: the state store holds everything the processor needs to go
 * on, and the changelog holds the store.
 */
class KafkaRestartTest {

    private static final long SEED = Long.getLong("cepheus.seed", 20261202L);

    @TestFactory
    Stream<DynamicTest> everyCaseWithRestarts() throws IOException {
        ConformanceDirectory dir = ConformanceDirectory.fromSystem();
        List<Path> files;
        try (Stream<Path> list = Files.list(dir.requireExisting(ConformanceDirectory.DIR_PROPERTY))) {
            files = list.filter(p -> p.getFileName().toString().endsWith(".case")).sorted().toList();
        }
        return files.stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
            long seed = SEED ^ file.getFileName().toString().hashCode();
            Random random = new Random(seed);
            List<CaseVerdict> verdicts = CaseFileRunner.run(file, c -> {
                Map<Integer, TestDriverRig.Restart> cuts = new TreeMap<>();
                int n = c.input().size();
                for (int i = 0; n > 0 && i < 1 + random.nextInt(4); i++) {
                    cuts.put(random.nextInt(n), random.nextBoolean() ? TestDriverRig.Restart.SAME_STATE
                            : TestDriverRig.Restart.FROM_CHANGELOG);
                }
                return KafkaCaseDriver.run(c, cuts);
            });
            StringBuilder failures = new StringBuilder();
            for (CaseVerdict v : verdicts) {
                if (!v.passed()) {
                    System.out.println(v.report());
                    failures.append(v.name()).append(' ');
                }
            }
            assertTrue(failures.length() == 0, "failing cases with restarts (seed " + seed + ", -Dcepheus.seed="
                    + SEED + "): " + failures);
        }));
    }
}
