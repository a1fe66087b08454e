package io.cepheus.benchmarks.workloads;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The generator reproduces WORKLOADS.md's streams: a brute-force count over the generated stream (no NFA)
 * gives exactly the published counts and checksums. If this fails, the generator is wrong; if only
 * {@link WorkloadCountsTest} fails, the engine is.
 */
class WorkloadGeneratorTest {

    @ParameterizedTest
    @EnumSource(Workload.class)
    void bruteForceCountsOnTheGeneratedStreamAreThoseOfWorkloadsMd(Workload workload) {
        RunResult counted = BruteForceCounter.count(TestStreams.of(workload));

        assertEquals(workload.expectedMatches(), counted.matches(), "matches");
        assertEquals(MatchChecksum.hex(workload.expectedChecksum()), MatchChecksum.hex(counted.checksum()),
                "checksum");
        if (workload.countsTimeouts()) {
            assertEquals(workload.expectedTimeouts(), counted.timeouts(), "timeouts");
        }
    }

    @ParameterizedTest
    @EnumSource(Workload.class)
    void eventsFollowTheSpecShape(Workload workload) {
        WorkloadStream stream = TestStreams.of(workload);

        assertEquals(workload.events(), stream.size());
        for (int i = 0; i < stream.size(); i++) {
            BenchEvent event = stream.events()[i];
            assertEquals(WorkloadGenerator.FIRST_TIMESTAMP + i * workload.stepMs(), stream.timestamps()[i]);
            assertEquals(new BenchEvent(stream.keys()[i], stream.types()[i], stream.values()[i],
                    stream.timestamps()[i]), event);
            assertTrue(event.key() >= 0 && event.key() < workload.keys(), "key " + event.key());
            assertTrue(event.value() >= 0 && event.value() < 1000, "value " + event.value());
        }
    }

    @Test
    void aSeedDeterminesTheStreamAndAnotherSeedChangesIt() {
        WorkloadStream first = WorkloadGenerator.generate(Workload.W3, 7);
        WorkloadStream again = WorkloadGenerator.generate(Workload.W3, 7);
        WorkloadStream other = WorkloadGenerator.generate(Workload.W3, 8);

        assertArrayEquals(first.keys(), again.keys());
        assertArrayEquals(first.types(), again.types());
        assertArrayEquals(first.values(), again.values());
        assertTrue(!java.util.Arrays.equals(first.keys(), other.keys()), "seed 8 gave seed 7's keys");
    }
}
