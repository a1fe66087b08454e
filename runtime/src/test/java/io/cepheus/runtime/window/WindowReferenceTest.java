package io.cepheus.runtime.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.cepheus.nfa.testing.PropertySeeds;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.WindowResults;
import io.cepheus.runtime.WindowedStream;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.StringJoiner;
import io.cepheus.runtime.internal.window.PassThrough;
import io.cepheus.runtime.internal.window.SliceWindowOperator;
import io.cepheus.runtime.internal.window.WindowSpec;
import org.junit.jupiter.api.Test;

/**
 * Every window configuration (tumbling, sliding incl. gaps, session, global; default, count and purging
 * triggers; no, count-before and time evictors; sum / count / list / coGroup functions; allowed lateness; the
 * three accumulation modes) against a naive reference on random out-of-order streams with random watermarks:
 * the reference keeps each key's windows as plain lists of elements and applies Flink's rules directly (element
 * goes into each window not past cleanup, firing when the watermark passes the end or the count is reached, late
 * firing for each element into a passed window, removal at cleanup), with no timers, slots or slices. The outputs
 * of each input token are compared as sorted lists, and all state must be gone after the final watermark.
 */
class WindowReferenceTest {

    private static final long SEED = PropertySeeds.seed(0x57A7E5L);

    record Ev(char side, String key, long value, long ts) {
    }

    /** One random configuration. */
    record Config(String assigner, long size, long slide, String trigger, long count, String evictor, long evictN,
            long lateness, String function, AccumulationMode mode) {
        boolean session() {
            return assigner.equals("session");
        }

        boolean global() {
            return assigner.equals("global");
        }
    }

    @Test
    void everyConfigurationMatchesTheReference() {
        PropertySeeds.reportingSeed(SEED, "runtime", "WindowReferenceTest", () ->
                qt().withFixedSeed(SEED).withExamples(1000).forAll(longs().all())
                        .checkAssert(WindowReferenceTest::check));
    }

    /**
     * The configurations the session fast path runs (session assigner, default trigger, no evictor, incremental
     * sum or count; any lateness and mode), many more of them than the general draw above gives.
     */
    @Test
    void sessionFastPathConfigurationsMatchTheReference() {
        PropertySeeds.reportingSeed(SEED, "runtime", "WindowReferenceTest", () ->
                qt().withFixedSeed(SEED).withExamples(400).forAll(longs().all())
                        .checkAssert(caseSeed -> check(caseSeed, true)));
    }

    /**
     * The configurations the slice operator runs with allowed lateness (tumbling or sliding, default trigger, no
     * evictor, sum or count, accumulating mode), many more of them than the general draw gives; each is checked
     * to run on the slice operator.
     */
    @Test
    void sliceConfigurationsWithLatenessMatchTheReference() {
        PropertySeeds.reportingSeed(SEED, "runtime", "WindowReferenceTest", () ->
                qt().withFixedSeed(SEED).withExamples(400).forAll(longs().all())
                        .checkAssert(caseSeed -> check(caseSeed, false, true)));
    }

    private static Config randomSliceConfig(Random r) {
        boolean sliding = r.nextInt(4) != 0;
        long size = 500L * (1 + r.nextInt(6));
        long slide = sliding ? 250L * (1 + r.nextInt(8)) : size;
        long lateness = List.of(1L, 300L, 700L, 2000L).get(r.nextInt(4));
        Config c = new Config(sliding ? "sliding" : "tumbling", size, slide, "default", 1, "none", 1, lateness,
                r.nextBoolean() ? "sum" : "count", AccumulationMode.ACCUMULATING);
        WindowAssigner<Ev> assigner = sliding
                ? SlidingEventTimeWindows.of(Duration.ofMillis(size), Duration.ofMillis(slide))
                : TumblingEventTimeWindows.of(Duration.ofMillis(size));
        assertTrue(SliceWindowOperator.supports(new WindowSpec<>(assigner, EventTimeTrigger.create(), null, lateness,
                (a, b) -> a, null, new PassThrough<>(), AccumulationMode.ACCUMULATING, null)), c.toString());
        return c;
    }

    private static void check(long caseSeed) {
        check(caseSeed, false, false);
    }

    private static void check(long caseSeed, boolean fastSession) {
        check(caseSeed, fastSession, false);
    }

    private static void check(long caseSeed, boolean fastSession, boolean slices) {
        Random r = new Random(caseSeed);
        Config c = slices ? randomSliceConfig(r) : fastSession ? randomFastSessionConfig(r) : randomConfig(r);
        List<Object> tokens = randomTokens(r, c);
        List<List<String>> expected = new Reference(c).run(tokens);
        Actual actual = runEngine(c, tokens);
        String context = "case seed " + caseSeed + ", " + c + "\ntokens " + tokens;
        assertEquals(expected, actual.groups, context);
        WindowMetrics m = actual.metrics;
        if (!c.global()) {
            assertEquals(0, m.windows(), "windows left after the final watermark; " + context);
            assertEquals(0, m.bufferedElements(), context);
            assertEquals(0, m.accumulators(), context);
            assertEquals(0, m.timers(), context);
            assertEquals(0, actual.keysLeft, "keys left; " + context);
        }
    }

    private static Config randomConfig(Random r) {
        String assigner = List.of("tumbling", "sliding", "session", "global").get(r.nextInt(4));
        long size = 500L * (1 + r.nextInt(6));
        long slide = assigner.equals("sliding") ? 500L * (1 + r.nextInt(4)) : size;
        String trigger = assigner.equals("global") ? "count" : r.nextInt(3) == 0 ? "count" : "default";
        String evictor = List.of("none", "none", "count", "time").get(r.nextInt(4));
        String function = List.of("sum", "count", "list", "cogroup", "sum+process").get(r.nextInt(5));
        AccumulationMode mode = function.equals("cogroup") ? AccumulationMode.ACCUMULATING
                : AccumulationMode.values()[r.nextInt(3)];
        long lateness = List.of(0L, 0L, 300L, 2000L).get(r.nextInt(4));
        return new Config(assigner, size, slide, trigger, 1 + r.nextInt(3), evictor, 1 + r.nextInt(3), lateness,
                function, mode);
    }

    private static Config randomFastSessionConfig(Random r) {
        long gap = r.nextBoolean() ? 1 + r.nextInt(400) : 500L * (1 + r.nextInt(6));
        long lateness = List.of(0L, 0L, 1L, 300L, 2000L).get(r.nextInt(5));
        return new Config("session", gap, gap, "default", 1, "none", 1, lateness, r.nextBoolean() ? "sum" : "count",
                AccumulationMode.values()[r.nextInt(3)]);
    }

    private static List<Object> randomTokens(Random r, Config c) {
        List<Object> tokens = new ArrayList<>();
        long time = 0;
        long wm = Long.MIN_VALUE;
        int n = 5 + r.nextInt(40);
        for (int i = 0; i < n; i++) {
            if (r.nextInt(4) == 0) {
                long w = time - r.nextInt(1500);
                if (w > wm) {
                    wm = w;
                    tokens.add(w);
                }
            } else {
                time += r.nextInt(700);
                long ts = Math.max(0, time - r.nextInt(3000));
                char side = c.function().equals("cogroup") ? (r.nextBoolean() ? 'L' : 'R') : ' ';
                tokens.add(new Ev(side, String.valueOf((char) ('a' + r.nextInt(3))), 1 + r.nextInt(9), ts));
            }
        }
        return tokens;
    }

    // ------------------------------------------------------------------ the engine

    record Actual(List<List<String>> groups, WindowMetrics metrics, int keysLeft) {
    }

    private static Actual runEngine(Config c, List<Object> tokens) {
        List<String> out = new ArrayList<>();
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).flushOnClose(false)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, t) -> e.ts())).build();
        WindowAssigner<Ev> assigner = switch (c.assigner()) {
            case "tumbling" -> TumblingEventTimeWindows.of(Duration.ofMillis(c.size()));
            case "sliding" -> SlidingEventTimeWindows.of(Duration.ofMillis(c.size()), Duration.ofMillis(c.slide()));
            case "session" -> EventTimeSessionWindows.withGap(Duration.ofMillis(c.size()));
            default -> GlobalWindows.create();
        };
        Trigger<Ev> trigger = c.trigger().equals("count") ? CountTrigger.of(c.count()) : null;
        Evictor<Ev> evictor = switch (c.evictor()) {
            case "count" -> CountEvictor.of(c.evictN());
            case "time" -> TimeEvictor.of(Duration.ofMillis(c.evictN() * 400));
            default -> null;
        };
        WindowResults<?> results;
        boolean retracting = c.mode() == AccumulationMode.ACCUMULATING_AND_RETRACTING;
        if (c.function().equals("cogroup")) {
            var cg = engine.keyBy(Ev::key).coGroup(e -> e.side() == 'L' ? e : null, e -> e.side() == 'R' ? e : null)
                    .window(assigner).allowedLateness(Duration.ofMillis(c.lateness()))
                    .sideOutputLateData((k, e, ts) -> out.add("LATE " + k + " " + e.side() + e.value() + "@" + ts));
            if (trigger != null) {
                cg.trigger(trigger);
            }
            if (evictor != null) {
                cg.evictor(evictor);
            }
            results = print(cg.<String>apply((ls, rs, o) -> o.collect(coGroupText(ls, rs, c.session()))), out,
                    v -> v, retracting);
        } else {
            WindowedStream<Ev> w = engine.keyBy(Ev::key).window(assigner).accumulationMode(c.mode())
                    .allowedLateness(Duration.ofMillis(c.lateness()))
                    .sideOutputLateData((k, e, ts) -> out.add("LATE " + k + " " + e.side() + e.value() + "@" + ts));
            if (trigger != null) {
                w.trigger(trigger);
            }
            if (evictor != null) {
                w.evictor(evictor);
            }
            results = switch (c.function()) {
                case "sum" -> print(w.reduce((a, b) -> new Ev(a.side(), a.key(), a.value() + b.value(), a.ts())),
                        out, e -> Long.toString(e.value()), retracting);
                case "count" -> print(w.aggregate(new Counting()), out, String::valueOf, retracting);
                // the sum, handed to a process function that passes it on (on the slices without lateness)
                case "sum+process" -> print(w.<String>reduce((a, b) -> new Ev(a.side(), a.key(), a.value() + b.value(), a.ts()),
                        (key, ctx, sums, o) -> sums.forEach(e -> o.collect(Long.toString(e.value())))), out, v -> v,
                        retracting);
                default -> print(w.<String>process((key, ctx, els, o) -> {
                    List<Long> values = new ArrayList<>();
                    els.forEach(e -> values.add(e.value()));
                    o.collect(listText(values, c.session()));
                }), out, v -> v, retracting);
            };
        }
        Producer<Ev> p = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        List<List<String>> groups = new ArrayList<>();
        List<Object> all = new ArrayList<>(tokens);
        all.add(Long.MAX_VALUE);
        for (Object t : all) {
            if (t instanceof Ev e) {
                p.send(e);
            } else {
                p.watermark((Long) t);
            }
            h.runUntilIdle();
            List<String> g = new ArrayList<>(out);
            Collections.sort(g);
            groups.add(g);
            out.clear();
        }
        WindowMetrics metrics = results.metrics();
        int keysLeft = engine.metrics().shards().get(0).keys() > Integer.MAX_VALUE ? -1
                : (int) engine.metrics().shards().get(0).keys();
        h.close();
        return new Actual(groups, metrics, keysLeft);
    }

    private static <V> WindowResults<V> print(WindowResults<V> r, List<String> out,
            java.util.function.Function<V, String> text, boolean retracting) {
        r.results((k, win, v, ts) -> out.add("WIN " + k + " " + win + " " + text.apply(v) + " @" + ts));
        if (retracting) {
            r.retractions((k, win, v, ts) -> out.add("RETRACT " + k + " " + win + " " + text.apply(v) + " @" + ts));
        }
        return r;
    }

    /** Counts elements. */
    static final class Counting implements AggregateFunction<Ev, long[], Long> {
        @Override
        public long[] createAccumulator() {
            return new long[1];
        }

        @Override
        public long[] add(Ev value, long[] acc) {
            acc[0]++;
            return acc;
        }

        @Override
        public Long getResult(long[] acc) {
            return acc[0];
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            a[0] += b[0];
            return a;
        }
    }

    static String listText(List<Long> values, boolean sorted) {
        List<Long> v = new ArrayList<>(values);
        if (sorted) {
            Collections.sort(v);
        }
        StringJoiner j = new StringJoiner(",", "[", "]");
        v.forEach(x -> j.add(Long.toString(x)));
        return j.toString();
    }

    static String coGroupText(Iterable<Ev> ls, Iterable<Ev> rs, boolean sorted) {
        List<Long> l = new ArrayList<>();
        ls.forEach(e -> l.add(e.value()));
        List<Long> r = new ArrayList<>();
        rs.forEach(e -> r.add(e.value()));
        return "L" + listText(l, sorted) + " R" + listText(r, sorted);
    }

    // ------------------------------------------------------------------ the reference

    /** Flink's window rules applied directly to plain per-key lists of windows. */
    static final class Reference {
        private final Config c;
        private final Map<String, List<RefWindow>> windows = new LinkedHashMap<>();
        private long wm = Long.MIN_VALUE;
        private final List<String> out = new ArrayList<>();

        Reference(Config c) {
            this.c = c;
        }

        static final class RefWindow {
            final long start;
            final long end;
            final List<Ev> contents = new ArrayList<>();
            long count;
            List<String> last;

            RefWindow(long start, long end) {
                this.start = start;
                this.end = end;
            }
        }

        List<List<String>> run(List<Object> tokens) {
            List<List<String>> groups = new ArrayList<>();
            List<Object> all = new ArrayList<>(tokens);
            all.add(Long.MAX_VALUE);
            for (Object t : all) {
                if (t instanceof Ev e) {
                    element(e);
                } else {
                    watermark((Long) t);
                }
                List<String> g = new ArrayList<>(out);
                Collections.sort(g);
                groups.add(g);
                out.clear();
            }
            return groups;
        }

        private long maxTs(RefWindow w) {
            return c.global() ? Long.MAX_VALUE : w.end - 1;
        }

        private boolean pastCleanup(long maxTs) {
            if (c.global()) {
                return false;
            }
            long cleanup = maxTs + c.lateness() < maxTs ? Long.MAX_VALUE : maxTs + c.lateness();
            return cleanup <= wm;
        }

        private void element(Ev e) {
            List<RefWindow> ws = windows.computeIfAbsent(e.key(), k -> new ArrayList<>());
            List<long[]> assigned = new ArrayList<>();
            switch (c.assigner()) {
                case "tumbling" -> {
                    long s = Math.floorDiv(e.ts(), c.size()) * c.size();
                    assigned.add(new long[] {s, s + c.size()});
                }
                case "sliding" -> {
                    for (long s = Math.floorDiv(e.ts(), c.slide()) * c.slide(); s > e.ts() - c.size(); s -= c.slide()) {
                        assigned.add(new long[] {s, s + c.size()});
                    }
                }
                case "session" -> assigned.add(new long[] {e.ts(), e.ts() + c.size()});
                default -> assigned.add(new long[] {Long.MIN_VALUE, Long.MAX_VALUE});
            }
            boolean taken = false;
            for (long[] a : assigned) {
                RefWindow w = c.session() ? mergeSession(ws, e.key(), a[0], a[1]) : find(ws, a[0], a[1]);
                if (w == null) {
                    continue;
                }
                taken = true;
                w.contents.add(e);
                boolean fire;
                if (c.trigger().equals("count")) {
                    fire = ++w.count >= c.count();
                    if (fire) {
                        w.count = 0;
                    }
                } else {
                    fire = maxTs(w) <= wm;
                }
                if (fire) {
                    fire(e.key(), w);
                }
            }
            if (!taken && !c.global() && e.ts() + c.lateness() <= wm) {
                out.add("LATE " + e.key() + " " + e.side() + e.value() + "@" + e.ts());
            }
            if (ws.isEmpty()) {
                windows.remove(e.key());
            }
        }

        private RefWindow find(List<RefWindow> ws, long start, long end) {
            for (RefWindow w : ws) {
                if (w.start == start && w.end == end) {
                    return w;
                }
            }
            RefWindow w = new RefWindow(start, end);
            if (pastCleanup(maxTs(w))) {
                return null;
            }
            ws.add(w);
            return w;
        }

        private RefWindow mergeSession(List<RefWindow> ws, String key, long start, long end) {
            List<RefWindow> touching = new ArrayList<>();
            for (RefWindow w : ws) {
                if (w.start <= end && w.end >= start) {
                    touching.add(w);
                }
            }
            if (touching.isEmpty()) {
                RefWindow w = new RefWindow(start, end);
                if (pastCleanup(maxTs(w))) {
                    return null;
                }
                ws.add(w);
                return w;
            }
            if (touching.size() == 1 && touching.get(0).start <= start && touching.get(0).end >= end) {
                return touching.get(0);
            }
            long s = start;
            long e = end;
            for (RefWindow w : touching) {
                s = Math.min(s, w.start);
                e = Math.max(e, w.end);
            }
            RefWindow merged = new RefWindow(s, e);
            for (RefWindow w : touching) {
                if (c.mode() == AccumulationMode.ACCUMULATING_AND_RETRACTING && w.last != null) {
                    for (String v : w.last) {
                        out.add("RETRACT " + key + " [" + w.start + "," + w.end + ") " + v + " @" + maxTs(w));
                    }
                }
                merged.contents.addAll(w.contents);
                merged.count += w.count;
                ws.remove(w);
            }
            ws.add(merged);
            return merged;
        }

        private void watermark(long newWm) {
            long old = wm;
            wm = newWm;
            for (Map.Entry<String, List<RefWindow>> entry : new ArrayList<>(windows.entrySet())) {
                List<RefWindow> ws = entry.getValue();
                for (RefWindow w : new ArrayList<>(ws)) {
                    long max = maxTs(w);
                    if (!c.trigger().equals("count") && max > old && max <= newWm) {
                        fire(entry.getKey(), w);
                    }
                    if (pastCleanup(max)) {
                        ws.remove(w);
                    }
                }
                if (ws.isEmpty()) {
                    windows.remove(entry.getKey());
                }
            }
        }

        private void fire(String key, RefWindow w) {
            if (w.contents.isEmpty()) {
                return;
            }
            List<Ev> view = new ArrayList<>(w.contents);
            if (c.evictor().equals("count")) {
                while (view.size() > c.evictN()) {
                    view.remove(0);
                }
            } else if (c.evictor().equals("time")) {
                long max = view.stream().mapToLong(Ev::ts).max().getAsLong();
                view.removeIf(x -> x.ts() <= max - c.evictN() * 400);
            }
            String value = switch (c.function()) {
                case "sum", "sum+process" -> view.isEmpty() ? null
                        : Long.toString(view.stream().mapToLong(Ev::value).sum());
                case "count" -> Long.toString(view.size());
                case "list" -> listText(view.stream().map(Ev::value).toList(), c.session());
                default -> coGroupText(view.stream().filter(x -> x.side() == 'L').toList(),
                        view.stream().filter(x -> x.side() == 'R').toList(), c.session());
            };
            String window = c.global() ? "global" : "[" + w.start + "," + w.end + ")";
            if (c.mode() == AccumulationMode.ACCUMULATING_AND_RETRACTING && w.last != null) {
                for (String v : w.last) {
                    out.add("RETRACT " + key + " " + window + " " + v + " @" + maxTs(w));
                }
            }
            List<String> emitted = new ArrayList<>();
            if (value != null) {
                out.add("WIN " + key + " " + window + " " + value + " @" + maxTs(w));
                emitted.add(value);
            }
            w.last = emitted;
            if (!c.evictor().equals("none")) {
                w.contents.retainAll(view);
            }
            if (c.mode() == AccumulationMode.DISCARDING) {
                w.contents.clear();
            }
        }
    }
}
