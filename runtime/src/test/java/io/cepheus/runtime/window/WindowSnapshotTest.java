package io.cepheus.runtime.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.EventCodec;
import io.cepheus.nfa.testing.PropertySeeds;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.EngineMetrics;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.ShardMetrics;
import io.cepheus.runtime.SnapshotRoundTrip;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Snapshots of windows: tumbling and sliding event-time windows (the slice operator) and event-time sessions (the
 * session operator). Run a random input, snapshot at a random cut, restore into a fresh engine, continue: the
 * results, retractions and late elements must be exactly those of an uninterrupted run, in the same order. The
 * functions are chosen so that a restore that regrouped what it combines would show: a reduce that is not
 * associative, and a floating-point sum, whose last bits depend on the grouping.
 */
class WindowSnapshotTest {

    private static final long SEED = PropertySeeds.seed(0x511CE5L);

    record Ev(int key, long value, long ts) {
    }

    static final EventCodec<Ev> EVENTS = new EventCodec<>() {
        @Override
        public void write(Ev e, DataOutput out) throws IOException {
            out.writeInt(e.key());
            out.writeLong(e.value());
            out.writeLong(e.ts());
        }

        @Override
        public Ev read(DataInput in) throws IOException {
            return new Ev(in.readInt(), in.readLong(), in.readLong());
        }
    };

    static final EventCodec<Object> KEYS = SnapshotRoundTrip.INT_KEYS;

    /** A tenth of each value, summed in doubles: the sum's last bits depend on how the slices were grouped. */
    static final class TenthSum implements AggregateFunction<Ev, double[], String> {
        @Override
        public double[] createAccumulator() {
            return new double[1];
        }

        @Override
        public double[] add(Ev e, double[] acc) {
            acc[0] += e.value() * 0.1;
            return acc;
        }

        @Override
        public String getResult(double[] acc) {
            return Double.toString(acc[0]);
        }

        @Override
        public double[] merge(double[] a, double[] b) {
            a[0] += b[0];
            return a;
        }
    }

    static final EventCodec<double[]> SUMS = new EventCodec<>() {
        @Override
        public void write(double[] acc, DataOutput out) throws IOException {
            out.writeDouble(acc[0]);
        }

        @Override
        public double[] read(DataInput in) throws IOException {
            return new double[] {in.readDouble()};
        }
    };

    /**
     * The window configuration a number picks: below {@link #SLICE_SHAPES}, tumbling or sliding (slices shorter
     * than the slide when the slide does not divide the size), an offset, allowed lateness or none, a reduce or an
     * aggregate, one or two shards; from there on, sessions with a static or a dynamic gap, allowed lateness or
     * none, a reduce or an aggregate, an accumulation mode (retracting with a reduce only: an aggregate's last
     * results have no codec), one or two shards.
     *
     * @param gap sessions' gap: 0 for tumbling or sliding windows, -1 for a dynamic gap from each element
     */
    record Shape(long size, long slide, long offset, long lateness, boolean aggregate, int shards, long gap,
            AccumulationMode mode) {

        Shape(long size, long slide, long offset, long lateness, boolean aggregate, int shards) {
            this(size, slide, offset, lateness, aggregate, shards, 0, AccumulationMode.ACCUMULATING);
        }

        static final int SLICE_SHAPES = 192;
        static final int SHAPES = SLICE_SHAPES + 72;

        static Shape of(int n) {
            if (n >= SLICE_SHAPES) {
                return sessions(n - SLICE_SHAPES);
            }
            long[][] sizes = {{4, 4}, {6, 6}, {6, 2}, {9, 3}, {10, 4}, {9, 6}};
            long[] s = sizes[n % sizes.length];
            n /= sizes.length;
            long offset = n % 2;
            n /= 2;
            long lateness = (n % 2) * 5;
            n /= 2;
            boolean aggregate = n % 2 == 1;
            n /= 2;
            return new Shape(s[0], s[1], offset, lateness, aggregate, 1 + n % 2);
        }

        static Shape sessions(int n) {
            long gap = new long[] {3, 6, -1}[n % 3];
            n /= 3;
            long lateness = (n % 2) * 5;
            n /= 2;
            boolean aggregate = n % 2 == 1;
            n /= 2;
            AccumulationMode mode = AccumulationMode.values()[n % 3];
            n /= 3;
            if (aggregate && mode == AccumulationMode.ACCUMULATING_AND_RETRACTING) {
                mode = AccumulationMode.ACCUMULATING;
            }
            return new Shape(0, 0, 0, lateness, aggregate, 1 + n % 2, gap, mode);
        }

        WindowAssigner<Ev> assigner() {
            if (gap > 0) {
                return EventTimeSessionWindows.withGap(Duration.ofMillis(gap));
            }
            if (gap < 0) {
                return EventTimeSessionWindows.withDynamicGap(e -> 2 + e.value() % 5);
            }
            return size == slide
                    ? TumblingEventTimeWindows.of(Duration.ofMillis(size), Duration.ofMillis(offset))
                    : SlidingEventTimeWindows.of(Duration.ofMillis(size), Duration.ofMillis(slide),
                            Duration.ofMillis(offset));
        }
    }

    private static CepEngine<Ev> engine(Shape shape, List<String> out) {
        return engine(shape, out, new WindowResults<?>[1]);
    }

    private static CepEngine<Ev> engine(Shape shape, List<String> out, WindowResults<?>[] registered) {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(shape.shards()).clock(new ManualClock(0))
                .snapshots(EVENTS, KEYS).flushOnClose(false)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
        WindowedStream<Ev> windows = engine.keyBy(Ev::key).window(shape.assigner())
                .allowedLateness(Duration.ofMillis(shape.lateness())).accumulationMode(shape.mode())
                .sideOutputLateData((k, e, ts) -> out.add("late " + k + " " + e));
        if (shape.aggregate()) {
            WindowResults<String> results = windows.aggregate(new TenthSum(), SUMS);
            results.results((k, w, r, ts) -> out.add(k + " " + w + " " + r + " @" + ts));
            results.retractions((k, w, r, ts) -> out.add("retract " + k + " " + w + " " + r + " @" + ts));
            registered[0] = results;
        } else {
            // not associative: a regrouping of the slices changes the value
            WindowResults<Ev> results = windows.reduce((a, b) -> new Ev(a.key(),
                    (a.value() * 3 + b.value()) % 1_000_003, a.ts()));
            results.results((k, w, r, ts) -> out.add(k + " " + w + " " + r.value() + " @" + ts));
            results.retractions((k, w, r, ts) -> out.add("retract " + k + " " + w + " " + r.value() + " @" + ts));
            registered[0] = results;
        }
        return engine;
    }

    private static final SnapshotRoundTrip<Ev> ROUND_TRIP = new SnapshotRoundTrip<>(EVENTS, KEYS);

    /** The script's events: key {@code value % 3}, value {@code value + 1}. */
    private static SnapshotRoundTrip.Feed<Ev> feed(List<Integer> script) {
        return SnapshotRoundTrip.script(script, (i, v, ts) -> new Ev(v % 3, v + 1, ts));
    }

    @Test
    void restoringAtAnyCutGivesTheUninterruptedResults() {
        SnapshotRoundTrip.forRandomCuts(SEED, "WindowSnapshotTest", 600, Shape.SHAPES,
                (script, cut, shape) -> check(script, cut, Shape.of(shape)));
    }

    /**
     * Many keys, each with a full window of slices, cut while every key's queue of slices is part front (suffixes),
     * part back: the restored keys must fire from those suffixes, not from slices combined anew.
     */
    @Test
    void restoringInTheMiddleOfSlidingWindowsKeepsTheirGrouping() {
        List<Integer> script = SnapshotRoundTrip.steadyScript(400, 37, 5, 3);
        for (int cut : new int[] {1, 97, 211, 300, 479}) {
            check(script, cut, new Shape(10, 4, 1, 0, true, 2));
            check(script, cut, new Shape(9, 3, 0, 5, false, 1));
            check(script, cut, new Shape(9, 3, 0, 5, true, 1));
        }
    }

    /**
     * Every session configuration, cut where keys hold several sessions at once (elements behind the others open
     * earlier ones) and sessions have fired and wait for their allowed lateness.
     */
    @Test
    void restoringSessionsKeepsEverySessionAndWhatItEmitted() {
        List<Integer> script = SnapshotRoundTrip.steadyScript(300, 41, 6, 4);
        for (int n = 0; n < Shape.SHAPES - Shape.SLICE_SHAPES; n++) {
            for (int cut : new int[] {113, 251}) {
                check(script, cut, Shape.sessions(n));
            }
        }
    }

    private static void check(List<Integer> script, int cut, Shape shape) {
        List<WindowResults<?>> made = new ArrayList<>(); // of the uninterrupted, first and restored engines
        SnapshotRoundTrip.Outcome<Ev> run = ROUND_TRIP.run(out -> {
            WindowResults<?>[] registered = new WindowResults<?>[1];
            CepEngine<Ev> engine = engine(shape, out, registered);
            made.add(registered[0]);
            return engine;
        }, () -> feed(script), script.size(), cut);
        assertEquals(run.expected(), run.actual(), shape + ": script " + script + " cut at " + cut);
        EngineMetrics a = run.whole().metrics();
        EngineMetrics b = run.restored().metrics();
        assertEquals(a.total(ShardMetrics::lateEvents), b.total(ShardMetrics::lateEvents), "counters carry over");
        assertEquals(0, b.total(ShardMetrics::keys), "every key released at the end");
        assertEquals(made.get(0).metrics().firings(), made.get(2).metrics().firings(), "firings carry over");
        assertEquals(made.get(0).metrics().lateElements(), made.get(2).metrics().lateElements());
        assertEquals(0, made.get(2).metrics().accumulators(), "no slice left at the end");
    }

    /**
     * A key holds two sessions, the later one created first; after the restore an element bridges them. Merged
     * contents combine in creation order (as the general operator keeps its windows), and the reduce here is not
     * commutative, so the restored sessions must keep their creation order, not take their order in time.
     */
    @Test
    void restoredSessionsMergeInTheirCreationOrder() {
        List<String> expected = new ArrayList<>();
        runSessions(expected, -1);
        for (int cut = 0; cut <= 3; cut++) {
            List<String> actual = new ArrayList<>();
            runSessions(actual, cut);
            assertEquals(expected, actual, "cut after step " + cut);
        }
        assertEquals(List.of("0 [2,15) " + ((10 * 3 + 2) * 3 + 6) + " @14"), expected);
    }

    /** Sessions of gap 5 on one key: 10, then 2 (out of order), then 6 bridging both; a snapshot after step cut. */
    private static void runSessions(List<String> out, int cut) {
        Shape shape = new Shape(0, 0, 0, 0, false, 1, 5, AccumulationMode.ACCUMULATING);
        CepEngine<Ev> engine = engine(shape, out);
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        Ev[] steps = {new Ev(0, 10, 10), new Ev(0, 2, 2), new Ev(0, 6, 6)};
        for (int i = 0; i <= steps.length; i++) {
            if (i == cut) {
                byte[] bytes = snapshot(h);
                engine = engine(shape, out);
                in = engine.newProducer();
                h = restore(engine, bytes);
            }
            if (i < steps.length) {
                in.send(steps[i]);
                h.runUntilIdle();
            }
        }
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        h.close();
    }

    /**
     * A live snapshot (a producer's barrier, on threads the harness drives) in the middle of a batch, with many
     * keys and slices (columns of hundreds of keys in the slice table): the elements before the barrier are in the
     * snapshot, those after it in the restored engine, none twice.
     */
    @Test
    void aLiveSnapshotInTheMiddleOfABatchHoldsTheElementsBeforeTheBarrier() {
        Shape shape = new Shape(200, 10, 0, 0, true, 1);
        List<Ev> stream = new ArrayList<>();
        java.util.SplittableRandom random = new java.util.SplittableRandom(SEED);
        for (int i = 0; i < 60_000; i++) {
            stream.add(new Ev(random.nextInt(3_000), 1 + random.nextInt(50), i / 100));
        }
        int cut = 41_337; // not at a watermark: the barrier lands among a batch's elements
        List<String> expected = new ArrayList<>();
        runLive(shape, stream, -1, expected, null);
        byte[][] snapshot = new byte[1][];
        List<String> before = new ArrayList<>();
        runLive(shape, stream, cut, before, bytes -> snapshot[0] = bytes);
        assertTrue(snapshot[0] != null, "the snapshot was taken");

        assertEquals(expected.subList(0, before.size()), before, "the run up to the barrier");
        List<String> actual = new ArrayList<>(before);
        CepEngine<Ev> restored = engine(shape, actual);
        Producer<Ev> in = restored.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.restore(restored, snapshot[0]);
        feedLive(in, h, stream, cut, stream.size());
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        h.close();
        assertEquals(expected, actual);
    }

    private static void runLive(Shape shape, List<Ev> stream, int cut, List<String> out,
            java.util.function.Consumer<byte[]> snapshots) {
        CepEngine<Ev> engine = engine(shape, out);
        if (snapshots != null) {
            engine.onSnapshot(snapshots);
        }
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        if (cut < 0) {
            feedLive(in, h, stream, 0, stream.size());
            in.watermark(Long.MAX_VALUE);
        } else {
            feedLive(in, h, stream, 0, cut);
            in.checkpoint(1); // the shard runs the elements before it, then writes its state: nothing follows
        }
        h.runUntilIdle();
        h.close();
    }

    /** Sends a watermark every 1,000 elements, and runs the shards every 3,000 (several batches at a time). */
    private static void feedLive(Producer<Ev> in, CepTestHarness<Ev> h, List<Ev> stream, int from, int to) {
        for (int i = from; i < to; i++) {
            in.send(stream.get(i));
            if (i % 1000 == 999) {
                in.watermark(stream.get(i).ts() - 1);
            }
            if (i % 3000 == 2999) {
                h.runUntilIdle();
            }
        }
    }

    /** An aggregate without an accumulator codec has nothing to write its slices with: the snapshot says so. */
    @Test
    void anAggregateWithoutACodecCannotBeSnapshotted() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).clock(new ManualClock(0)).flushOnClose(false)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
        engine.keyBy(Ev::key).window(TumblingEventTimeWindows.of(Duration.ofMillis(5))).aggregate(new TenthSum())
                .results((k, w, r, ts) -> { });
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev(1, 1, 1));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> snapshot(h));
        assertTrue(e.getMessage().contains("aggregate(function, accumulatorCodec)"), e.getMessage());
    }

    /** A snapshot of one window shape does not restore into another: the engine's shape names each window. */
    @Test
    void aSnapshotOfOtherWindowsIsRefused() {
        Shape shape = new Shape(10, 4, 0, 0, false, 1);
        CepEngine<Ev> engine = engine(shape, new ArrayList<>());
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev(1, 1, 1));
        byte[] bytes = snapshot(h);
        CepEngine<Ev> other = engine(new Shape(10, 5, 0, 0, false, 1), new ArrayList<>());
        other.newProducer();
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> restore(other, bytes));
        assertTrue(e.getCause().getMessage().contains("SlidingEventTimeWindows(10, 4)"), e.getCause().getMessage());
    }

    private static byte[] snapshot(CepTestHarness<Ev> h) {
        return ROUND_TRIP.snapshot(h);
    }

    private static CepTestHarness<Ev> restore(CepEngine<Ev> engine, byte[] bytes) {
        return ROUND_TRIP.restore(engine, bytes);
    }
}
