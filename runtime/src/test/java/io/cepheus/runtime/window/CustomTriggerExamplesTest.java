package io.cepheus.runtime.window;

import static io.cepheus.runtime.window.WindowTestKit.engine;
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
 * User-written triggers and process functions as Flink's documentation shows them, with outputs computed by hand
 * from Flink's semantics: a merging trigger on event-time sessions whose per-window state adds up over merges
 * ({@code onMerge} runs before the new element's {@code onElement}, with the merged windows' states merged into the
 * new window's, and then the merged windows are cleared, timers and all); a trigger that fires early from a
 * processing-time timer of an event-time window; and what a {@link ProcessWindowFunction}'s context reports: the
 * clock when the window fires (not a timer's time), the operator's watermark (the new one, when a watermark
 * passes several windows' ends at once) and the window.
 */
class CustomTriggerExamplesTest {

    private static void at(ManualClock clock, long t, CepTestHarness<Ev> h) {
        clock.set(t);
        h.runUntilIdle();
    }

    private static long sum(Iterable<Ev> elements) {
        long s = 0;
        for (Ev e : elements) {
            s += e.value();
        }
        return s;
    }

    private static int count(Iterable<Ev> elements) {
        int n = 0;
        for (Ev ignored : elements) {
            n++;
        }
        return n;
    }

    /**
     * Counts a window's elements in trigger state (merged windows' counts add up, as Flink's {@code ReducingState}
     * with a sum) and fires on every {@code n}-th; fires at the window's end from a timer it registers only on a
     * window's first element, so a merged window's end timer comes from {@code onMerge} alone (as Flink's
     * {@code EventTimeTrigger}: only if the watermark has not passed the end, else the element fires it).
     */
    static final class EveryNthAndAtTheEnd implements Trigger<Ev> {
        private final TriggerState<Long> count = TriggerState.of("count", Long::sum);
        private final long n;

        EveryNthAndAtTheEnd(long n) {
            this.n = n;
        }

        @Override
        public TriggerResult onElement(Ev e, long timestamp, Window window, TriggerContext ctx) {
            Long before = ctx.getState(count);
            if (before == null) {
                ctx.registerEventTimeTimer(window.maxTimestamp());
            }
            long now = (before == null ? 0 : before) + 1;
            ctx.setState(count, now);
            return now % n == 0 ? TriggerResult.FIRE : TriggerResult.CONTINUE;
        }

        @Override
        public TriggerResult onEventTime(long time, Window window, TriggerContext ctx) {
            return time == window.maxTimestamp() ? TriggerResult.FIRE : TriggerResult.CONTINUE;
        }

        @Override
        public TriggerResult onProcessingTime(long time, Window window, TriggerContext ctx) {
            return TriggerResult.CONTINUE;
        }

        @Override
        public boolean canMerge() {
            return true;
        }

        @Override
        public void onMerge(Window window, OnMergeContext ctx) {
            ctx.mergeState(count);
            if (window.maxTimestamp() > ctx.currentWatermark()) {
                ctx.registerEventTimeTimer(window.maxTimestamp());
            }
        }

        @Override
        public void clear(Window window, TriggerContext ctx) {
            ctx.deleteEventTimeTimer(window.maxTimestamp());
            ctx.clearState(count);
        }
    }

    /**
     * Sessions of gap 1 s, allowed lateness 5 s (so the cleanup timer, at end - 1 + 5 s, is not the trigger's end
     * timer and cannot fire the window in its place), the trigger above with n = 4; the function reports the sum,
     * the element count and the watermark. 1@0 opens [0,1000) (count 1, timer 999); 2@500 opens [500,1500), which
     * merges with it: onMerge gives [0,1500) the count 1 and the timer 1499, clearing [0,1000) deletes 999, and the
     * element makes the count 2. 4@2200 opens [2200,3200) apart (count 1, timer 3199). Two windows, each with its
     * trigger timer and its cleanup timer: 4. Watermark 1000 fires nothing (999 went with [0,1000)). 8@1400 opens
     * [1400,2400), which touches both: [0,3200) with the count 2 + 1 = 3, and 4 with the element, the 4th counted
     * across the merge (neither session had more than 2): it fires 1 + 2 + 4 + 8 = 15 at once, with the watermark
     * 1000, stamped 3199. One window left, with two timers (3199 from onMerge, cleanup 8199). Watermark 3000 fires
     * nothing (1499 went with [0,1500)). 16@3000 opens [3000,4000): merged [0,4000), count 4 + 1 = 5, no firing.
     * Watermark 3199 fires nothing (3199 went with [0,3200)); watermark 3999 fires [0,4000) = 31 (5 elements) from
     * the timer onMerge registered. The cleanup at 8999 asks the trigger, which does not fire, and removes it.
     */
    @Test
    void aCountingTriggerOnSessionsCountsAcrossMergesAndRegistersTheMergedWindowsTimer() {
        CepEngine<Ev> engine = engine();
        List<String> out = new ArrayList<>();
        WindowResults<String> results = engine.keyBy(Ev::key)
                .window(EventTimeSessionWindows.withGap(Duration.ofSeconds(1)))
                .allowedLateness(Duration.ofSeconds(5))
                .trigger(new EveryNthAndAtTheEnd(4))
                .<String>process((key, ctx, elements, o) -> o.collect(key + " " + ctx.window() + " " + sum(elements)
                        + " of " + count(elements) + " wm " + ctx.currentWatermark()))
                .results((k, w, r, ts) -> out.add(r + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 0));
        in.send(new Ev("a", 2, 500));
        in.send(new Ev("a", 4, 2200));
        in.watermark(1000);
        h.runUntilIdle();
        assertEquals(List.of(), out, "the timer of [0,1000) went when it merged into [0,1500)");
        assertEquals(2, results.metrics().windows(), "[0,1500) and [2200,3200)");
        assertEquals(4, results.metrics().timers(), "each window's trigger timer and cleanup timer");

        in.send(new Ev("a", 8, 1400));
        h.runUntilIdle();
        assertEquals(List.of("a [0,3200) 15 of 4 wm 1000 @3199"), out, "the 4th element counted across the merge");
        assertEquals(1, results.metrics().windows());
        assertEquals(2, results.metrics().timers(), "the merged windows' timers are gone; 3199 and cleanup 8199");

        in.watermark(3000);
        in.send(new Ev("a", 16, 3000));
        in.watermark(3199);
        h.runUntilIdle();
        assertEquals(1, out.size(), "count 5 does not fire, and the timer of [0,3200) went in the merge");

        in.watermark(3999);
        h.runUntilIdle();
        assertEquals(List.of("a [0,3200) 15 of 4 wm 1000 @3199", "a [0,4000) 31 of 5 wm 3999 @3999"), out,
                "the end timer that onMerge registered");
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(2, out.size(), "the cleanup timer does not fire the window");
        WindowMetrics m = results.metrics();
        assertEquals(0, m.windows());
        assertEquals(0, m.timers());
        assertEquals(0, engine.metrics().shards().get(0).keys());
        h.close();
    }

    /**
     * Fires a window once, {@code delay} ms of processing time after its first element (a processing-time timer
     * whose time it keeps in trigger state), and at the window's end in event time (as {@code EventTimeTrigger});
     * deletes both timers in {@code clear}.
     */
    static final class EarlyAfterFirstElement implements Trigger<Ev> {
        private final TriggerState<Long> earlyAt = TriggerState.of("early-at", Math::min);
        private final long delay;

        EarlyAfterFirstElement(long delay) {
            this.delay = delay;
        }

        @Override
        public TriggerResult onElement(Ev e, long timestamp, Window window, TriggerContext ctx) {
            if (window.maxTimestamp() <= ctx.currentWatermark()) {
                return TriggerResult.FIRE;
            }
            ctx.registerEventTimeTimer(window.maxTimestamp());
            if (ctx.getState(earlyAt) == null) {
                long t = ctx.currentProcessingTime() + delay;
                ctx.setState(earlyAt, t);
                ctx.registerProcessingTimeTimer(t);
            }
            return TriggerResult.CONTINUE;
        }

        @Override
        public TriggerResult onProcessingTime(long time, Window window, TriggerContext ctx) {
            Long t = ctx.getState(earlyAt);
            return t != null && t == time ? TriggerResult.FIRE : TriggerResult.CONTINUE;
        }

        @Override
        public TriggerResult onEventTime(long time, Window window, TriggerContext ctx) {
            return time == window.maxTimestamp() ? TriggerResult.FIRE : TriggerResult.CONTINUE;
        }

        @Override
        public void clear(Window window, TriggerContext ctx) {
            Long t = ctx.getState(earlyAt);
            if (t != null) {
                ctx.deleteProcessingTimeTimer(t);
                ctx.clearState(earlyAt);
            }
            ctx.deleteEventTimeTimer(window.maxTimestamp());
        }
    }

    /**
     * Tumbling event-time windows of 10 s, the trigger above with a delay of 100 ms; the function reports the sum and
     * the clock. Clock 1000: 1@100 opens a's [0,10000), early at 1100. Clock 1040: 2@200 (no second early timer);
     * b's 4@20 300 opens b's [20000,30000), early at 1140. Clock 1060: 8@10 100 opens a's [10000,20000), early at
     * 1160. Clock 1099: nothing. Clock 1100: a's [0,10000) fires 3. The clock jumps to 1150: b's timer (1140) fires 4,
     * and the function sees the clock, 1150. 16@300 joins a's [0,10000) (no new early firing: its time is still in
     * the state). Watermark 19 999 fires a's [0,10000) = 19, then [10000,20000) = 8, each at its end, and removes
     * both (no lateness): clearing [10000,20000) deletes its early timer, so the clock reaching 5000 fires nothing.
     * Watermark 29 999 fires b's window at its end. Every result carries its window's max timestamp.
     */
    @Test
    void aProcessingTimeTimerFiresAnEventTimeWindowEarlyThenItFiresAtItsEnd() {
        ManualClock clock = new ManualClock(1000);
        CepEngine<Ev> engine = engine(clock);
        List<String> out = new ArrayList<>();
        WindowResults<String> results = engine.keyBy(Ev::key)
                .window(TumblingEventTimeWindows.of(Duration.ofSeconds(10)))
                .trigger(new EarlyAfterFirstElement(100))
                .<String>process((key, ctx, elements, o) -> o.collect(key + " " + ctx.window() + " " + sum(elements)
                        + " at " + ctx.currentProcessingTime()))
                .results((k, w, r, ts) -> out.add(r + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 100));
        h.runUntilIdle();
        clock.set(1040);
        in.send(new Ev("a", 2, 200));
        in.send(new Ev("b", 4, 20_300));
        h.runUntilIdle();
        clock.set(1060);
        in.send(new Ev("a", 8, 10_100));
        h.runUntilIdle();
        at(clock, 1099, h);
        assertEquals(List.of(), out);
        at(clock, 1100, h);
        assertEquals(List.of("a [0,10000) 3 at 1100 @9999"), out, "100 ms after the window's first element");
        at(clock, 1150, h);
        assertEquals(List.of("a [0,10000) 3 at 1100 @9999", "b [20000,30000) 4 at 1150 @29999"), out,
                "the timer of 1140 fires when the clock passes it; the function sees the clock");

        in.send(new Ev("a", 16, 300));
        in.watermark(19_999);
        h.runUntilIdle();
        at(clock, 5000, h);
        assertEquals(List.of("a [0,10000) 3 at 1100 @9999", "b [20000,30000) 4 at 1150 @29999",
                "a [0,10000) 19 at 1150 @9999", "a [10000,20000) 8 at 1150 @19999"), out,
                "once early, then at the end; the early timer of a removed window never fires");
        assertEquals(1, results.metrics().windows(), "b's");
        assertEquals(1, results.metrics().timers(), "b's end: the trigger's timer is also its cleanup timer");

        in.watermark(29_999);
        h.runUntilIdle();
        assertEquals(List.of("a [0,10000) 3 at 1100 @9999", "b [20000,30000) 4 at 1150 @29999",
                "a [0,10000) 19 at 1150 @9999", "a [10000,20000) 8 at 1150 @19999",
                "b [20000,30000) 4 at 5000 @29999"), out);
        WindowMetrics m = results.metrics();
        assertEquals(0, m.windows());
        assertEquals(0, m.timers());
        assertEquals(0, engine.metrics().shards().get(0).keys());
        h.close();
    }

    /**
     * Tumbling event-time windows of 10 s, allowed lateness 10 s, the default trigger; the function reports its
     * window (start, end and max timestamp), the sum, the watermark and the clock. 1@1000, 2@12 000, 16@31 000.
     * Clock 50 500, watermark 25 000: it passes the ends of [0,10000) and [10000,20000), which fire in time order,
     * both seeing the watermark 25 000 (Flink sets the operator's watermark before it fires the timers due), not
     * their ends; [0,10000) is also past cleanup (19 999) and goes. Clock 52 000: 4@18 000 is late but within the
     * lateness of [10000,20000) (cleanup 29 999): it re-fires at once with 6, still at watermark 25 000, and the
     * clock of the element's arrival. 8@5000 is past cleanup: dropped. Clock 53 000, watermark 39 999 fires
     * [30000,40000) with the watermark equal to its max timestamp.
     */
    @Test
    void aProcessWindowFunctionSeesTheClockTheWatermarkAndItsWindow() {
        ManualClock clock = new ManualClock(50_000);
        CepEngine<Ev> engine = engine(clock);
        List<String> out = new ArrayList<>();
        List<String> late = new ArrayList<>();
        WindowResults<String> results = engine.keyBy(Ev::key)
                .window(TumblingEventTimeWindows.of(Duration.ofSeconds(10)))
                .allowedLateness(Duration.ofSeconds(10))
                .sideOutputLateData((k, e, ts) -> late.add(e.value() + "@" + ts))
                .<String>process((key, ctx, elements, o) -> {
                    TimeWindow w = (TimeWindow) ctx.window();
                    o.collect(key + " " + w.start() + ".." + w.end() + " max " + w.maxTimestamp() + " sum "
                            + sum(elements) + " wm " + ctx.currentWatermark() + " clock " + ctx.currentProcessingTime());
                })
                .results((k, w, r, ts) -> out.add(r + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 1000));
        in.send(new Ev("a", 2, 12_000));
        in.send(new Ev("a", 16, 31_000));
        h.runUntilIdle();
        assertEquals(List.of(), out);

        clock.set(50_500);
        in.watermark(25_000);
        h.runUntilIdle();
        assertEquals(List.of("a 0..10000 max 9999 sum 1 wm 25000 clock 50500 @9999",
                "a 10000..20000 max 19999 sum 2 wm 25000 clock 50500 @19999"), out);

        clock.set(52_000);
        in.send(new Ev("a", 4, 18_000));
        in.send(new Ev("a", 8, 5000));
        h.runUntilIdle();
        assertEquals("a 10000..20000 max 19999 sum 6 wm 25000 clock 52000 @19999", out.get(2), "a late firing");
        assertEquals(List.of("8@5000"), late);

        clock.set(53_000);
        in.watermark(39_999);
        h.runUntilIdle();
        assertEquals(List.of("a 0..10000 max 9999 sum 1 wm 25000 clock 50500 @9999",
                "a 10000..20000 max 19999 sum 2 wm 25000 clock 50500 @19999",
                "a 10000..20000 max 19999 sum 6 wm 25000 clock 52000 @19999",
                "a 30000..40000 max 39999 sum 16 wm 39999 clock 53000 @39999"), out);
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(4, out.size());
        assertEquals(0, results.metrics().windows());
        assertEquals(0, results.metrics().timers());
        h.close();
    }
}
