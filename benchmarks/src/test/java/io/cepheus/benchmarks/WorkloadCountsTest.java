package io.cepheus.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.nfa.NfaCompiler;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The engine reproduces WORKLOADS.md exactly: W1-W4 at full size (seed 42), matches, W4's timeouts and the
 * match checksums. Benchmark numbers mean nothing unless this passes.
 */
class WorkloadCountsTest {

    @ParameterizedTest
    @EnumSource(Workload.class)
    void countsAndChecksumAreThoseOfWorkloadsMd(Workload workload) {
        RunResult result = WorkloadRunner.forWorkload(workload).run(WorkloadGenerator.generate(workload));

        assertAgreesWithWorkloadsMd(workload, result);
    }

    /**
     * A timed-out partial match is reported once whether its key's time is pushed by watermarks or only by
     * its own events and the final flush: periodic watermarks change when, never how many.
     */
    @ParameterizedTest
    @EnumSource(Workload.class)
    void periodicWatermarksToEveryKeyGiveTheSameCounts(Workload workload) {
        WorkloadRunner runner = new WorkloadRunner(NfaCompiler.compile(Workloads.pattern(workload)),
                WorkloadRunner.Watermarks.EVERY_1000_EVENTS);

        assertAgreesWithWorkloadsMd(workload, runner.run(WorkloadGenerator.generate(workload)));
    }

    private static void assertAgreesWithWorkloadsMd(Workload workload, RunResult result) {
        assertEquals(workload.expectedMatches(), result.matches(), workload + " matches");
        if (workload.countsTimeouts()) {
            assertEquals(workload.expectedTimeouts(), result.timeouts(), workload + " timeouts");
        }
        assertEquals(MatchChecksum.hex(workload.expectedChecksum()), MatchChecksum.hex(result.checksum()),
                workload + " checksum");
    }
}
