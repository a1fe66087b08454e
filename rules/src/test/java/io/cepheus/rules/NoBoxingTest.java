package io.cepheus.rules;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.SimpleCondition;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * Numeric comparisons on {@code int}, {@code long} and {@code double} fields, and string and character equality,
 * allocate nothing per event: the compiled condition reads the fields unboxed. Counted with the JVM's per-thread
 * allocation counter, which is exact, so the test does not depend on timing.
 */
class NoBoxingTest {

    record Reading(char type, int value, long id, double rate, String unit) {
    }

    @Test
    void comparingPrimitiveFieldsAllocatesNothing() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        SimpleCondition<Reading> condition = (SimpleCondition<Reading>) Rules.expression(
                "value != 7 && type == 'A' && value > 5 && value * 2 < 10000 && id >= 1000000000000 && rate < 0.75"
                        + " && unit == 'ms' && type in ('A', 'B') && value not in (1, 2, 3) && value + rate > 6",
                Reading.class);
        Reading[] readings = new Reading[64];
        for (int i = 0; i < readings.length; i++) {
            readings[i] = new Reading(i % 2 == 0 ? 'A' : 'B', 6 + i, 1_000_000_000_000L + i, 0.5, "ms");
        }
        int hits = 0;
        for (int round = 0; round < 20_000; round++) { // warm up: let the JIT compile it, as a running engine would
            hits += condition.filter(readings[round % readings.length]) ? 1 : 0;
        }
        long evaluations = 1_000_000;
        long before = threads.getCurrentThreadAllocatedBytes();
        for (long i = 0; i < evaluations; i++) {
            hits += condition.filter(readings[(int) (i % readings.length)]) ? 1 : 0;
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(hits > 0);
        // a boxed Long per evaluation would be 16,000,000 bytes; the counter itself allocates a little
        assertTrue(allocated < 64 * 1024, allocated + " bytes allocated over " + evaluations + " evaluations");
    }
}
