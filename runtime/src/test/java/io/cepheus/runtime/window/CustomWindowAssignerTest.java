package io.cepheus.runtime.window;

import static io.cepheus.runtime.window.WindowTestKit.engine;
import static io.cepheus.runtime.window.WindowTestKit.summing;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.window.WindowTestKit.Ev;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Assigners written by users against the public {@link WindowAssigner} / {@link MergingWindowAssigner} interfaces
 * (Flink's custom {@code WindowAssigner}): their windows, their default trigger, event time, and for a merging
 * assigner the merge of its windows into their cover.
 */
class CustomWindowAssignerTest {

    /** Each element in its second and in its ten seconds: two tumbling granularities at once. */
    static final class SecondsAndTens implements WindowAssigner<Ev> {
        @Override
        public void assignWindows(Ev element, long timestamp, Context context, WindowSink windows) {
            long second = TimeWindow.windowStart(timestamp, 0, 1000);
            windows.add(second, second + 1000);
            long tens = TimeWindow.windowStart(timestamp, 0, 10_000);
            windows.add(tens, tens + 10_000);
        }

        @Override
        public Trigger<Ev> defaultTrigger() {
            return EventTimeTrigger.create();
        }

        @Override
        public boolean isEventTime() {
            return true;
        }
    }

    /**
     * 1@500, 2@1500, 4@9500, 8@10 500: windows [0,1000) = 1, [1000,2000) = 2, [9000,10000) = 4, [0,10000) = 7,
     * [10000,11000) = 8, [10000,20000) = 8, each fired by the default event-time trigger when the watermark reaches
     * its max timestamp. The two windows ending at 10 000 fire at the same watermark.
     */
    @Test
    void aNonMergingAssignerPutsElementsIntoSeveralWindowsOfItsOwn() {
        CepEngine<Ev> engine = engine();
        List<String> out = new ArrayList<>();
        WindowResults<Ev> results = engine.keyBy(Ev::key).window(new SecondsAndTens()).reduce(summing())
                .results((k, w, r, ts) -> out.add(w + " " + r.value() + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 500));
        in.send(new Ev("a", 2, 1500));
        in.send(new Ev("a", 4, 9500));
        in.send(new Ev("a", 8, 10_500));
        h.runUntilIdle();
        assertEquals(6, results.metrics().windows());
        in.watermark(999);
        h.runUntilIdle();
        assertEquals(List.of("[0,1000) 1 @999"), out);
        in.watermark(1999);
        h.runUntilIdle();
        assertEquals(List.of("[0,1000) 1 @999", "[1000,2000) 2 @1999"), out);
        out.clear();
        in.watermark(9999);
        h.runUntilIdle();
        assertEquals(Set.of("[9000,10000) 4 @9999", "[0,10000) 7 @9999"), Set.copyOf(out));
        assertEquals(2, out.size());
        out.clear();
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(Set.of("[10000,11000) 8 @10999", "[10000,20000) 8 @19999"), Set.copyOf(out));
        assertEquals(2, out.size());
        assertEquals(0, results.metrics().windows());
        h.close();
    }

    /**
     * An element opens the two seconds starting at its own second, [s, s + 2000); windows of a key that overlap
     * or touch merge into their cover (today's merge rule, the default of {@link MergingWindowAssigner}).
     */
    static final class TwoSecondsFromItsSecond implements MergingWindowAssigner<Ev> {
        @Override
        public void assignWindows(Ev element, long timestamp, Context context, WindowSink windows) {
            long second = TimeWindow.windowStart(timestamp, 0, 1000);
            windows.add(second, second + 2000);
        }

        @Override
        public Trigger<Ev> defaultTrigger() {
            return EventTimeTrigger.create();
        }

        @Override
        public boolean isEventTime() {
            return true;
        }
    }

    /**
     * 1@100 opens [0,2000); 2@1500 opens [1000,3000): merged [0,3000); 4@5000 opens [5000,7000). Watermark 2998
     * fires nothing ([0,3000) is due at 2999). 8@3000 opens [3000,5000), touching [0,3000) at 3000 and
     * [5000,7000) at 5000: all merge into [0,7000) = 15, which fires once at 6999.
     */
    @Test
    void aMergingAssignerHasItsWindowsMergedIntoTheirCover() {
        CepEngine<Ev> engine = engine();
        List<String> out = new ArrayList<>();
        WindowResults<Ev> results = engine.keyBy(Ev::key).window(new TwoSecondsFromItsSecond()).reduce(summing())
                .results((k, w, r, ts) -> out.add(w + " " + r.value() + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 100));
        in.send(new Ev("a", 2, 1500));
        in.send(new Ev("a", 4, 5000));
        in.watermark(2998);
        h.runUntilIdle();
        assertEquals(2, results.metrics().windows(), "[0,3000) and [5000,7000)");
        assertEquals(List.of(), out);
        in.send(new Ev("a", 8, 3000));
        h.runUntilIdle();
        assertEquals(1, results.metrics().windows(), "one window covers them all");
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(List.of("[0,7000) 15 @6999"), out);
        assertEquals(0, results.metrics().windows());
        assertEquals(0, results.metrics().timers());
        h.close();
    }
}
