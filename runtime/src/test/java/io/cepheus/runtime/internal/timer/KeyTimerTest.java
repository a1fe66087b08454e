package io.cepheus.runtime.internal.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyTimerTest {

    private final TimerService service = new TimerService();
    private final List<String> fired = new ArrayList<>();

    @Test
    void eachKeyHasOneTimerThatMovesAndGoes() {
        KeyTimer timer = new KeyTimer(service, 7, true);
        assertEquals(KeyTimer.NONE, timer.at(3));
        assertTrue(timer.moveTo(3, 100));
        assertFalse(timer.moveTo(3, 100), "already there");
        assertTrue(timer.moveTo(3, 50));
        assertTrue(timer.moveTo(500, 70), "ids beyond the initial capacity");
        assertEquals(2, service.eventTimeTimers(), "the move deleted the timer at 100");
        service.advanceWatermark(200, (key, ns, ts) -> {
            fired.add(key + "@" + ts);
            assertTrue(timer.fired(key, ts));
        });
        assertEquals(List.of("3@50", "500@70"), fired);
        assertEquals(KeyTimer.NONE, timer.at(3));
        assertFalse(service.hasTimers(3));
    }

    @Test
    void removingATimerAndStaleFiringsAreIgnored() {
        KeyTimer timer = new KeyTimer(service, 1, false);
        timer.moveTo(2, 40);
        timer.moveTo(2, KeyTimer.NONE);
        assertEquals(0, service.processingTimeTimers());
        assertFalse(timer.fired(2, 40), "no timer any more");
        timer.moveTo(2, 60);
        assertFalse(timer.fired(2, 40), "not the key's current timer");
        assertTrue(timer.fired(2, 60));
        assertFalse(timer.fired(9_999, 60), "an unknown key");
    }
}
