package io.cepheus.benchmarks.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.CompiledPattern;
import io.cepheus.nfa.NfaCompiler;
import org.junit.jupiter.api.Test;
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
        RunResult result = WorkloadRunner.forWorkload(workload).run(TestStreams.of(workload));

        assertAgreesWithWorkloadsMd(workload, result);
    }

    /** Reading the next keys' states ahead changes when memory is read, never what is matched. */
    @ParameterizedTest
    @EnumSource(Workload.class)
    void readingAheadGivesTheSameCounts(Workload workload) {
        WorkloadRunner runner = WorkloadRunner.forWorkload(workload).withReadAhead(WorkloadRunner.DEFAULT_READ_AHEAD);

        assertEquals(WorkloadRunner.DEFAULT_READ_AHEAD, runner.readAhead());
        assertAgreesWithWorkloadsMd(workload, runner.run(TestStreams.of(workload)));
    }

    /**
     * Keeping states only for keys with something pending, as the runtime does, changes what memory the loop
     * holds, never what is matched: with and without reading ahead.
     */
    @ParameterizedTest
    @EnumSource(Workload.class)
    void releasingIdleKeysGivesTheSameCounts(Workload workload) {
        WorkloadRunner releasing = WorkloadRunner.forWorkload(workload).withIdleRelease();
        WorkloadRunner releasingAhead = releasing.withReadAhead(WorkloadRunner.DEFAULT_READ_AHEAD);

        assertTrue(releasing.releasesIdle() && releasingAhead.releasesIdle());
        assertFalse(WorkloadRunner.forWorkload(workload).releasesIdle());
        assertAgreesWithWorkloadsMd(workload, releasing.run(TestStreams.of(workload)));
        assertAgreesWithWorkloadsMd(workload, releasingAhead.run(TestStreams.of(workload)));
    }

    @Test
    void aNegativeReadAheadIsRejected() {
        WorkloadRunner runner = WorkloadRunner.forWorkload(Workload.W1);

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> runner.withReadAhead(-1));
        assertTrue(e.getMessage().contains("-1"), e.getMessage());
    }

    /**
     * A timed-out partial match is reported once whether its key's time is pushed by watermarks or only by
     * its own events and the final flush: periodic watermarks change when, never how many. Checked on W1 and
     * W3 (thousands of timeouts each, cheap to visit every key); on W2 and W4 a watermark to every key every
     * 1,000 events costs 10-50 M {@code advanceTime} calls, too slow for every build, so those two are checked
     * by hand: {@code VerifyCounts --watermarks-every-1000}.
     */
    @ParameterizedTest
    @EnumSource(value = Workload.class, names = {"W1", "W3"})
    void periodicWatermarksToEveryKeyChangeNoCount(Workload workload) {
        CompiledPattern<BenchEvent> compiled = NfaCompiler.compile(Workloads.pattern(workload));
        WorkloadStream stream = TestStreams.of(workload);

        RunResult atEnd = new WorkloadRunner(compiled, WorkloadRunner.Watermarks.AT_END).run(stream);
        RunResult periodic = new WorkloadRunner(compiled, WorkloadRunner.Watermarks.EVERY_1000_EVENTS).run(stream);

        RunResult periodicReleasing = new WorkloadRunner(compiled, WorkloadRunner.Watermarks.EVERY_1000_EVENTS)
                .withIdleRelease().run(stream);

        assertEquals(atEnd, periodic, workload + ": at-end flush vs a watermark every 1,000 events");
        assertEquals(atEnd, periodicReleasing, workload + ": the same with idle keys released");
        assertAgreesWithWorkloadsMd(workload, periodic);
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
