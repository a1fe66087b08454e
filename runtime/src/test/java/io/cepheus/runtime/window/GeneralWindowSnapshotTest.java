package io.cepheus.runtime.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.EventCodec;
import io.cepheus.nfa.testing.PropertySeeds;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.SnapshotRoundTrip;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import io.cepheus.runtime.window.WindowSnapshotTest.Ev;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Snapshots of the general window operator: custom and built-in triggers with their state and timers (event and
 * processing time), evictors over element lists, process functions with per-window and per-key state, global,
 * processing-time and merging windows, retraction. Run a random input, snapshot at a random cut, restore into a
 * fresh engine, continue: the results, retractions and late elements must be exactly those of an uninterrupted
 * run, in the same order, and so must every window metric at the end.
 */
class GeneralWindowSnapshotTest {

    private static final long SEED = PropertySeeds.seed(0x6E7E2A1L);
    private static final EventCodec<Ev> EVENTS = WindowSnapshotTest.EVENTS;
    private static final EventCodec<Object> KEYS = SnapshotRoundTrip.INT_KEYS;
    private static final SnapshotRoundTrip<Ev> ROUND_TRIP = new SnapshotRoundTrip<>(EVENTS, KEYS);

    /** Writes the longs a test function keeps in its state. */
    static final EventCodec<Object> LONG_STATE = new EventCodec<>() {
        @Override
        public void write(Object value, DataOutput out) throws IOException {
            out.writeLong((Long) value);
        }

        @Override
        public Object read(DataInput in) throws IOException {
            return in.readLong();
        }
    };

    /**
     * A custom merging trigger with state: fires once the values in the window add up to 40 (then counts again),
     * and at the window's end. Merged windows add their sums.
     */
    static class SumTrigger implements Trigger<Ev> {
        private final TriggerState<Long> sum = TriggerState.of("sum", Long::sum, TriggerCodecs.LONG);

        @Override
        public TriggerResult onElement(Ev e, long timestamp, Window window, TriggerContext ctx) {
            ctx.registerEventTimeTimer(window.maxTimestamp());
            Long s = ctx.getState(sum);
            long next = (s == null ? 0 : s) + e.value();
            if (next >= 40) {
                ctx.clearState(sum);
                return TriggerResult.FIRE;
            }
            ctx.setState(sum, next);
            return TriggerResult.CONTINUE;
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
            ctx.mergeState(sum);
            ctx.registerEventTimeTimer(window.maxTimestamp());
        }

        @Override
        public void clear(Window window, TriggerContext ctx) {
            ctx.clearState(sum);
            ctx.deleteEventTimeTimer(window.maxTimestamp());
        }

        @Override
        public List<TriggerState<?>> states() {
            return List.of(sum);
        }
    }

    /** The function a shape applies. */
    enum Function { REDUCE, AGGREGATE, PROCESS }

    /**
     * A configuration of the general operator, numbered: the assigner and trigger ({@code kind}), the function, the
     * accumulation mode (retracting with a reduce only: other results have no codec), allowed lateness, shards.
     */
    record Shape(int kind, Function function, AccumulationMode mode, long lateness, int shards) {

        static final int KINDS = 8;
        static final int SHAPES = KINDS * 3 * 3 * 2 * 2;

        static Shape of(int n) {
            int kind = n % KINDS;
            n /= KINDS;
            Function function = Function.values()[n % 3];
            n /= 3;
            AccumulationMode mode = AccumulationMode.values()[n % 3];
            n /= 3;
            if (mode == AccumulationMode.ACCUMULATING_AND_RETRACTING && function != Function.REDUCE) {
                mode = AccumulationMode.ACCUMULATING;
            }
            long lateness = (n % 2) * 5;
            n /= 2;
            return new Shape(kind, function, mode, lateness, 1 + n % 2);
        }

        boolean merging() {
            return kind == 2 || kind == 7;
        }

        WindowAssigner<Ev> assigner() {
            return switch (kind) {
                case 0, 6 -> TumblingEventTimeWindows.of(Duration.ofMillis(6));
                case 1 -> SlidingEventTimeWindows.of(Duration.ofMillis(9), Duration.ofMillis(3));
                case 2 -> EventTimeSessionWindows.withGap(Duration.ofMillis(4));
                case 3 -> GlobalWindows.create();
                case 4 -> TumblingProcessingTimeWindows.of(Duration.ofMillis(5));
                case 5 -> TumblingProcessingTimeWindows.of(Duration.ofMillis(8));
                default -> ProcessingTimeSessionWindows.withGap(Duration.ofMillis(4));
            };
        }

        WindowedStream<Ev> configure(WindowedStream<Ev> w) {
            w = switch (kind) {
                case 0 -> w.trigger(CountTrigger.of(3));
                case 1 -> w.trigger(ContinuousEventTimeTrigger.of(Duration.ofMillis(2)));
                case 2 -> w.trigger(new SumTrigger());
                case 3 -> w.trigger(CountTrigger.of(4));
                case 5 -> w.trigger(ContinuousProcessingTimeTrigger.of(Duration.ofMillis(3)));
                case 6 -> w.evictor(function == Function.PROCESS ? TimeEvictor.of(Duration.ofMillis(3), true)
                        : CountEvictor.of(2));
                default -> w;
            };
            return w.allowedLateness(Duration.ofMillis(lateness)).accumulationMode(mode);
        }
    }

    private static CepEngine<Ev> engine(Shape shape, List<String> out, List<WindowResults<?>> made) {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(shape.shards()).clock(new ManualClock(0))
                .snapshots(EVENTS, KEYS).flushOnClose(false)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
        WindowedStream<Ev> windows = shape.configure(engine.keyBy(Ev::key).window(shape.assigner()))
                .sideOutputLateData((k, e, ts) -> out.add("late " + k + " " + e));
        WindowResults<?> results = switch (shape.function()) {
            case REDUCE -> {
                // not associative: combining in another order changes the value
                WindowResults<Ev> r = windows.reduce((a, b) -> new Ev(a.key(), (a.value() * 3 + b.value()) % 1_000_003,
                        a.ts()));
                r.results((k, w, e, ts) -> out.add(k + " " + w + " " + e.value() + " @" + ts));
                r.retractions((k, w, e, ts) -> out.add("retract " + k + " " + w + " " + e.value() + " @" + ts));
                yield r;
            }
            case AGGREGATE -> {
                WindowResults<String> r = windows.aggregate(new WindowSnapshotTest.TenthSum(), WindowSnapshotTest.SUMS);
                r.results((k, w, s, ts) -> out.add(k + " " + w + " " + s + " @" + ts));
                yield r;
            }
            case PROCESS -> {
                boolean perWindow = !shape.merging(); // per-window state is not allowed with merging windows
                WindowResults<String> r = windows.stateCodec(LONG_STATE).<String>process((key, ctx, elements, c) -> {
                    StringBuilder s = new StringBuilder();
                    for (Ev e : elements) {
                        s.append(e.value()).append(',');
                    }
                    Long total = ctx.globalState().get("firings");
                    long t = total == null ? 1 : total + 1;
                    ctx.globalState().put("firings", t);
                    long n = 0;
                    if (perWindow) {
                        Long before = ctx.windowState().get("n");
                        n = before == null ? 1 : before + 1;
                        ctx.windowState().put("n", n);
                    }
                    c.collect(s + " firing " + n + " of window, " + t + " of key");
                });
                r.results((k, w, s, ts) -> out.add(k + " " + w + " " + s + " @" + ts));
                yield r;
            }
        };
        made.add(results);
        return engine;
    }

    /**
     * The script's steps as {@link SnapshotRoundTrip#script} reads them, and processing time: each step moves the
     * clock on by {@code value % 3} ms, so processing-time windows and triggers fire mid-script. A restored engine's
     * clock starts at 0: the feed first brings it to where the interrupted engine's clock was.
     */
    private static SnapshotRoundTrip.Feed<Ev> feed(List<Integer> script) {
        long[] eventTime = {0};
        long[] processingTime = {0};
        CepTestHarness<?>[] current = {null};
        return new SnapshotRoundTrip.Feed<>() {
            @Override
            public void steps(Producer<Ev> in, CepTestHarness<Ev> h, int from, int to) {
                catchUp(h);
                for (int i = from; i < to; i++) {
                    int v = script.get(i);
                    if (v >= 60) {
                        in.watermark(eventTime[0] - (v - 60));
                    } else {
                        eventTime[0] += v % 4;
                        in.send(new Ev(v % 3, v + 1, eventTime[0] - (v % 7 == 0 ? 6 : 0)));
                    }
                    h.runUntilIdle();
                    processingTime[0] += v % 3;
                    h.advanceProcessingTime(Duration.ofMillis(v % 3));
                }
            }

            private void catchUp(CepTestHarness<Ev> h) {
                if (current[0] != h) {
                    current[0] = h;
                    h.advanceProcessingTime(Duration.ofMillis(processingTime[0]));
                }
            }

            @Override
            public void finish(Producer<Ev> in, CepTestHarness<Ev> h) {
                catchUp(h);
                in.watermark(Long.MAX_VALUE);
                h.runUntilIdle();
                h.advanceProcessingTime(Duration.ofMillis(1_000));
                h.close();
            }
        };
    }

    @Test
    void restoringAtAnyCutGivesTheUninterruptedResults() {
        SnapshotRoundTrip.forRandomCuts(SEED, "GeneralWindowSnapshotTest", 600, Shape.SHAPES,
                (script, cut, shape) -> check(script, cut, Shape.of(shape)));
    }

    /** Every configuration, on a long script cut where many windows are open with trigger state and timers. */
    @Test
    void everyConfigurationRestoresMidStream() {
        List<Integer> script = SnapshotRoundTrip.steadyScript(240, 41, 6, 4);
        for (int n = 0; n < Shape.SHAPES; n++) {
            check(script, 131, Shape.of(n));
        }
    }

    private static void check(List<Integer> script, int cut, Shape shape) {
        List<WindowResults<?>> made = new ArrayList<>(); // of the uninterrupted, first and restored engines
        SnapshotRoundTrip.Outcome<Ev> run = ROUND_TRIP.run(out -> engine(shape, out, made), () -> feed(script),
                script.size(), cut);
        assertEquals(run.expected(), run.actual(), shape + ": script " + script + " cut at " + cut);
        assertEquals(made.get(0).metrics(), made.get(2).metrics(), shape + ": the metrics carry over");
    }

    /**
     * A process function after the reduce or aggregate of tumbling and sliding windows (which keep slices, each
     * window firing once) keeps per-key state across windows: a restored engine continues its count.
     */
    @Test
    void aSliceWindowsProcessFunctionKeepsItsPerKeyState() {
        SnapshotRoundTrip.forRandomCuts(SEED + 2, "GeneralWindowSnapshotTest", 300, 8, (script, cut, n) -> {
            WindowAssigner<Ev> assigner = n % 2 == 0 ? TumblingEventTimeWindows.of(Duration.ofMillis(5))
                    : SlidingEventTimeWindows.of(Duration.ofMillis(9), Duration.ofMillis(3));
            boolean aggregate = (n / 2) % 2 == 1;
            int shards = 1 + n / 4;
            SnapshotRoundTrip.Outcome<Ev> run = ROUND_TRIP.run(out -> {
                CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(shards).clock(new ManualClock(0))
                        .snapshots(EVENTS, KEYS).flushOnClose(false)
                        .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts()))
                        .build();
                WindowedStream<Ev> windows = engine.keyBy(Ev::key).window(assigner).stateCodec(LONG_STATE);
                ProcessWindowFunction<Object, String> counting = (key, ctx, values, c) -> {
                    Long before = ctx.globalState().get("windows");
                    long count = before == null ? 1 : before + 1;
                    ctx.globalState().put("windows", count);
                    Object v = values.iterator().next();
                    c.collect((v instanceof Ev e ? Long.toString(e.value()) : v) + " window " + count + " of key");
                };
                WindowResults<String> results = aggregate
                        ? windows.aggregate(new WindowSnapshotTest.TenthSum(), (ProcessWindowFunction) counting,
                                WindowSnapshotTest.SUMS)
                        : windows.reduce((a, b) -> new Ev(a.key(), (a.value() * 3 + b.value()) % 1_000_003, a.ts()),
                                (ProcessWindowFunction) counting);
                results.results((k, w, r, ts) -> out.add(k + " " + w + " " + r + " @" + ts));
                return engine;
            }, () -> feed(script), script.size(), cut);
            assertEquals(run.expected(), run.actual(), assigner + " script " + script + " cut at " + cut);
        });
    }

    /**
     * Many keys and windows at once (thousands of slots, some freed and reused before the cut): the restored slot
     * table grows to hold them at their numbers, and hands out the same numbers afterwards.
     */
    @Test
    void manyOpenWindowsRestoreAtTheirSlotNumbers() {
        int events = 6_000;
        List<Integer> keysOf = new ArrayList<>();
        java.util.SplittableRandom random = new java.util.SplittableRandom(SEED);
        for (int i = 0; i < events; i++) {
            keysOf.add(random.nextInt(700));
        }
        for (int cut : new int[] {1_500, 3_001, 5_999}) {
            SnapshotRoundTrip.Outcome<Ev> run = ROUND_TRIP.run(out -> {
                CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).snapshots(EVENTS, KEYS).flushOnClose(false)
                        .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts()))
                        .build();
                engine.keyBy(Ev::key).window(SlidingEventTimeWindows.of(Duration.ofMillis(40), Duration.ofMillis(10)))
                        .trigger(CountTrigger.of(3)).evictor(CountEvictor.of(2))
                        .reduce((a, b) -> new Ev(a.key(), (a.value() * 3 + b.value()) % 1_000_003, a.ts()))
                        .results((k, w, r, ts) -> out.add(k + " " + w + " " + r.value() + " @" + ts));
                return engine;
            }, () -> new SnapshotRoundTrip.Feed<>() {
                @Override
                public void steps(Producer<Ev> in, CepTestHarness<Ev> h, int from, int to) {
                    for (int i = from; i < to; i++) {
                        in.send(new Ev(keysOf.get(i), i % 97, i / 20));
                        if (i % 50 == 49) {
                            in.watermark(i / 20 - 5);
                            h.runUntilIdle();
                        }
                    }
                    h.runUntilIdle();
                }

                @Override
                public void finish(Producer<Ev> in, CepTestHarness<Ev> h) {
                    in.watermark(Long.MAX_VALUE);
                    h.runUntilIdle();
                    h.close();
                }
            }, events, cut);
            assertEquals(run.expected(), run.actual(), "cut at " + cut);
        }
    }

    /** A window join's windows hold both sides' elements: a restored join pairs them as an uninterrupted one. */
    @Test
    void aWindowJoinRestoresItsWindows() {
        SnapshotRoundTrip.forRandomCuts(SEED + 1, "GeneralWindowSnapshotTest", 200, 2, (script, cut, shards) -> {
            SnapshotRoundTrip.Outcome<Ev> run = ROUND_TRIP.run(out -> {
                CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1 + shards).clock(new ManualClock(0))
                        .snapshots(EVENTS, KEYS).flushOnClose(false)
                        .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts()))
                        .build();
                engine.keyBy(Ev::key).join(e -> e.value() % 2 == 0 ? e : null, e -> e.value() % 2 == 1 ? e : null)
                        .window(TumblingEventTimeWindows.of(Duration.ofMillis(7)))
                        .apply((Ev l, Ev r) -> l.value() + "+" + r.value())
                        .results((k, w, pair, ts) -> out.add(k + " " + w + " " + pair + " @" + ts));
                return engine;
            }, () -> feed(script), script.size(), cut);
            assertEquals(run.expected(), run.actual(), "script " + script + " cut at " + cut);
        });
    }

    /** A trigger that sets a state it does not list cannot be snapshotted: on such an engine setting it fails. */
    @Test
    void aTriggerStateNotListedFailsWhenSet() {
        Trigger<Ev> unlisted = new SumTrigger() {
            @Override
            public List<TriggerState<?>> states() {
                return List.of();
            }
        };
        List<String> failures = new ArrayList<>();
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).snapshots(EVENTS, KEYS).flushOnClose(false)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
        engine.keyBy(Ev::key).window(TumblingEventTimeWindows.of(Duration.ofMillis(5))).trigger(unlisted)
                .deadLetters((k, e, ts, error) -> failures.add(error.getMessage()))
                .reduce((a, b) -> a).results((k, w, r, ts) -> { });
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev(1, 1, 1));
        h.runUntilIdle();
        assertFalse(failures.isEmpty(), "the trigger's setState failed");
        assertTrue(failures.get(0).contains("does not list"), failures.get(0));
    }

    /** A trigger that lists a state without a codec is refused when the window is registered, naming it. */
    @Test
    void aListedTriggerStateWithoutACodecIsRefused() {
        Trigger<Ev> noCodec = new SumTrigger() {
            @Override
            public List<TriggerState<?>> states() {
                return List.of(TriggerState.<Long>of("sum", Long::sum));
            }
        };
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).snapshots(EVENTS, KEYS).build();
        WindowedStream<Ev> w = engine.keyBy(Ev::key).window(TumblingEventTimeWindows.of(Duration.ofMillis(5)))
                .trigger(noCodec);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> w.reduce((a, b) -> a));
        assertTrue(e.getMessage().contains("lists state 'sum' without a codec"), e.getMessage());
    }

    /** A process function storing state with no state codec fails on an engine with snapshots, naming the fix. */
    @Test
    void processFunctionStateNeedsACodec() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).snapshots(EVENTS, KEYS).flushOnClose(false)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
        engine.keyBy(Ev::key).window(TumblingEventTimeWindows.of(Duration.ofMillis(5)))
                .<String>process((key, ctx, elements, out) -> ctx.globalState().put("seen", 1L))
                .results((k, w, r, ts) -> { });
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev(1, 1, 1));
        in.watermark(10);
        RuntimeException e = assertThrows(RuntimeException.class, h::runUntilIdle);
        StringBuilder messages = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append(" | ");
        }
        assertTrue(messages.toString().contains("stateCodec(codec)"), messages.toString());
    }

    /**
     * A window whose process function only read its state (so the window holds an empty store) is restored with a
     * store that still refuses values while the engine has no state codec: the next snapshot could not write them.
     */
    @Test
    void aRestoredStateStoreStillRefusesValuesWithoutACodec() {
        java.util.function.Supplier<CepEngine<Ev>> engines = () -> {
            CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).snapshots(EVENTS, KEYS).flushOnClose(false)
                    .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts()))
                    .build();
            engine.keyBy(Ev::key).window(TumblingEventTimeWindows.of(Duration.ofMillis(100)))
                    .trigger(CountTrigger.of(2))
                    .<String>process((key, ctx, elements, out) -> {
                        int n = 0;
                        for (Ev e : elements) {
                            n++;
                        }
                        if (ctx.windowState().get("n") == null && n > 2) {
                            ctx.windowState().put("n", (long) n);
                        }
                    })
                    .results((k, w, r, ts) -> { });
            return engine;
        };
        CepEngine<Ev> first = engines.get();
        Producer<Ev> in = first.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(first);
        in.send(new Ev(1, 1, 1));
        in.send(new Ev(1, 2, 2)); // fires: the function reads its state, which makes the window's store
        h.runUntilIdle();
        byte[] bytes = ROUND_TRIP.snapshot(h);
        CepEngine<Ev> restored = engines.get();
        Producer<Ev> again = restored.newProducer();
        CepTestHarness<Ev> h2 = ROUND_TRIP.restore(restored, bytes);
        again.send(new Ev(1, 3, 3));
        again.send(new Ev(1, 4, 4)); // fires with four elements: the function stores a value
        RuntimeException e = assertThrows(RuntimeException.class, h2::runUntilIdle);
        StringBuilder messages = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append(" | ");
        }
        assertTrue(messages.toString().contains("stateCodec(codec)"), messages.toString());
    }

    /** Retraction needs the last results kept: refused where they are not elements. */
    @Test
    void retractionOfNonElementResultsIsRefused() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).snapshots(EVENTS, KEYS).build();
        WindowedStream<Ev> w = engine.keyBy(Ev::key).window(TumblingEventTimeWindows.of(Duration.ofMillis(5)))
                .trigger(CountTrigger.of(2)).accumulationMode(AccumulationMode.ACCUMULATING_AND_RETRACTING);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> w.aggregate(new WindowSnapshotTest.TenthSum(), WindowSnapshotTest.SUMS));
        assertTrue(e.getMessage().contains("unless its results are elements"), e.getMessage());
    }

    /** A snapshot holding a trigger state restores only into a trigger that lists a state of that name. */
    @Test
    void aTriggerStateMustBeFoundByNameOnRestore() {
        Shape shape = new Shape(2, Function.REDUCE, AccumulationMode.ACCUMULATING, 0, 1);
        CepEngine<Ev> engine = engine(shape, new ArrayList<>(), new ArrayList<>());
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev(1, 5, 1));
        h.runUntilIdle();
        byte[] bytes = ROUND_TRIP.snapshot(h);
        CepEngine<Ev> other = CepEngine.<Ev>builder().shards(1).snapshots(EVENTS, KEYS).build();
        TriggerState<Long> renamed = TriggerState.of("total", Long::sum, TriggerCodecs.LONG);
        other.keyBy(Ev::key).window(EventTimeSessionWindows.withGap(Duration.ofMillis(4))).trigger(new SumTrigger() {
            @Override
            public List<TriggerState<?>> states() {
                return List.of(renamed);
            }
        }).reduce((a, b) -> a).results((k, w, r, ts) -> { });
        other.newProducer();
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> ROUND_TRIP.restore(other, bytes));
        assertTrue(e.getCause().getMessage().contains("trigger state 'sum'"), e.getCause().getMessage());
    }
}
