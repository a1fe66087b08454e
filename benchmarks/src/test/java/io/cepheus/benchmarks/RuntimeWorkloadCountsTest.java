package io.cepheus.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.benchmarks.workloads.*;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The runtime engine reproduces WORKLOADS.md end to end: W1-W4 at full size (seed 42) through a started
 * {@code CepEngine} with real shard threads, one producer, a watermark every 1,000 events and the final flush
 * of {@code close()}: matches, W4's timeouts and the match checksums, with one shard and with two (keys split
 * across threads, per-thread counts merged). The runtime's benchmark figures mean nothing unless this passes.
 */
class RuntimeWorkloadCountsTest {

    @ParameterizedTest(name = "{0} through {1} shard(s)")
    @CsvSource({"W1, 1", "W1, 2", "W2, 1", "W2, 2", "W3, 1", "W3, 2", "W4, 1", "W4, 2"})
    void countsAndChecksumAreThoseOfWorkloadsMd(Workload workload, int shards) {
        RunResult result = RuntimeWorkloadRunner.forWorkload(workload, shards).run(WorkloadGenerator.generate(workload));

        assertAgreesWithWorkloadsMd(workload + " through " + shards + " shard(s)", workload, result);
    }

    /**
     * The latency mode counts the same, and records exactly one latency per match, none negative (a match
     * cannot be emitted before its last event was due). The rate is set far above what the machine does, so
     * the producer never waits and the test takes no longer than a plain run.
     */
    @Test
    void pacedRunCountsTheSameAndTimesEveryMatch() {
        Workload workload = Workload.W1;

        PacedRun run = RuntimeWorkloadRunner.forWorkload(workload, 2)
                .runPaced(WorkloadGenerator.generate(workload), 1_000_000_000L);

        assertAgreesWithWorkloadsMd("paced W1 through 2 shards", workload, run.result());
        assertEquals(workload.expectedMatches(), run.latencyNanos().length, "one latency per match");
        assertTrue(run.latencyNanos()[0] >= 0, "smallest latency " + run.latencyNanos()[0] + " ns");
        assertTrue(run.percentile(0.5) <= run.percentile(0.99), "percentiles are ordered");
    }

    private static void assertAgreesWithWorkloadsMd(String what, Workload workload, RunResult result) {
        assertEquals(workload.expectedMatches(), result.matches(), what + ": matches");
        if (workload.countsTimeouts()) {
            assertEquals(workload.expectedTimeouts(), result.timeouts(), what + ": timeouts");
        }
        assertEquals(MatchChecksum.hex(workload.expectedChecksum()), MatchChecksum.hex(result.checksum()),
                what + ": checksum");
    }
}
