package io.cepheus.runtime.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.cepheus.nfa.testing.PropertySeeds;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.KeyedStream;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.internal.window.PassThrough;
import io.cepheus.runtime.internal.window.SessionWindowOperator;
import io.cepheus.runtime.internal.window.WindowSpec;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The session fast path ({@code SessionWindowOperator}) against the general {@code WindowOperator} on random
 * out-of-order streams with random watermarks: static and dynamic gaps, allowed lateness (late firings, late
 * elements bridging sessions, cleanup), the three accumulation modes, order-sensitive reduce and aggregate
 * functions (contents merge in the same order), several keys, one or two shards. The general operator runs the
 * same configuration behind a trigger that forwards to {@link EventTimeTrigger} (the same behaviour, but not the
 * default trigger, so the engine does not take the fast path). After every input token the emitted lines must be
 * equal in order (per key when another window operator shares the shard), and the counters (windows,
 * accumulators, keys, firings, results, retractions, late elements) equal; after the final watermark nothing may
 * be left.
 */
class SessionFastPathPropertyTest {

    private static final long SEED = PropertySeeds.seed(0x5E5510L);

    /** An element; {@code gap} is its session gap under dynamic gaps. */
    record Ev(String key, long value, long ts, long gap) {
    }

    /**
     * One random configuration; {@code neighbour}: a general tumbling-window operator on the same keys and shards
     * (with shard timers), so that keys are released only when both operators are done with them. Results are
     * then compared per key: the two engines may give keys different ids (see {@code KeyDictionary}).
     */
    record Config(long gap, boolean dynamic, long lateness, String function, AccumulationMode mode, int shards,
            boolean neighbour) {
    }

    @Test
    void theFastPathEmitsWhatTheGeneralOperatorEmits() {
        PropertySeeds.reportingSeed(SEED, "runtime", "SessionFastPathPropertyTest", () ->
                qt().withFixedSeed(SEED).withExamples(600).forAll(longs().all())
                        .checkAssert(SessionFastPathPropertyTest::check));
    }

    @Test
    void theEngineRoutesExactlyTheseConfigurationsToTheFastPath() {
        EventTimeSessionWindows<Ev> sessions = EventTimeSessionWindows.withGap(Duration.ofMillis(10));
        AggregateFunction<Ev, Object, Object> agg = cast(new Listing());
        for (AccumulationMode mode : AccumulationMode.values()) {
            Trigger<Ev> t = mode == AccumulationMode.DISCARDING ? PurgingTrigger.of(EventTimeTrigger.create())
                    : EventTimeTrigger.create();
            assertTrue(SessionWindowOperator.supports(spec(sessions, t, 0, null, agg, mode)), mode.toString());
            assertTrue(SessionWindowOperator.supports(spec(sessions, t, 500, null, agg, mode)), mode.toString());
            assertFalse(SessionWindowOperator.supports(spec(sessions, forwarding(mode), 0, null, agg, mode)),
                    "the reference configuration must take the general operator");
        }
        assertEquals(10, sessions.gap(), "the static gap scales the operator's due wheel");
        assertEquals(0, EventTimeSessionWindows.<Ev>withDynamicGap(Ev::gap).gap(), "none for dynamic gaps");
        assertTrue(SessionWindowOperator.supports(spec(EventTimeSessionWindows.withDynamicGap(Ev::gap),
                EventTimeTrigger.create(), 0, (a, b) -> a, null, AccumulationMode.ACCUMULATING)));
        assertFalse(SessionWindowOperator.supports(spec(TumblingEventTimeWindows.of(Duration.ofMillis(10)),
                EventTimeTrigger.create(), 0, null, agg, AccumulationMode.ACCUMULATING)));
        assertFalse(SessionWindowOperator.supports(spec(sessions, CountTrigger.of(2), 0, null, agg,
                AccumulationMode.ACCUMULATING)));
    }

    private static WindowSpec<Ev, Object, Object> spec(WindowAssigner<Ev> assigner, Trigger<Ev> trigger,
            long lateness, ReduceFunction<Ev> reduce, AggregateFunction<Ev, Object, Object> aggregate,
            AccumulationMode mode) {
        return new WindowSpec<>(assigner, trigger, null, lateness, reduce, aggregate, new PassThrough<>(), mode, null);
    }

    @SuppressWarnings("unchecked")
    private static <X> X cast(Object o) {
        return (X) o;
    }

    private static void check(long caseSeed) {
        Random r = new Random(caseSeed);
        Config c = new Config(1 + r.nextInt(r.nextBoolean() ? 50 : 1500), r.nextInt(4) == 0,
                List.of(0L, 0L, 1L, 200L, 3000L).get(r.nextInt(5)),
                List.of("sum", "digits", "count", "list").get(r.nextInt(4)),
                AccumulationMode.values()[r.nextInt(3)], 1 + r.nextInt(2), r.nextInt(3) == 0);
        List<Object> tokens = randomTokens(r, c);
        String context = "case seed " + caseSeed + ", " + c + "\ntokens " + tokens;
        Run fast = run(c, tokens, false);
        Run general = run(c, tokens, true);
        for (int i = 0; i < fast.groups.size(); i++) {
            String at = "after token " + i + " (" + (i < tokens.size() ? tokens.get(i) : "final watermark") + "); ";
            assertEquals(general.groups.get(i), fast.groups.get(i), at + context);
            assertEquals(general.counters.get(i), fast.counters.get(i),
                    at + "counters [windows, accumulators, keys, firings, results, retractions, late]; " + context);
        }
        WindowMetrics m = fast.last;
        assertEquals(0, m.windows(), "windows left after the final watermark; " + context);
        assertEquals(0, m.accumulators(), context);
        assertEquals(0, m.keys(), context);
        assertEquals(0, m.timers(), "due entries left; " + context);
        assertEquals(0, fast.keysLeft, "keys left on the shards; " + context);
    }

    private static List<Object> randomTokens(Random r, Config c) {
        List<Object> tokens = new ArrayList<>();
        long time = r.nextInt(3) == 0 ? -5_000 : 0; // negative timestamps too
        long wm = Long.MIN_VALUE;
        long disorder = 1 + r.nextInt((int) Math.min(4 * c.gap() + 10, 6000));
        int keys = 1 + r.nextInt(4);
        // dense streams keep sessions open over many watermarks: their due times move while they wait
        int step = r.nextInt(3) == 0 ? 3 * keys : 1;
        int n = r.nextInt(5) == 0 ? 100 + r.nextInt(300) : 5 + r.nextInt(60); // long ones: sessions outlive checks
        for (int i = 0; i < n; i++) {
            if (r.nextInt(4) == 0) {
                long w = time - r.nextInt((int) disorder + 1);
                if (w > wm) {
                    wm = w;
                    tokens.add(w);
                }
            } else {
                time += r.nextInt(Math.max(1, (int) Math.min(2 * c.gap() + 2, 4000) / step));
                long ts = time - r.nextInt((int) disorder);
                String key = String.valueOf((char) ('a' + r.nextInt(keys)));
                tokens.add(new Ev(key, 1 + r.nextInt(9), ts, 1 + r.nextInt((int) (2 * c.gap()))));
            }
        }
        return tokens;
    }

    record Run(List<List<String>> groups, List<List<Long>> counters, WindowMetrics last, long keysLeft) {
    }

    private static Run run(Config c, List<Object> tokens, boolean general) {
        List<String> out = new ArrayList<>();
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(c.shards()).flushOnClose(false)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, t) -> e.ts())).build();
        WindowAssigner<Ev> assigner = c.dynamic() ? EventTimeSessionWindows.withDynamicGap(Ev::gap)
                : EventTimeSessionWindows.withGap(Duration.ofMillis(c.gap()));
        KeyedStream<Ev> keyed = engine.keyBy(Ev::key);
        if (c.neighbour()) {
            keyed.window(TumblingEventTimeWindows.of(Duration.ofMillis(700)))
                    .<Long>process((k, ctx, els, o) -> o.collect(0L));
        }
        WindowedStream<Ev> w = keyed.window(assigner).accumulationMode(c.mode())
                .allowedLateness(Duration.ofMillis(c.lateness()))
                .sideOutputLateData((k, e, ts) -> out.add("LATE " + k + " " + e.value() + "@" + ts));
        if (general) {
            w.trigger(forwarding(AccumulationMode.ACCUMULATING));
        }
        WindowResults<?> results = switch (c.function()) {
            case "sum" -> print(w.reduce((a, b) -> new Ev(a.key(), a.value() + b.value(), a.ts(), a.gap())), out,
                    e -> Long.toString(e.value()));
            case "digits" -> print(w.reduce((a, b) -> new Ev(a.key(), a.value() * 10 + b.value(), a.ts(), a.gap())),
                    out, e -> Long.toString(e.value()));
            case "count" -> print(w.aggregate(new CountSum()), out, v -> v);
            default -> print(w.aggregate(new Listing()), out, v -> v.toString());
        };
        Producer<Ev> p = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        List<List<String>> groups = new ArrayList<>();
        List<List<Long>> counters = new ArrayList<>();
        List<Object> all = new ArrayList<>(tokens);
        all.add(Long.MAX_VALUE);
        for (Object t : all) {
            if (t instanceof Ev e) {
                p.send(e);
            } else {
                p.watermark((Long) t);
            }
            h.runUntilIdle();
            List<String> group = new ArrayList<>(out);
            if (c.neighbour()) {
                // key ids are reused last freed, first out, and the neighbour's timers release keys at other moments
                // than the session operator does, so ids - and the order of equal-time results across keys - may
                // differ between the two engines; each key's own results must still come in the same order
                group.sort(java.util.Comparator.comparing(line -> line.split(" ")[1]));
            }
            groups.add(group);
            out.clear();
            WindowMetrics m = results.metrics();
            counters.add(List.of(m.windows(), m.accumulators(), m.keys(), m.firings(), m.results(), m.retractions(),
                    m.lateElements()));
        }
        WindowMetrics last = results.metrics();
        long keysLeft = engine.metrics().shards().stream().mapToLong(s -> s.keys()).sum();
        h.close();
        return new Run(groups, counters, last, keysLeft);
    }

    private static <V> WindowResults<V> print(WindowResults<V> r, List<String> out,
            java.util.function.Function<V, String> text) {
        r.results((k, win, v, ts) -> out.add("WIN " + k + " " + win + " " + text.apply(v) + " @" + ts));
        r.retractions((k, win, v, ts) -> out.add("RETRACT " + k + " " + win + " " + text.apply(v) + " @" + ts));
        return r;
    }

    /** {@link EventTimeTrigger}'s behaviour under another class (purging added by the mode, as for the default). */
    private static Trigger<Ev> forwarding(AccumulationMode mode) {
        Trigger<Ev> t = ForwardingTrigger.of(EventTimeTrigger.create());
        return mode == AccumulationMode.DISCARDING ? PurgingTrigger.of(t) : t;
    }

    /** Count and sum, into a fresh result string (the accumulator is changed in place). */
    static final class CountSum implements AggregateFunction<Ev, long[], String> {
        @Override
        public long[] createAccumulator() {
            return new long[2];
        }

        @Override
        public long[] add(Ev e, long[] acc) {
            acc[0]++;
            acc[1] += e.value();
            return acc;
        }

        @Override
        public String getResult(long[] acc) {
            return acc[0] + "/" + acc[1];
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            a[0] += b[0];
            a[1] += b[1];
            return a;
        }
    }

    /**
     * The values in the order they were added and merged (order-sensitive); the result is the accumulator itself,
     * so a later change shows in an earlier result, as for any such function.
     */
    static final class Listing implements AggregateFunction<Ev, List<Long>, List<Long>> {
        @Override
        public List<Long> createAccumulator() {
            return new ArrayList<>();
        }

        @Override
        public List<Long> add(Ev e, List<Long> acc) {
            acc.add(e.value());
            return acc;
        }

        @Override
        public List<Long> getResult(List<Long> acc) {
            return acc;
        }

        @Override
        public List<Long> merge(List<Long> a, List<Long> b) {
            a.addAll(b);
            return a;
        }
    }
}
