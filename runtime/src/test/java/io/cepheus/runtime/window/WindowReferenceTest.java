package io.cepheus.runtime.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.cepheus.nfa.testing.PropertySeeds;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.internal.window.PassThrough;
import io.cepheus.runtime.internal.window.SliceWindowOperator;
import io.cepheus.runtime.internal.window.WindowSpec;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;

/**
 * Every event-time window configuration (tumbling and sliding, each with or without an offset, sliding with gaps;
 * sessions with a static or a dynamic gap; global; default, count, purging count and continuous event-time
 * triggers; no, count, time and delta evictors, each before or after the function; sum / count / list / coGroup
 * functions, reduce and aggregate each also followed by a process function; allowed lateness; the three
 * accumulation modes) against a naive reference on random out-of-order streams with random watermarks: the
 * reference keeps each key's windows as plain lists of elements and applies Flink's rules directly (element goes
 * into each window not past cleanup, firing when the watermark passes the end, the count is reached or a
 * continuous trigger's next fire time passes, late firing for each element into a passed window, removal at
 * cleanup), with no slots, slices or shared timer service. The outputs of each input token are compared as sorted
 * lists, and all state must be gone after the final watermark.
 *
 * <p>Left to other tests: processing time (the same operators on the engine clock; {@code WindowExamplesTest},
 * {@code SlidingProcessingTimeWindowsTest}, {@code ProcessingTimeSessionWindowsTest}, and Flink itself as the
 * reference in the benchmarks module's {@code WindowAgreementWithFlinkTest}, which draws processing time,
 * continuous triggers on sessions and the global window as well), and custom triggers and assigners (their own
 * example tests).
 */
class WindowReferenceTest {

    private static final long SEED = PropertySeeds.seed(0x57A7E5L);

    record Ev(char side, String key, long value, long ts) {
    }

    /** One random configuration. */
    record Config(String assigner, long size, long slide, String trigger, long count, String evictor, long evictN,
            long lateness, String function, AccumulationMode mode, long offset, boolean dynamicGap,
            boolean evictAfter) {

        Config(String assigner, long size, long slide, String trigger, long count, String evictor, long evictN,
                long lateness, String function, AccumulationMode mode) {
            this(assigner, size, slide, trigger, count, evictor, evictN, lateness, function, mode, 0, false, false);
        }

        /** The continuous trigger's interval. */
        long interval() {
            return 100 * count;
        }

        /** A dynamic session gap: drawn from each element's value, so neighbouring sessions differ. */
        long gapOf(Ev e) {
            return dynamicGap ? size / 2 + 100 * (e.value() % 5) : size;
        }

        /** The delta evictor's distance: how far apart two values are. */
        static double delta(Ev a, Ev b) {
            return Math.abs(a.value() - b.value());
        }

        double deltaThreshold() {
            return 2 * evictN;
        }

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
        long offset = 0;
        if ((assigner.equals("tumbling") || assigner.equals("sliding")) && r.nextInt(3) == 0) {
            long bound = assigner.equals("tumbling") ? size : slide; // Flink's rule: |offset| < size, or < slide
            offset = r.nextInt((int) (2 * bound - 1)) - (bound - 1);
        }
        boolean dynamicGap = assigner.equals("session") && r.nextBoolean();
        String trigger;
        if (assigner.equals("global")) {
            trigger = r.nextBoolean() ? "count" : "purging-count";
        } else {
            int t = r.nextInt(10);
            // a continuous trigger on sessions merges its fire times (onMerge): left to the Flink agreement test
            trigger = t < 5 ? "default" : t < 7 ? "count" : t < 8 ? "purging-count"
                    : assigner.equals("session") ? "default" : "continuous";
        }
        String evictor = List.of("none", "none", "count", "time", "delta").get(r.nextInt(5));
        boolean evictAfter = !evictor.equals("none") && r.nextBoolean();
        String function = List.of("sum", "count", "list", "cogroup", "sum+process", "count+process")
                .get(r.nextInt(6));
        AccumulationMode mode = function.equals("cogroup") ? AccumulationMode.ACCUMULATING
                : trigger.equals("purging-count") ? AccumulationMode.values()[r.nextInt(2)] // retracting refuses it
                : AccumulationMode.values()[r.nextInt(3)];
        long lateness = List.of(0L, 0L, 300L, 2000L).get(r.nextInt(4));
        return new Config(assigner, size, slide, trigger, 1 + r.nextInt(3), evictor, 1 + r.nextInt(3), lateness,
                function, mode, offset, dynamicGap, evictAfter);
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
            case "tumbling" -> c.offset() == 0 ? TumblingEventTimeWindows.of(Duration.ofMillis(c.size()))
                    : TumblingEventTimeWindows.of(Duration.ofMillis(c.size()), Duration.ofMillis(c.offset()));
            case "sliding" -> c.offset() == 0
                    ? SlidingEventTimeWindows.of(Duration.ofMillis(c.size()), Duration.ofMillis(c.slide()))
                    : SlidingEventTimeWindows.of(Duration.ofMillis(c.size()), Duration.ofMillis(c.slide()),
                            Duration.ofMillis(c.offset()));
            case "session" -> c.dynamicGap() ? EventTimeSessionWindows.<Ev>withDynamicGap(c::gapOf)
                    : EventTimeSessionWindows.withGap(Duration.ofMillis(c.size()));
            default -> GlobalWindows.create();
        };
        Trigger<Ev> trigger = switch (c.trigger()) {
            case "count" -> CountTrigger.of(c.count());
            case "purging-count" -> PurgingTrigger.of(CountTrigger.of(c.count()));
            case "continuous" -> ContinuousEventTimeTrigger.of(Duration.ofMillis(c.interval()));
            default -> null;
        };
        Evictor<Ev> evictor = switch (c.evictor()) {
            case "count" -> CountEvictor.of(c.evictN(), c.evictAfter());
            case "time" -> TimeEvictor.of(Duration.ofMillis(c.evictN() * 400), c.evictAfter());
            case "delta" -> DeltaEvictor.of(c.deltaThreshold(), Config::delta, c.evictAfter());
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
                // the count, handed to a process function that passes it on
                case "count+process" -> print(w.<long[], Long, String>aggregate(new Counting(),
                        (key, ctx, counts, o) -> counts.forEach(n -> o.collect(Long.toString(n)))), out, v -> v,
                        retracting);
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
        /** Each element's place in the input: a merged session keeps its elements in arrival order. */
        private final Map<Ev, Integer> arrival = new java.util.IdentityHashMap<>();

        Reference(Config c) {
            this.c = c;
        }

        static final class RefWindow {
            final long start;
            final long end;
            final List<Ev> contents = new ArrayList<>();
            long count;
            List<String> last;
            /** A continuous trigger's next fire time, or null; and the window's pending event-time timers. */
            Long fireTs;
            final java.util.TreeSet<Long> timers = new java.util.TreeSet<>();

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
            arrival.put(e, arrival.size());
            List<RefWindow> ws = windows.computeIfAbsent(e.key(), k -> new ArrayList<>());
            List<long[]> assigned = new ArrayList<>();
            switch (c.assigner()) {
                case "tumbling" -> {
                    long s = e.ts() - Math.floorMod(e.ts() - c.offset(), c.size());
                    assigned.add(new long[] {s, s + c.size()});
                }
                case "sliding" -> {
                    for (long s = e.ts() - Math.floorMod(e.ts() - c.offset(), c.slide()); s > e.ts() - c.size();
                            s -= c.slide()) {
                        assigned.add(new long[] {s, s + c.size()});
                    }
                }
                case "session" -> assigned.add(new long[] {e.ts(), e.ts() + c.gapOf(e)});
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
                if (c.trigger().endsWith("count")) {
                    fire = ++w.count >= c.count();
                    if (fire) {
                        w.count = 0;
                    }
                } else {
                    fire = maxTs(w) <= wm;
                    if (!fire && c.trigger().equals("continuous")) {
                        // Flink's ContinuousEventTimeTrigger.onElement: a timer at the end, and the first fire time
                        // at the next multiple of the interval after the element (no later than the end)
                        w.timers.add(maxTs(w));
                        if (w.fireTs == null) {
                            w.fireTs = Math.min(e.ts() - e.ts() % c.interval() + c.interval(), maxTs(w));
                            w.timers.add(w.fireTs);
                        }
                    }
                }
                if (fire) {
                    fire(e.key(), w);
                    if (c.trigger().equals("purging-count")) {
                        w.contents.clear();
                    }
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
                merged.contents.addAll(w.contents);
                if (c.mode() == AccumulationMode.ACCUMULATING_AND_RETRACTING && w.last != null) {
                    for (String v : w.last) {
                        out.add("RETRACT " + key + " [" + w.start + "," + w.end + ") " + v + " @" + maxTs(w));
                    }
                }
                merged.count += w.count;
                ws.remove(w);
            }
            merged.contents.sort(java.util.Comparator.comparing(arrival::get));
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
                    if (c.trigger().equals("continuous")) {
                        // the window's timers in time order, each once; a fire time re-arms at the next interval
                        while (!w.timers.isEmpty() && w.timers.first() <= newWm) {
                            long t = w.timers.pollFirst();
                            if (t == max) {
                                fire(entry.getKey(), w);
                            } else if (w.fireTs != null && w.fireTs == t) {
                                w.fireTs = Math.min(t + c.interval(), max);
                                w.timers.add(w.fireTs);
                                fire(entry.getKey(), w);
                            }
                        }
                    } else if (c.trigger().equals("default") && max > old && max <= newWm) {
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
            if (!c.evictAfter()) {
                evict(view);
            }
            String value = switch (c.function()) {
                case "sum", "sum+process" -> view.isEmpty() ? null
                        : Long.toString(view.stream().mapToLong(Ev::value).sum());
                case "count", "count+process" -> Long.toString(view.size());
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
            if (c.evictAfter()) {
                evict(view);
            }
            if (!c.evictor().equals("none")) {
                w.contents.clear();
                w.contents.addAll(view); // what the evictors left, in its order
            }
            if (c.mode() == AccumulationMode.DISCARDING) {
                w.contents.clear();
            }
        }

        /** Flink's evictors, on the window's elements in order; the newest is the last. */
        private void evict(List<Ev> view) {
            if (view.isEmpty()) {
                return;
            }
            switch (c.evictor()) {
                case "count" -> {
                    while (view.size() > c.evictN()) {
                        view.remove(0);
                    }
                }
                case "time" -> {
                    long max = view.stream().mapToLong(Ev::ts).max().getAsLong();
                    view.removeIf(x -> x.ts() <= max - c.evictN() * 400);
                }
                case "delta" -> {
                    Ev newest = view.get(view.size() - 1);
                    view.removeIf(x -> Config.delta(x, newest) >= c.deltaThreshold());
                }
                default -> {
                }
            }
        }
    }
}
