package io.cepheus.runtime.conformance;

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
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every conformance case through the whole engine: with one shard and with three driven by the test harness on
 * this thread, and with three shards on their own threads, as a service runs them (with several shards the
 * case's stream is sent under several keys, see {@link EngineConformanceDriver}); with the NFA suite's closing
 * line.
 */
class EngineConformanceTest {

    private static final List<CaseVerdict> VERDICTS = new ArrayList<>();

    @TestFactory
    Stream<DynamicContainer> everyCaseWithOneAndSeveralShards() throws IOException {
        ConformanceDirectory dir = ConformanceDirectory.fromSystem();
        List<Path> files;
        try (Stream<Path> list = Files.list(dir.requireExisting(ConformanceDirectory.DIR_PROPERTY))) {
            files = list.filter(p -> p.getFileName().toString().endsWith(".case")).sorted().toList();
        }
        assertTrue(!files.isEmpty(), "no *.case files in conformance directory " + dir.chosen());
        record Run(int shards, boolean onThreads) {
            @Override
            public String toString() {
                return shards + " shard(s)" + (onThreads ? " on their own threads" : " driven by the harness");
            }
        }
        return Stream.of(new Run(1, false), new Run(3, false), new Run(3, true)).map(run ->
                DynamicContainer.dynamicContainer(run.toString(),
                files.stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
                    List<CaseVerdict> verdicts = CaseFileRunner.run(file,
                            c -> EngineConformanceDriver.run(c, run.shards(), run.onThreads()));
                    VERDICTS.addAll(verdicts);
                    StringBuilder failures = new StringBuilder();
                    for (CaseVerdict v : verdicts) {
                        if (!v.passed()) {
                            System.out.println("[" + run + "] " + v.report());
                            failures.append(v.name()).append(' ');
                        }
                    }
                    assertTrue(failures.length() == 0, "failing cases: " + failures);
                }))));
    }

    @AfterAll
    static void summary() {
        long passed = VERDICTS.stream().filter(CaseVerdict::passed).count();
        System.out.println("conformance (engine: 1 and 3 shards by the harness, 3 on threads): " + passed + " passed, "
                + (VERDICTS.size() - passed) + " failed");
        System.out.println("conformance: " + passed + " passed, " + (VERDICTS.size() - passed) + " failed");
    }
}
