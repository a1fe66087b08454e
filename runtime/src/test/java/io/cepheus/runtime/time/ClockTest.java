package io.cepheus.runtime.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The manual clock moves only forward and only when told; the system clock is a shared singleton. */
class ClockTest {

    @Test
    void aManualClockStartsWhereToldAndMovesOnlyWhenTold() {
        assertEquals(0, new ManualClock().millis());
        ManualClock clock = new ManualClock(1_000);
        assertEquals(1_000, clock.millis());
        assertEquals(1_250, clock.advance(250));
        assertEquals(3_250, clock.advance(Duration.ofSeconds(2)));
        assertEquals(3_250, clock.advance(Duration.ofNanos(999_999)), "truncated to whole milliseconds");
        clock.set(3_250);
        clock.set(10_000);
        assertEquals(10_000, clock.millis());
        assertEquals(10_000, clock.advance(0));
    }

    @Test
    void aManualClockNeverGoesBackwards() {
        ManualClock clock = new ManualClock(500);
        assertEquals("a ManualClock cannot go backwards: it is at 500 ms, asked to set 499 ms",
                assertThrows(IllegalArgumentException.class, () -> clock.set(499)).getMessage());
        assertEquals("a ManualClock cannot go backwards: asked to advance by -1 ms",
                assertThrows(IllegalArgumentException.class, () -> clock.advance(-1)).getMessage());
        assertEquals("a ManualClock cannot go backwards: asked to advance by PT-1S",
                assertThrows(IllegalArgumentException.class, () -> clock.advance(Duration.ofSeconds(-1))).getMessage());
        assertEquals(500, clock.millis(), "a rejected move leaves the clock where it was");
    }

    @Test
    void aManualClockRejectsOverflowAndNull() {
        ManualClock clock = new ManualClock(Long.MAX_VALUE - 1);
        assertEquals(Long.MAX_VALUE, clock.advance(1));
        assertThrows(IllegalArgumentException.class, () -> clock.advance(1));
        assertThrows(IllegalArgumentException.class, () -> new ManualClock().advance(Duration.ofSeconds(Long.MAX_VALUE)));
        assertThrows(NullPointerException.class, () -> clock.advance(null));
        assertEquals(Long.MAX_VALUE, clock.millis());
    }

    @Test
    void anyLambdaIsAClock() {
        Clock fixed = () -> 42;
        assertEquals(42, fixed.millis());
    }

    @Test
    void theSystemClockIsASharedSingleton() {
        // deliberately not read: tests never depend on the wall clock
        assertSame(Clock.system(), Clock.system());
        assertTrue(Clock.system() instanceof SystemClock);
    }
}
