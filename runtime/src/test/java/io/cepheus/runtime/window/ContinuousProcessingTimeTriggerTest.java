package io.cepheus.runtime.window;

import static io.cepheus.runtime.window.WindowTestKit.engine;
import static io.cepheus.runtime.window.WindowTestKit.summing;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.window.WindowTestKit.Ev;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Flink's {@code ContinuousProcessingTimeTrigger}: the first element of a window (no fire time in its state) at
 * clock {@code now} sets the next fire time to {@code min(now - now % interval + interval, maxTimestamp)}; when the
 * clock reaches it the window fires (accumulating: everything so far) and the next one is set the same way from the
 * fired time, so the last firing is at the window's max timestamp, where processing-time windows are also removed.
 * On merge the fire times of the merged windows combine by min and the timer is registered for the new window.
 */
class ContinuousProcessingTimeTriggerTest {

    private static void at(ManualClock clock, long t, CepTestHarness<Ev> h) {
        clock.set(t);
        h.runUntilIdle();
    }

    /**
     * Tumbling processing-time windows of 10 s, interval 3 s. 1 at clock 1000: next fire min(0 + 3000, 9999) = 3000;
     * 2 at 2000 changes nothing. At 2999 nothing; at 3000 it fires 3, next 6000; 4 arrives at 5000; 6000 fires 7,
     * next 9000; 9000 fires 7, next min(12 000, 9999) = 9999; 9999 fires 7 once more (the trigger's timer and the
     * window's cleanup are the same instant) and the window goes. All carry the window's max timestamp 9999.
     */
    @Test
    void firesEveryIntervalOfTheClockAndLastAtTheWindowEnd() {
        ManualClock clock = new ManualClock(1000);
        CepEngine<Ev> engine = engine(clock);
        List<String> out = new ArrayList<>();
        WindowResults<Ev> results = engine.keyBy(Ev::key)
                .window(TumblingProcessingTimeWindows.of(Duration.ofSeconds(10)))
                .trigger(ContinuousProcessingTimeTrigger.of(Duration.ofSeconds(3)))
                .reduce(summing())
                .results((k, w, r, ts) -> out.add(clock.millis() + ": " + w + " " + r.value() + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 0));
        h.runUntilIdle();
        clock.set(2000);
        in.send(new Ev("a", 2, 0));
        h.runUntilIdle();
        at(clock, 2999, h);
        assertEquals(List.of(), out);
        at(clock, 3000, h);
        clock.set(5000);
        in.send(new Ev("a", 4, 0));
        h.runUntilIdle();
        at(clock, 6000, h);
        at(clock, 9000, h);
        at(clock, 9998, h);
        assertEquals(3, out.size());
        at(clock, 9999, h);
        assertEquals(List.of("3000: [0,10000) 3 @9999", "6000: [0,10000) 7 @9999", "9000: [0,10000) 7 @9999",
                "9999: [0,10000) 7 @9999"), out);
        WindowMetrics m = results.metrics();
        assertEquals(0, m.windows());
        assertEquals(0, m.timers());
        assertEquals(0, engine.metrics().shards().get(0).keys());
        h.close();
    }

    /**
     * Processing-time sessions, gap 5 s, interval 2 s. 1 at clock 500 opens [500,5500), next fire 2000. At 2000 it
     * fires 1 (@5499), next 4000. 2 at 3000 opens [3000,8000): merged [500,8000), whose fire time is the merged
     * state (4000) with its timer registered anew. So 4000 fires 3 for the merged window, next 6000; 6000 fires 3,
     * next min(8000, 7999) = 7999; 7999 fires 3 and the session goes. Nothing fires at 5499, the merged-away
     * window's end.
     */
    @Test
    void mergedSessionsKeepTheEarliestFireTime() {
        ManualClock clock = new ManualClock(500);
        CepEngine<Ev> engine = engine(clock);
        List<String> out = new ArrayList<>();
        WindowResults<Ev> results = engine.keyBy(Ev::key)
                .window(ProcessingTimeSessionWindows.withGap(Duration.ofSeconds(5)))
                .trigger(ContinuousProcessingTimeTrigger.of(Duration.ofSeconds(2)))
                .reduce(summing())
                .results((k, w, r, ts) -> out.add(clock.millis() + ": " + w + " " + r.value() + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 0));
        h.runUntilIdle();
        at(clock, 1999, h);
        assertEquals(List.of(), out);
        at(clock, 2000, h);
        clock.set(3000);
        in.send(new Ev("a", 2, 0));
        h.runUntilIdle();
        at(clock, 3999, h);
        assertEquals(1, out.size());
        at(clock, 4000, h);
        at(clock, 5499, h);
        assertEquals(2, out.size());
        at(clock, 6000, h);
        at(clock, 7999, h);
        assertEquals(List.of("2000: [500,5500) 1 @5499", "4000: [500,8000) 3 @7999", "6000: [500,8000) 3 @7999",
                "7999: [500,8000) 3 @7999"), out);
        assertEquals(0, results.metrics().windows());
        assertEquals(0, results.metrics().timers());
        h.close();
    }

    /**
     * An event-time window whose end the clock has long passed (clock 1 000 000, window [0,10)): the first fire time
     * is {@code min(..., maxTimestamp)} = 9, already due, so the window fires at once, and at its end it sets no
     * next fire time, which would be 9 again, due at once, for ever (Flink loops there, FLINK-35069). Each new
     * element fires it once more; the watermark removes it at its end without a firing of this trigger.
     */
    @Test
    void anEventTimeWindowPastItsEndOnTheClockFiresOncePerElementInsteadOfLooping() {
        ManualClock clock = new ManualClock(1_000_000);
        CepEngine<Ev> engine = engine(clock);
        List<String> out = new ArrayList<>();
        WindowResults<Ev> results = engine.keyBy(Ev::key)
                .window(TumblingEventTimeWindows.of(Duration.ofMillis(10)))
                .trigger(ContinuousProcessingTimeTrigger.of(Duration.ofSeconds(3)))
                .reduce(summing())
                .results((k, w, r, ts) -> out.add(w + " " + r.value() + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 1));
        at(clock, 1_000_001, h);
        in.send(new Ev("a", 2, 2));
        at(clock, 1_000_002, h);
        in.watermark(20);
        h.runUntilIdle();
        assertEquals(List.of("[0,10) 1 @9", "[0,10) 3 @9"), out);
        assertEquals(0, results.metrics().windows());
        assertEquals(0, results.metrics().timers());
        h.close();
    }
}
