package io.cepheus.benchmarks.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.benchmarks.workloads.RunResult;
import org.junit.jupiter.api.Test;

/**
 * {@code --keys} changes only the window rows' key count, and the table then says the input is not the benchmark's.
 * Runs both engines on a short prefix, so it stays fast.
 */
class FlinkComparisonTest {

    @Test
    void fewerKeysGiveAWindowRowOnThatManyKeysThatBothEnginesAgreeOn() throws Exception {
        Comparison comparison = FlinkComparison.build("tumbling", 20_000, 3);

        assertTrue(comparison.input().startsWith("NOT THE BENCHMARK INPUT: 20,000 elements, 3 keys"),
                comparison.input());
        RunResult cepheus = feed(comparison.cepheus().get(0));
        RunResult flink = feed(comparison.flink());
        assertEquals(flink, cepheus);
        // 20 s of event time from a minute boundary, the first elements up to 200 ms early: two minutes per key
        assertEquals(3 * 2, cepheus.matches(), "windows fired: " + cepheus);
        assertEquals(20_000, cepheus.timeouts(), "each element counted once");
    }

    @Test
    void theDefaultKeyCountIsTheBenchmarkInput() {
        Comparison comparison = FlinkComparison.build("session", 0, WindowInput.KEYS);

        assertEquals("10,000 keys", comparison.input());
    }

    private static RunResult feed(Contender contender) throws Exception {
        try (Trial trial = contender.prepare()) {
            return trial.feed();
        }
    }
}
