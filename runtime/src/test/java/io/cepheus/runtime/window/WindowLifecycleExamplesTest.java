package io.cepheus.runtime.window;

import static io.cepheus.runtime.window.WindowTestKit.engine;
import static io.cepheus.runtime.window.WindowTestKit.summing;
import static io.cepheus.runtime.window.WindowTestKit.summingAggregate;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.window.WindowTestKit.Ev;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The window lifecycle where Flink's documentation pins it down and the other example tests do not: window offsets
 * (event and processing time), removal exactly at {@code maxTimestamp + allowedLateness} on the general operator
 * (tumbling windows with a count trigger, event-time sessions), and one accumulator per window, no buffered
 * element, for {@code aggregate()} on the general operator. Expected outputs are worked out by hand in the comments.
 */
class WindowLifecycleExamplesTest {

    private static long utc(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    private static long at(String hhmmss) {
        return LocalTime.parse(hhmmss).toSecondOfDay() * 1000L;
    }

    /** Asserts the operator's live state: windows, accumulators, buffered elements, timers, keys. */
    private static void assertState(WindowResults<?> results, long windows, long accumulators, long buffered,
            long timers, long keys, String why) {
        WindowMetrics m = results.metrics();
        assertEquals(List.of(windows, accumulators, buffered, timers, keys),
                List.of(m.windows(), m.accumulators(), m.bufferedElements(), m.timers(), m.keys()),
                why + ": windows, accumulators, buffered, timers, keys");
    }

    // ================================================================== offsets

    /**
     * Flink's example of an offset: {@code of(days(1), hours(-8))} gives days from local midnight at UTC+08:00, i.e.
     * windows {@code [16:00Z, 16:00Z next day)}. Windows start where {@code (start - offset) % size == 0}:
     * 2024-01-14T16:00Z = 1705248000000 (1704067200000 for 2024-01-01, + 13 days + 16 hours). UTC midnight is no
     * boundary; 15:59:59.999Z and 16:00Z are. Results carry {@code maxTimestamp = end - 1}. Run on the slice
     * operator and, through a forwarding trigger, on the general one. (Days at UTC-08:00 take +8 hours.)
     */
    @Test
    void aDailyWindowWithAnOffsetOfMinusEightHoursRunsFromSixteenHundredUtcToSixteenHundredUtc() {
        assertEquals("TumblingEventTimeWindows(86400000, offset -28800000)",
                TumblingEventTimeWindows.of(Duration.ofDays(1), Duration.ofHours(-8)).toString());
        assertEquals(utc("2024-01-15T08:00:00Z"), TimeWindow.windowStart(utc("2024-01-15T12:00:00Z"),
                Duration.ofHours(8).toMillis(), Duration.ofDays(1).toMillis()),
                "the other sign, +8 hours, gives days from midnight at UTC-08:00 (08:00Z)");
        for (boolean general : new boolean[] {false, true}) {
            CepEngine<Ev> engine = engine();
            List<String> out = new ArrayList<>();
            var w = engine.keyBy(Ev::key)
                    .window(TumblingEventTimeWindows.<Ev>of(Duration.ofDays(1), Duration.ofHours(-8)));
            if (general) {
                w.trigger(ForwardingTrigger.of(EventTimeTrigger.create()));
            }
            WindowResults<Ev> results = w.reduce(summing())
                    .results((k, win, r, ts) -> out.add(win + " " + r.value() + " @" + ts));
            Producer<Ev> in = engine.newProducer();
            CepTestHarness<Ev> h = CepTestHarness.start(engine);
            in.send(new Ev("a", 16, utc("2024-01-14T15:59:59.999Z"))); // last ms of the day before
            in.send(new Ev("a", 8, utc("2024-01-14T16:00:00Z")));      // first ms of the day
            in.send(new Ev("a", 1, utc("2024-01-15T00:00:00Z")));      // UTC midnight: mid-day here
            in.send(new Ev("a", 2, utc("2024-01-15T15:59:59.999Z")));  // last ms of the day
            in.send(new Ev("a", 4, utc("2024-01-15T16:00:00Z")));      // first ms of the next day
            h.runUntilIdle();
            assertEquals(3, results.metrics().accumulators(), "three days, one accumulator each");

            in.watermark(utc("2024-01-15T15:59:59.998Z"));
            h.runUntilIdle();
            assertEquals(List.of("[1705161600000,1705248000000) 16 @1705247999999"), out,
                    "the day before fired at its 15:59:59.999Z; the day is one ms short");
            in.watermark(utc("2024-01-15T15:59:59.999Z"));
            h.runUntilIdle();
            assertEquals(List.of("[1705161600000,1705248000000) 16 @1705247999999",
                    "[1705248000000,1705334400000) 11 @1705334399999"), out, "8 + 1 + 2, not the 4 at 16:00Z");
            in.watermark(Long.MAX_VALUE);
            h.runUntilIdle();
            assertEquals("[1705334400000,1705420800000) 4 @1705420799999", out.get(2));
            assertEquals(3, out.size(), general ? "general operator" : "slice operator");
            h.close();
        }
    }

    /**
     * Flink's other offset example, on processing time: hourly windows offset by 15 minutes are
     * {@code [hh:15, hh+1:15)}. The clock starts at 10:00:00 (36000000), so the first element goes into
     * [09:15, 10:15) = [33300000, 36900000), which fires when the clock reaches its maxTimestamp 10:14:59.999
     * (36899999) and is removed at once (processing-time cleanup is at maxTimestamp). An element at 10:15:00 opens
     * [36900000, 40500000). Event timestamps are ignored.
     */
    @Test
    void hourlyProcessingTimeWindowsOffsetByAQuarterFireAtAQuarterPastOnTheManualClock() {
        ManualClock clock = new ManualClock(at("10:00:00"));
        CepEngine<Ev> engine = engine(clock);
        List<String> out = new ArrayList<>();
        WindowResults<Ev> results = engine.keyBy(Ev::key)
                .window(TumblingProcessingTimeWindows.<Ev>of(Duration.ofHours(1), Duration.ofMinutes(15)))
                .reduce(summing())
                .results((k, w, r, ts) -> out.add(w + " " + r.value() + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 0));
        h.runUntilIdle();
        assertState(results, 1, 1, 0, 1, 1, "[09:15,10:15) with its one timer at 10:14:59.999");

        h.advanceProcessingTime(Duration.ofMinutes(15).minusMillis(2)); // 10:14:59.998
        assertEquals(List.of(), out, "one ms before the window's maxTimestamp");
        h.advanceProcessingTime(Duration.ofMillis(1)); // 10:14:59.999
        assertEquals(List.of("[33300000,36900000) 1 @36899999"), out);
        assertState(results, 0, 0, 0, 0, 0, "fired and removed together");
        assertEquals(0, engine.metrics().shards().get(0).keys());

        h.advanceProcessingTime(Duration.ofMillis(1)); // 10:15:00.000: the next window's first ms
        in.send(new Ev("a", 2, 999_999_999));
        h.runUntilIdle();
        h.advanceProcessingTime(Duration.ofMinutes(60).minusMillis(2)); // 11:14:59.998
        in.send(new Ev("a", 4, 0));
        h.runUntilIdle();
        assertEquals(1, out.size());
        h.advanceProcessingTime(Duration.ofMillis(1)); // 11:14:59.999
        assertEquals(List.of("[33300000,36900000) 1 @36899999", "[36900000,40500000) 6 @40499999"), out);
        assertState(results, 0, 0, 0, 0, 0, "nothing left");
        h.close();
    }

    // ================================================================== cleanup at maxTimestamp + lateness

    /**
     * Tumbling 1 s windows, a count trigger of 2 (the general operator: not the default trigger) and 500 ms of
     * lateness. [0,1000) has maxTimestamp 999 and goes at 999 + 500 = 1499; [1000,2000) at 2499. The count trigger
     * ignores time, so the window does not fire at its end, and its state (one accumulator, one cleanup timer, the
     * trigger's count) lasts until the cleanup time, then goes without firing, as in Flink. Accumulating: the late
     * firing sums 1 + 2 + 4 + 8.
     */
    @Test
    void aCountTriggeredTumblingWindowIsRemovedExactlyAtMaxTimestampPlusLateness() {
        CepEngine<Ev> engine = engine();
        List<String> out = new ArrayList<>();
        List<String> late = new ArrayList<>();
        WindowResults<Ev> results = engine.keyBy(Ev::key)
                .window(TumblingEventTimeWindows.of(Duration.ofSeconds(1)))
                .trigger(CountTrigger.of(2))
                .allowedLateness(Duration.ofMillis(500))
                .sideOutputLateData((k, e, ts) -> late.add(e.value() + "@" + ts))
                .reduce(summing())
                .results((k, w, r, ts) -> out.add(w + " " + r.value() + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 100));
        in.send(new Ev("a", 2, 300)); // the second element: fires
        in.send(new Ev("a", 4, 500)); // counted, waits for another
        in.send(new Ev("a", 32, 1200));
        h.runUntilIdle();
        assertEquals(List.of("[0,1000) 3 @999"), out);
        assertState(results, 2, 2, 0, 2, 1, "two windows, one accumulator and one cleanup timer each");

        in.watermark(999);
        h.runUntilIdle();
        assertEquals(1, out.size(), "a count trigger does not fire at the window's end");
        in.send(new Ev("a", 8, 600)); // late but within lateness: the trigger's count reaches 2
        h.runUntilIdle();
        assertEquals(List.of("[0,1000) 3 @999", "[0,1000) 15 @999"), out);
        assertEquals(0, results.metrics().lateElements());

        in.send(new Ev("a", 64, 700)); // counted 1 again: trigger state pending at cleanup
        in.watermark(1498);
        h.runUntilIdle();
        assertState(results, 2, 2, 0, 2, 1, "at 999 + 500 - 1 the window is still there");
        in.watermark(1499);
        h.runUntilIdle();
        assertState(results, 1, 1, 0, 1, 1, "at 999 + 500 [0,1000) is gone, [1000,2000) stays until 2499");
        assertEquals(2, out.size(), "removed without firing: its 64 is never emitted");
        in.send(new Ev("a", 128, 999));
        h.runUntilIdle();
        assertEquals(List.of("128@999"), late, "its window is past cleanup: late");
        assertEquals(1, results.metrics().lateElements());

        in.watermark(2498);
        h.runUntilIdle();
        assertState(results, 1, 1, 0, 1, 1, "[1000,2000) at 1999 + 500 - 1");
        in.watermark(2499);
        h.runUntilIdle();
        assertState(results, 0, 0, 0, 0, 0, "[1000,2000) at 1999 + 500");
        assertEquals(0, engine.metrics().shards().get(0).keys(), "the key is released");
        assertEquals(2, out.size());
        h.close();
    }

    /**
     * Event-time sessions with a 3 s gap and 2 s of lateness on the general operator (the default trigger wrapped
     * in a forwarding one). 1000 and 2000 merge into [1000,5000): maxTimestamp 4999, fired then, removed at
     * 4999 + 2000 = 6999. Until it fires it holds two timers (the trigger's at 4999, the cleanup at 6999), then
     * one. After cleanup an element at 1500 opens [1500,4500), past its own cleanup 4499 + 2000: late.
     */
    @Test
    void anEventTimeSessionOnTheGeneralOperatorIsRemovedExactlyAtMaxTimestampPlusLateness() {
        CepEngine<Ev> engine = engine();
        List<String> out = new ArrayList<>();
        List<String> late = new ArrayList<>();
        WindowResults<Ev> results = engine.keyBy(Ev::key)
                .window(EventTimeSessionWindows.withGap(Duration.ofSeconds(3)))
                .trigger(ForwardingTrigger.of(EventTimeTrigger.create()))
                .allowedLateness(Duration.ofSeconds(2))
                .sideOutputLateData((k, e, ts) -> late.add(e.value() + "@" + ts))
                .reduce(summing())
                .results((k, w, r, ts) -> out.add(w + " " + r.value() + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 1000));
        in.send(new Ev("a", 2, 2000));
        h.runUntilIdle();
        assertState(results, 1, 1, 0, 2, 1, "one merged session, its end and cleanup timers");

        in.watermark(4999);
        h.runUntilIdle();
        assertEquals(List.of("[1000,5000) 3 @4999"), out);
        assertState(results, 1, 1, 0, 1, 1, "fired, kept for the lateness with its cleanup timer");

        in.watermark(6998);
        h.runUntilIdle();
        assertState(results, 1, 1, 0, 1, 1, "at 4999 + 2000 - 1 the session is still there");
        in.watermark(6999);
        h.runUntilIdle();
        assertState(results, 0, 0, 0, 0, 0, "at 4999 + 2000 it is gone");
        assertEquals(0, engine.metrics().shards().get(0).keys(), "the key is released");

        in.send(new Ev("a", 4, 1500));
        h.runUntilIdle();
        assertEquals(List.of("4@1500"), late);
        assertEquals(1, results.metrics().lateElements());
        assertEquals(1, out.size());
        assertState(results, 0, 0, 0, 0, 0, "a late element leaves nothing");
        h.close();
    }

    // ================================================================== aggregate on the general operator

    /**
     * {@code aggregate()} keeps one accumulator per live window and never the elements, on the general operator too.
     * Tumbling 1 s windows with a count trigger of 3: key a has [0,1000) (0 and 500), [1000,2000) and [5000,6000),
     * key b [0,1000): four windows, four accumulators, no buffered element, no firing. Sessions (gap 1 s, forwarding
     * trigger): a's 0, 500 and 1000 chain into [0,2000) (two merges), a's 5000 opens [5000,6000), b's 0 [0,1000):
     * three windows, and the merges leave one accumulator, not three.
     */
    @Test
    void aggregateOnTheGeneralOperatorKeepsOneAccumulatorPerWindowAndNoElements() {
        CepEngine<Ev> engine = engine();
        List<String> out = new ArrayList<>();
        var byKey = engine.keyBy(Ev::key);
        WindowResults<Long> tumbling = byKey.window(TumblingEventTimeWindows.of(Duration.ofSeconds(1)))
                .trigger(CountTrigger.of(3))
                .aggregate(summingAggregate())
                .results((k, w, r, ts) -> out.add("tumbling " + k + " " + w + " " + r));
        WindowResults<Long> sessions = byKey.window(EventTimeSessionWindows.withGap(Duration.ofSeconds(1)))
                .trigger(ForwardingTrigger.of(EventTimeTrigger.create()))
                .aggregate(summingAggregate())
                .results((k, w, r, ts) -> out.add("session " + k + " " + w + " " + r + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 0));
        in.send(new Ev("a", 2, 500));
        in.send(new Ev("a", 4, 1000));
        in.send(new Ev("b", 8, 0));
        h.runUntilIdle();
        // sessions so far: a [0,2000) (0, 500 and 1000 chain), b [0,1000)
        assertEquals(2, sessions.metrics().windows());
        in.send(new Ev("a", 16, 5000));
        h.runUntilIdle();
        WindowMetrics t = tumbling.metrics();
        assertEquals(List.of(4L, 4L, 0L), List.of(t.windows(), t.accumulators(), t.bufferedElements()),
                "tumbling: a [0,1000), a [1000,2000), a [5000,6000), b [0,1000)");
        WindowMetrics s = sessions.metrics();
        assertEquals(List.of(3L, 3L, 0L), List.of(s.windows(), s.accumulators(), s.bufferedElements()),
                "sessions: a [0,2000), a [5000,6000), b [0,1000)");
        assertEquals(List.of(), out);

        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(List.of("session b [0,1000) 8 @999", "session a [0,2000) 7 @1999",
                "session a [5000,6000) 16 @5999"), out, "in time order; count-triggered windows never reach 3");
        assertState(tumbling, 0, 0, 0, 0, 0, "tumbling removed at the end of time");
        assertState(sessions, 0, 0, 0, 0, 0, "sessions removed at the end of time");
        h.close();
    }
}
