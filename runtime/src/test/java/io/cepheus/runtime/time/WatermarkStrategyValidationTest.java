package io.cepheus.runtime.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Bad arguments fail at once, with a message naming the argument and the value. */
class WatermarkStrategyValidationTest {

    private final WatermarkStrategy<String> strategy = WatermarkStrategy.forMonotonousTimestamps();

    private static void assertMessage(Class<? extends Throwable> type, String message, Executable call) {
        assertEquals(message, assertThrows(type, call).getMessage());
    }

    @Test
    void nullsAreRejectedByName() {
        assertMessage(NullPointerException.class, "maxOutOfOrderness",
                () -> WatermarkStrategy.forBoundedOutOfOrderness(null));
        assertMessage(NullPointerException.class, "generatorSupplier", () -> WatermarkStrategy.forGenerator(null));
        assertMessage(NullPointerException.class, "timestampAssigner", () -> strategy.withTimestampAssigner(null));
        assertMessage(NullPointerException.class, "idleTimeout", () -> strategy.withIdleness(null));
        assertMessage(NullPointerException.class, "autoWatermarkInterval",
                () -> strategy.withAutoWatermarkInterval(null));
        assertMessage(NullPointerException.class, "clock", () -> strategy.createGenerator(null));
    }

    @Test
    void aNegativeOutOfOrdernessIsRejected() {
        assertMessage(IllegalArgumentException.class, "maxOutOfOrderness must not be negative, got PT-0.001S",
                () -> WatermarkStrategy.forBoundedOutOfOrderness(Duration.ofMillis(-1)));
        assertMessage(IllegalArgumentException.class,
                "maxOutOfOrderness must not be negative, got PT-2562047788015215H-30M-8S",
                () -> WatermarkStrategy.forBoundedOutOfOrderness(Duration.ofSeconds(Long.MIN_VALUE)));
    }

    @Test
    void theIdleTimeoutMustBeAtLeastOneMillisecond() {
        assertMessage(IllegalArgumentException.class, "idleTimeout must be at least 1 ms, got PT0S",
                () -> strategy.withIdleness(Duration.ZERO));
        assertMessage(IllegalArgumentException.class, "idleTimeout must be at least 1 ms, got PT0.0009S",
                () -> strategy.withIdleness(Duration.ofNanos(900_000)));
        assertMessage(IllegalArgumentException.class, "idleTimeout must be at least 1 ms, got PT-1S",
                () -> strategy.withIdleness(Duration.ofSeconds(-1)));
        // hugely negative: toMillis would overflow, which must not pass for a huge positive timeout
        assertThrows(IllegalArgumentException.class, () -> strategy.withIdleness(Duration.ofSeconds(Long.MIN_VALUE)));
        strategy.withIdleness(Duration.ofMillis(1));
        strategy.withIdleness(Duration.ofSeconds(Long.MAX_VALUE));
    }

    @Test
    void theAutoWatermarkIntervalMustBeAtLeastOneMillisecond() {
        assertMessage(IllegalArgumentException.class, "autoWatermarkInterval must be at least 1 ms, got PT0S",
                () -> strategy.withAutoWatermarkInterval(Duration.ZERO));
        assertMessage(IllegalArgumentException.class, "autoWatermarkInterval must be at least 1 ms, got PT-0.2S",
                () -> strategy.withAutoWatermarkInterval(Duration.ofMillis(-200)));
        assertThrows(IllegalArgumentException.class,
                () -> strategy.withAutoWatermarkInterval(Duration.ofSeconds(Long.MIN_VALUE)));
        assertEquals(Long.MAX_VALUE,
                strategy.withAutoWatermarkInterval(Duration.ofSeconds(Long.MAX_VALUE)).autoWatermarkIntervalMillis());
    }
}
