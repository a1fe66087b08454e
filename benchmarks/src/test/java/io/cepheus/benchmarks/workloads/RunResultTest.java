package io.cepheus.benchmarks.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The count gate that QuickBench and the JMH benchmark rely on before reporting any speed. */
class RunResultTest {

    @Test
    void theExpectedResultHasNoDifferences() {
        RunResult expected = new RunResult(380_698, 69_354, Workload.W4.expectedChecksum());

        assertEquals(List.of(), expected.differencesFrom(Workload.W4));
    }

    @Test
    void everyDifferenceIsNamedWithItsSize() {
        RunResult off = new RunResult(380_697, 69_356, 0);

        assertEquals(List.of("matches: expected 380,698, got 380,697 (-1)",
                "timeouts: expected 69,354, got 69,356 (+2)",
                "checksum: expected 86fde9db71644037, got 0000000000000000"), off.differencesFrom(Workload.W4));
    }

    @Test
    void timeoutsAreIgnoredWhereWorkloadsMdDoesNotCountThem() {
        RunResult w1 = new RunResult(2_220, 12_345, Workload.W1.expectedChecksum());

        assertEquals(List.of(), w1.differencesFrom(Workload.W1));
    }

    @Test
    void mixIsTheSpecFormula() {
        long h = 3 * 0x9E3779B97F4A7C15L + 5;

        assertEquals(h ^ (h >>> 29), MatchChecksum.mix(3, 5));
        assertEquals("0000000000000001", MatchChecksum.hex(1));
    }
}
