package io.cepheus.runtime.internal.time;

import static io.cepheus.runtime.internal.time.WatermarkValve.NO_ADVANCE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Worked examples of combining inputs; {@link WatermarkValvePropertyTest} checks random sequences. */
class WatermarkValveTest {

    private final WatermarkValve valve = new WatermarkValve();

    @Test
    void aSingleInputPassesIncreasesOnly() {
        int a = valve.addInput();
        assertEquals(Long.MIN_VALUE, valve.current());
        assertEquals(10, valve.onWatermark(a, 10));
        assertEquals(NO_ADVANCE, valve.onWatermark(a, 10), "equal: not reported again");
        assertEquals(NO_ADVANCE, valve.onWatermark(a, 4), "lower: ignored");
        assertEquals(10, valve.watermarkOf(a));
        assertEquals(11, valve.onWatermark(a, 11));
        assertEquals(11, valve.current());
    }

    @Test
    void theOutputIsTheMinimumOverInputs() {
        int a = valve.addInput();
        int b = valve.addInput();
        assertEquals(NO_ADVANCE, valve.onWatermark(a, 100), "b has said nothing yet");
        assertEquals(50, valve.onWatermark(b, 50));
        assertEquals(80, valve.onWatermark(b, 80));
        assertEquals(100, valve.onWatermark(b, 120), "b overtakes a: a is the minimum now");
        assertEquals(NO_ADVANCE, valve.onWatermark(b, 130), "raising b, which is above the output, changes nothing");
        assertEquals(110, valve.onWatermark(a, 110));
    }

    @Test
    void anIdleInputIsLeftOutAndRejoinsWithoutLoweringTheOutput() {
        int a = valve.addInput();
        int b = valve.addInput();
        valve.onWatermark(a, 100);
        valve.onWatermark(b, 20);
        assertEquals(20, valve.current());
        assertEquals(100, valve.onIdle(b), "b idle: a alone decides");
        assertTrue(valve.isIdle(b));
        assertEquals(150, valve.onWatermark(a, 150));
        assertEquals(NO_ADVANCE, valve.onActive(b), "b back at 20: never lowers the output");
        assertEquals(150, valve.current());
        assertEquals(NO_ADVANCE, valve.onWatermark(a, 300), "but b holds it until b passes it");
        assertEquals(NO_ADVANCE, valve.onWatermark(b, 150));
        assertEquals(200, valve.onWatermark(b, 200));
        assertEquals(300, valve.onWatermark(b, 400));
    }

    @Test
    void whenEveryInputIsIdleTheOutputHolds() {
        int a = valve.addInput();
        int b = valve.addInput();
        valve.onWatermark(a, 100);
        valve.onWatermark(b, 500);
        assertEquals(100, valve.current());
        assertEquals(NO_ADVANCE, valve.onIdle(b));
        assertEquals(NO_ADVANCE, valve.onIdle(a), "all idle: no jump to b's 500 (Flink's task valve would)");
        assertEquals(0, valve.activeInputCount());
        assertEquals(100, valve.current());
        assertEquals(NO_ADVANCE, valve.onIdle(a), "already idle");
        assertEquals(500, valve.onActive(b), "b alone is active again: its watermark counts");
        assertEquals(NO_ADVANCE, valve.onActive(a), "a rejoins below the output: held, not lowered");
        assertEquals(500, valve.current());
    }

    @Test
    void aWatermarkFromAnIdleInputMarksItActive() {
        int a = valve.addInput();
        int b = valve.addInput();
        valve.onWatermark(a, 10);
        valve.onIdle(b);
        assertEquals(10, valve.current());
        assertEquals(NO_ADVANCE, valve.onWatermark(b, 5), "b is active again, below the output");
        assertFalse(valve.isIdle(b));
        assertEquals(2, valve.activeInputCount());
        assertEquals(NO_ADVANCE, valve.onWatermark(a, 30), "held by b at 5");
        assertEquals(30, valve.onWatermark(b, 40));
    }

    @Test
    void anInputAddedLaterHoldsTheOutputUntilItCatchesUp() {
        int a = valve.addInput();
        valve.onWatermark(a, 100);
        int b = valve.addInput();
        assertEquals(100, valve.current(), "adding an input never lowers the output");
        assertEquals(NO_ADVANCE, valve.onWatermark(a, 200));
        assertEquals(150, valve.onWatermark(b, 150));
    }

    @Test
    void theEndOfInputWatermarkPassesThrough() {
        int a = valve.addInput();
        int b = valve.addInput();
        valve.onWatermark(a, Long.MAX_VALUE);
        assertEquals(Long.MAX_VALUE, valve.onWatermark(b, Long.MAX_VALUE));
    }

    @Test
    void noInputsMeansNoProgress() {
        assertEquals(0, valve.inputCount());
        assertEquals(Long.MIN_VALUE, valve.current());
    }

    @Test
    void growsPastItsInitialCapacity() {
        WatermarkValve small = new WatermarkValve(1);
        for (int i = 0; i < 10; i++) {
            assertEquals(i, small.addInput());
        }
        for (int i = 9; i >= 1; i--) {
            assertEquals(NO_ADVANCE, small.onWatermark(i, i * 10L));
        }
        assertEquals(10, small.onWatermark(0, 1_000));
        assertEquals(20, small.onIdle(1));
        assertEquals(10, small.inputCount());
        assertEquals(9, small.activeInputCount());
    }

    @Test
    void unregisteredInputsAreRejected() {
        valve.addInput();
        valve.addInput();
        assertEquals("watermark valve input 2 is not registered (2 inputs)",
                assertThrows(IndexOutOfBoundsException.class, () -> valve.onWatermark(2, 1)).getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> valve.onIdle(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> valve.onActive(5));
        assertThrows(IndexOutOfBoundsException.class, () -> valve.isIdle(2));
        assertThrows(IndexOutOfBoundsException.class, () -> valve.watermarkOf(2));
        assertEquals("expectedInputs must not be negative, got -1",
                assertThrows(IllegalArgumentException.class, () -> new WatermarkValve(-1)).getMessage());
    }
}
