package io.cepheus.runtime.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.EventCodec;
import io.cepheus.nfa.testing.PropertySeeds;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.ShardMetrics;
import io.cepheus.runtime.SnapshotRoundTrip;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Snapshots of interval joins: run a random input, snapshot at a random cut, restore into a fresh engine, continue:
 * pairs, unmatched elements of outer joins and late elements must be exactly those of an uninterrupted run, in the
 * same order (the keys pruned at one watermark report their unmatched elements in the order they would have).
 */
class IntervalJoinSnapshotTest {

    private static final long SEED = PropertySeeds.seed(0x1A7E5L);

    /** The engine's events: orders (left) and payments (right). */
    sealed interface Ev permits Order, Payment {
        int key();

        long ts();
    }

    record Order(int key, int n, long ts) implements Ev {
    }

    record Payment(int key, int n, long ts) implements Ev {
    }

    static final EventCodec<Ev> EVENTS = new EventCodec<>() {
        @Override
        public void write(Ev e, DataOutput out) throws IOException {
            out.writeBoolean(e instanceof Order);
            out.writeInt(e.key());
            out.writeInt(e instanceof Order o ? o.n() : ((Payment) e).n());
            out.writeLong(e.ts());
        }

        @Override
        public Ev read(DataInput in) throws IOException {
            boolean order = in.readBoolean();
            int key = in.readInt();
            int n = in.readInt();
            long ts = in.readLong();
            return order ? new Order(key, n, ts) : new Payment(key, n, ts);
        }
    };

    static final EventCodec<Object> KEYS = SnapshotRoundTrip.INT_KEYS;

    /** The join a number picks: bounds (some negative), exclusiveness, outer sides, one or two shards. */
    record Shape(long lower, long upper, boolean lowerExclusive, boolean leftOuter, boolean rightOuter, int shards,
            boolean byFunction) {
        static Shape of(int n) {
            long[][] bounds = {{0, 5}, {-3, 4}, {-6, -1}, {2, 9}, {0, 0}};
            long[] b = bounds[n % bounds.length];
            n /= bounds.length;
            boolean exclusive = n % 2 == 1;
            n /= 2;
            boolean leftOuter = n % 2 == 1;
            n /= 2;
            boolean rightOuter = n % 2 == 1;
            n /= 2;
            int shards = 1 + n % 2;
            n /= 2;
            return new Shape(b[0], b[1], exclusive && b[0] < b[1], leftOuter, rightOuter, shards, n % 2 == 1);
        }

        static final int SHAPES = 5 * 2 * 2 * 2 * 2 * 2;
    }

    private static CepEngine<Ev> engine(Shape shape, List<String> out) {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(shape.shards()).clock(new ManualClock(0))
                .snapshots(EVENTS, KEYS).flushOnClose(false)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
        IntervalJoin<Ev, Order, Payment> join;
        if (shape.byFunction()) {
            // sides selected by functions: the elements need codecs of their own
            join = engine.keyBy(Ev::key).intervalJoin(e -> e instanceof Order o ? o : null,
                    e -> e instanceof Payment p ? p : null);
            join.snapshotCodecs(cast(EVENTS), cast(EVENTS));
        } else {
            join = engine.keyBy(Ev::key).intervalJoin(Order.class, Payment.class);
        }
        join.between(Duration.ofMillis(shape.lower()), Duration.ofMillis(shape.upper()));
        if (shape.lowerExclusive()) {
            join.lowerBoundExclusive();
        }
        if (shape.leftOuter()) {
            join.leftOuter();
        }
        if (shape.rightOuter()) {
            join.rightOuter();
        }
        join.<String>process((o, p, ctx, c) -> c.collect((o == null ? "-" : "o" + o.n()) + " "
                        + (p == null ? "-" : "p" + p.n()) + " @" + ctx.timestamp()))
                .results((key, line, ts) -> out.add(key + " " + line))
                .lateLeft((key, o, ts) -> out.add("late " + o))
                .lateRight((key, p, ts) -> out.add("late " + p));
        return engine;
    }

    /** @return the event codec as a codec of one side's elements (which are events) */
    @SuppressWarnings("unchecked")
    static <X> EventCodec<X> cast(EventCodec<Ev> codec) {
        return (EventCodec<X>) (EventCodec<?>) codec;
    }

    private static final SnapshotRoundTrip<Ev> ROUND_TRIP = new SnapshotRoundTrip<>(EVENTS, KEYS);

    /** The script's events: an order if the value is even, else a payment, key {@code value % 3}. */
    static SnapshotRoundTrip.Feed<Ev> feed(List<Integer> script) {
        return SnapshotRoundTrip.script(script,
                (i, v, ts) -> v % 2 == 0 ? new Order(v % 3, i, ts) : new Payment(v % 3, i, ts));
    }

    @Test
    void restoringAtAnyCutGivesTheUninterruptedJoin() {
        SnapshotRoundTrip.forRandomCuts(SEED, "IntervalJoinSnapshotTest", 500, Shape.SHAPES,
                (script, cut, shape) -> check(script, cut, Shape.of(shape)));
    }

    /**
     * Many keys whose unmatched orders close at the same watermarks, cut while they wait: after the restore they
     * must be reported in the order the uninterrupted join reports them, not in key order.
     */
    @Test
    void restoredKeysReportTheirUnmatchedElementsInTheirOrder() {
        List<Integer> script = SnapshotRoundTrip.steadyScript(300, 29, 9, 5);
        for (int cut : new int[] {17, 120, 199, 301}) {
            check(script, cut, new Shape(0, 5, false, true, true, 1, false));
            check(script, cut, new Shape(-3, 4, false, true, false, 2, true));
        }
    }

    /**
     * Found with seed 14003: key 1 waits at cell 10 (its order), then at cell 0 (a payment), so its entry at 10
     * goes stale, behind which key 2 waits at 10. Pruned at cell 0, key 1 goes back to cell 10, and its stale entry
     * counts again: at the end it is pruned before key 2. A restore that wrote only the live entries put key 1
     * behind key 2, so their unmatched orders came out the other way round.
     */
    @Test
    void aStaleCalendarEntryThatCountsAgainKeepsItsPlace() {
        check(List.of(0, 0, 4, 8, 0, 1, 0, 0, 0, 0, 60), 6, new Shape(2, 9, false, true, false, 1, false));
    }

    private static void check(List<Integer> script, int cut, Shape shape) {
        SnapshotRoundTrip.Outcome<Ev> run = ROUND_TRIP.run(out -> engine(shape, out), () -> feed(script),
                script.size(), cut);
        assertEquals(run.expected(), run.actual(), shape + ": script " + script + " cut at " + cut);
        assertEquals(run.whole().metrics().total(ShardMetrics::lateEvents),
                run.restored().metrics().total(ShardMetrics::lateEvents), "counters carry over");
        assertEquals(0, run.restored().metrics().total(ShardMetrics::keys), "every key released at the end");
    }

    /** Sides selected by functions have no codec by default: an engine with snapshots says what to give. */
    @Test
    void sidesSelectedByFunctionsNeedCodecs() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).snapshots(EVENTS, KEYS).build();
        IntervalJoin<Ev, Order, Payment> join = engine.keyBy(Ev::key).intervalJoin(
                e -> e instanceof Order o ? o : null, e -> e instanceof Payment p ? p : null)
                .between(Duration.ZERO, Duration.ofMillis(5));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> join.<String>process((o, p, ctx, c) -> { }));
        assertTrue(e.getMessage().contains("snapshotCodecs(left, right)"), e.getMessage());
    }
}
