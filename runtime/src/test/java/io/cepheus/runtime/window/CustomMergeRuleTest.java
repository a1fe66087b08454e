package io.cepheus.runtime.window;

import static io.cepheus.runtime.window.WindowTestKit.engine;
import static io.cepheus.runtime.window.WindowTestKit.summing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.internal.window.PassThrough;
import io.cepheus.runtime.internal.window.SessionWindowOperator;
import io.cepheus.runtime.internal.window.WindowSpec;
import io.cepheus.runtime.window.WindowTestKit.Ev;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Merging assigners with their own merge rule ({@link MergingWindowAssigner#mergeWindows}, as in Flink): the engine
 * merges what the rule says, and merged windows behave as merged sessions do: contents combine, trigger state
 * combines ({@code onMerge}), the merged windows' timers go, retractions and late firings follow. The rule is checked
 * before anything changes. Such assigners run on the general window operator, never on the session fast path.
 */
class CustomMergeRuleTest {

    /** A merging assigner with event-time windows {@code [ts, ts + length)} and the default trigger. */
    abstract static class EventTimeMerging implements MergingWindowAssigner<Ev> {
        private final long length;

        EventTimeMerging(long length) {
            this.length = length;
        }

        @Override
        public void assignWindows(Ev element, long timestamp, Context context, WindowSink windows) {
            windows.add(timestamp, timestamp + length);
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

    /** Windows of one second that merge into their cover when at most two seconds apart (they need not touch). */
    static final class WithinTwoSeconds extends EventTimeMerging {
        WithinTwoSeconds() {
            super(1000);
        }

        @Override
        public void mergeWindows(Collection<TimeWindow> windows, MergeCallback callback) {
            List<TimeWindow> sorted = new ArrayList<>(windows);
            sorted.sort(Comparator.comparingLong(TimeWindow::start));
            List<TimeWindow> run = new ArrayList<>();
            TimeWindow cover = null;
            for (TimeWindow w : sorted) {
                if (cover != null && w.start() - cover.end() <= 2000) {
                    run.add(w);
                    cover = cover.cover(w);
                } else {
                    if (run.size() > 1) {
                        callback.merge(run, cover);
                    }
                    run = new ArrayList<>(List.of(w));
                    cover = w;
                }
            }
            if (run.size() > 1) {
                callback.merge(run, cover);
            }
        }
    }

    /** Sessions of gap 3 s that merge (by the default rule) only with windows starting in the same 10 s bucket. */
    static final class SessionsWithinBuckets extends EventTimeMerging {
        SessionsWithinBuckets() {
            super(3000);
        }

        @Override
        public void mergeWindows(Collection<TimeWindow> windows, MergeCallback callback) {
            Map<Long, List<TimeWindow>> byBucket = new TreeMap<>();
            for (TimeWindow w : windows) {
                byBucket.computeIfAbsent(Math.floorDiv(w.start(), 10_000L), b -> new ArrayList<>()).add(w);
            }
            for (List<TimeWindow> bucket : byBucket.values()) {
                MergingWindowAssigner.mergeOverlapping(bucket, callback);
            }
        }
    }

    /** Windows of one second that never merge until there are three: then all go into the earliest. */
    static final class AtMostTwoWindows extends EventTimeMerging {
        AtMostTwoWindows() {
            super(1000);
        }

        @Override
        public void mergeWindows(Collection<TimeWindow> windows, MergeCallback callback) {
            if (windows.size() >= 3) {
                callback.merge(windows, windows.stream().min(Comparator.comparingLong(TimeWindow::start)).get());
            }
        }
    }

    /**
     * 1@0 opens [0,1000); 2@2500 opens [2500,3500), 1.5 s away: merged [0,3500) = 3 (sessions would keep them apart);
     * 4@6000 opens [6000,7000), 2.5 s away from [0,3500): apart. Two windows, two timers. Watermark 3000 fires
     * nothing. 8@4500 opens [4500,5500), 1 s from [0,3500) and 0.5 s from [6000,7000): all merge into [0,7000) = 15,
     * with one timer (its end; the merged windows' timers are gone, so nothing fires at 3499). It fires at 6999.
     */
    @Test
    void windowsWithinADistanceMerge() {
        CepEngine<Ev> engine = engine();
        List<String> out = new ArrayList<>();
        WindowResults<Ev> results = engine.keyBy(Ev::key).window(new WithinTwoSeconds()).reduce(summing())
                .results((k, w, r, ts) -> out.add(w + " " + r.value() + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 0));
        in.send(new Ev("a", 2, 2500));
        in.send(new Ev("a", 4, 6000));
        in.watermark(3000);
        h.runUntilIdle();
        assertEquals(2, results.metrics().windows(), "[0,3500) and [6000,7000)");
        assertEquals(2, results.metrics().timers());
        assertEquals(List.of(), out);
        in.send(new Ev("a", 8, 4500));
        h.runUntilIdle();
        assertEquals(1, results.metrics().windows());
        assertEquals(1, results.metrics().accumulators());
        assertEquals(1, results.metrics().timers(), "the merged windows' timers are deleted");
        in.watermark(3499);
        h.runUntilIdle();
        assertEquals(List.of(), out);
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(List.of("[0,7000) 15 @6999"), out);
        WindowMetrics m = results.metrics();
        assertEquals(0, m.windows());
        assertEquals(0, m.timers());
        assertEquals(0, engine.metrics().shards().get(0).keys());
        h.close();
    }

    /**
     * Gap 3 s, buckets of 10 s by window start, allowed lateness 5 s, accumulating-and-retracting. 1@8000 opens
     * [8000,11000) (bucket 0); 2@10 500 opens [10500,13500) (bucket 1): they overlap but stay apart; 4@9000 opens
     * [9000,12000), bucket 0: merged [8000,12000) = 5. Watermark 12 000 fires it. 8@12 500 opens [12500,15500),
     * bucket 1: merged [10500,15500) = 10 (never fired: nothing to retract). Watermark 13 500. 16@7000 opens
     * [7000,10000), bucket 0, touching the fired [8000,12000), which lives until 16 999: the merge retracts its 5 and
     * fires [7000,12000) = 21 at once (late firing). The final watermark fires [10500,15500).
     */
    @Test
    void windowsMergeOnlyWithinTheirBucket() {
        CepEngine<Ev> engine = engine();
        List<String> out = new ArrayList<>();
        WindowResults<Ev> results = engine.keyBy(Ev::key).window(new SessionsWithinBuckets())
                .allowedLateness(Duration.ofSeconds(5))
                .accumulationMode(AccumulationMode.ACCUMULATING_AND_RETRACTING)
                .reduce(summing())
                .results((k, w, r, ts) -> out.add("+" + w + " " + r.value() + " @" + ts))
                .retractions((k, w, r, ts) -> out.add("-" + w + " " + r.value() + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 8000));
        in.send(new Ev("a", 2, 10_500));
        h.runUntilIdle();
        assertEquals(2, results.metrics().windows(), "overlapping, in two buckets");
        in.send(new Ev("a", 4, 9000));
        in.watermark(12_000);
        h.runUntilIdle();
        assertEquals(List.of("+[8000,12000) 5 @11999"), out);
        in.send(new Ev("a", 8, 12_500));
        in.watermark(13_500);
        h.runUntilIdle();
        assertEquals(1, out.size());
        assertEquals(2, results.metrics().windows());
        in.send(new Ev("a", 16, 7000));
        h.runUntilIdle();
        assertEquals(List.of("+[8000,12000) 5 @11999", "-[8000,12000) 5 @11999", "+[7000,12000) 21 @11999"), out);
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(List.of("+[8000,12000) 5 @11999", "-[8000,12000) 5 @11999", "+[7000,12000) 21 @11999",
                "+[10500,15500) 10 @15499"), out);
        WindowMetrics m = results.metrics();
        assertEquals(0, m.windows());
        assertEquals(0, m.timers());
        assertEquals(0, m.accumulators());
        h.close();
    }

    /**
     * Count trigger (3) with the distance rule; the function lists the values. 1@0 opens [0,1000), count 1; 2@6000
     * opens [6000,7000), count 1 (5 s away). 3@3000 opens [3000,4000), 2 s from both: [0,7000), whose count is the
     * merged 1 + 1, and 3 with the element: it fires [1, 2, 3] (contents in the order the windows were opened, then
     * the element). The count restarts: 4@7500 merges into [0,8500), count 1, no firing.
     */
    @Test
    void triggerStateMergesAsForSessions() {
        CepEngine<Ev> engine = engine();
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).window(new WithinTwoSeconds())
                .trigger(CountTrigger.of(3))
                .<String>process((key, ctx, elements, o) -> {
                    List<Long> values = new ArrayList<>();
                    elements.forEach(e -> values.add(e.value()));
                    o.collect(ctx.window() + " " + values);
                })
                .results((k, w, r, ts) -> out.add(r));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 0));
        in.send(new Ev("a", 2, 6000));
        in.send(new Ev("a", 3, 3000));
        h.runUntilIdle();
        assertEquals(List.of("[0,7000) [1, 2, 3]"), out);
        in.send(new Ev("a", 4, 7500));
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(List.of("[0,7000) [1, 2, 3]"), out);
        h.close();
    }

    /**
     * 1@0 opens [0,1000), 2@3000 [3000,4000): two windows, no merge. 4@6000 makes three: all merge into the earliest,
     * [0,1000), which keeps its slot and timer and takes in [3000,4000) and the element: 7, fired at 999.
     */
    @Test
    void aMergeResultMayBeOneOfTheMergedWindows() {
        CepEngine<Ev> engine = engine();
        List<String> out = new ArrayList<>();
        WindowResults<Ev> results = engine.keyBy(Ev::key).window(new AtMostTwoWindows()).reduce(summing())
                .results((k, w, r, ts) -> out.add(w + " " + r.value() + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 0));
        in.send(new Ev("a", 2, 3000));
        h.runUntilIdle();
        assertEquals(2, results.metrics().windows());
        in.send(new Ev("a", 4, 6000));
        h.runUntilIdle();
        assertEquals(1, results.metrics().windows());
        assertEquals(1, results.metrics().timers());
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(List.of("[0,1000) 7 @999"), out);
        assertEquals(0, results.metrics().windows());
        assertEquals(0, results.metrics().timers());
        h.close();
    }

    /** Windows of one second that never merge until there are three: then the two earliest merge into their cover. */
    static final class TwoEarliestMergeAtThree extends EventTimeMerging {
        TwoEarliestMergeAtThree() {
            super(1000);
        }

        @Override
        public void mergeWindows(Collection<TimeWindow> windows, MergeCallback callback) {
            if (windows.size() >= 3) {
                List<TimeWindow> w = new ArrayList<>(windows);
                w.sort(Comparator.comparingLong(TimeWindow::start));
                callback.merge(w.subList(0, 2), w.get(0).cover(w.get(1)));
            }
        }
    }

    /**
     * A merge that does not take the new window in (Flink's MergingWindowSet merges every group the rule reports).
     * Allowed lateness 1 s. 1@0 [0,1000) and 2@3000 [3000,4000); 4@6000 opens [6000,7000), which makes the first two
     * merge into [0,4000) = 3 while the element stays in its own window. The merge result has its trigger's timer
     * (3999) and, though no element was added to it, its cleanup timer (4999): both windows fire and go.
     */
    @Test
    void aMergeNeedNotTakeTheNewWindow() {
        CepEngine<Ev> engine = engine();
        List<String> out = new ArrayList<>();
        WindowResults<Ev> results = engine.keyBy(Ev::key).window(new TwoEarliestMergeAtThree())
                .allowedLateness(Duration.ofSeconds(1))
                .reduce(summing())
                .results((k, w, r, ts) -> out.add(w + " " + r.value() + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 0));
        in.send(new Ev("a", 2, 3000));
        in.send(new Ev("a", 4, 6000));
        h.runUntilIdle();
        assertEquals(2, results.metrics().windows());
        assertEquals(4, results.metrics().timers(), "end and cleanup of each window");
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(List.of("[0,4000) 3 @3999", "[6000,7000) 4 @6999"), out);
        assertEquals(0, results.metrics().windows());
        assertEquals(0, results.metrics().timers());
        assertEquals(0, engine.metrics().shards().get(0).keys());
        h.close();
    }

    /** Breaks the contract in one of three ways once a key has two windows and a third comes. */
    static final class BrokenRule extends EventTimeMerging {
        private final String how;

        BrokenRule(String how) {
            super(1000);
            this.how = how;
        }

        @Override
        public void mergeWindows(Collection<TimeWindow> windows, MergeCallback callback) {
            if (windows.size() < 3) {
                return;
            }
            List<TimeWindow> w = List.copyOf(windows);
            switch (how) {
                case "unknown" -> callback.merge(List.of(new TimeWindow(1, 2), w.get(0)), new TimeWindow(0, 5000));
                case "twice" -> {
                    callback.merge(List.of(w.get(0), w.get(1)), w.get(0).cover(w.get(1)));
                    callback.merge(List.of(w.get(1), w.get(2)), w.get(1).cover(w.get(2)));
                }
                default -> callback.merge(List.of(w.get(1), w.get(2)), w.get(0));
            }
        }

        @Override
        public String toString() {
            return "BrokenRule(" + how + ")";
        }
    }

    /**
     * Two windows, [0,1000) = 1 and [5000,6000) = 2; the third element's window makes the rule break the contract:
     * the element is a dead letter with a message saying how, and the two windows are as they were (they fire
     * with 1 and 2).
     */
    @Test
    void aRuleThatBreaksTheContractFailsTheElementAndChangesNothing() {
        for (String[] c : new String[][] {{"unknown", "merges [1,2), which is not among the windows it was given"},
                {"twice", "puts [5000,6000) into two merges"},
                {"collides", "into [0,1000), which is another window of the key that this merge does not take in"}}) {
            CepEngine<Ev> engine = engine();
            List<String> out = new ArrayList<>();
            List<String> dead = new ArrayList<>();
            WindowResults<Ev> results = engine.keyBy(Ev::key).window(new BrokenRule(c[0]))
                    .deadLetters((k, e, ts, err) -> dead.add(e.value() + " " + err.getMessage()))
                    .reduce(summing())
                    .results((k, w, r, ts) -> out.add(w + " " + r.value()));
            Producer<Ev> in = engine.newProducer();
            CepTestHarness<Ev> h = CepTestHarness.start(engine);
            in.send(new Ev("a", 1, 0));
            in.send(new Ev("a", 2, 5000));
            in.send(new Ev("a", 4, 10_000));
            h.runUntilIdle();
            assertEquals(1, dead.size(), c[0]);
            assertTrue(dead.get(0).startsWith("4 BrokenRule(" + c[0] + ").mergeWindows "), dead.get(0));
            assertTrue(dead.get(0).contains(c[1]), dead.get(0));
            assertEquals(2, results.metrics().windows(), c[0]);
            assertEquals(2, results.metrics().timers(), c[0]);
            in.watermark(Long.MAX_VALUE);
            h.runUntilIdle();
            assertEquals(List.of("[0,1000) 1", "[5000,6000) 2"), out, c[0]);
            assertEquals(0, results.metrics().windows(), c[0]);
            h.close();
        }
    }

    /**
     * The session fast path hard-codes the default rule: a custom merging assigner with an otherwise fast-path
     * configuration (reduce, default trigger) is not taken by it ({@link #windowsWithinADistanceMerge} then shows the
     * engine honouring the rule); the built-in sessions are.
     */
    @Test
    void customMergingAssignersTakeTheGeneralOperator() {
        ReduceFunction<Ev> sum = summing();
        assertFalse(SessionWindowOperator.supports(new WindowSpec<>(new WithinTwoSeconds(), EventTimeTrigger.create(),
                null, 0, sum, null, new PassThrough<>(), AccumulationMode.ACCUMULATING, null)));
        assertTrue(SessionWindowOperator.supports(new WindowSpec<>(
                EventTimeSessionWindows.<Ev>withGap(Duration.ofSeconds(1)), EventTimeTrigger.create(), null, 0, sum,
                null, new PassThrough<>(), AccumulationMode.ACCUMULATING, null)));
    }
}
