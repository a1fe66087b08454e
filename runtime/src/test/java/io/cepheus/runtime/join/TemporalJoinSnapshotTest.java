package io.cepheus.runtime.join;

import static io.cepheus.runtime.join.IntervalJoinSnapshotTest.EVENTS;
import static io.cepheus.runtime.join.IntervalJoinSnapshotTest.KEYS;
import static io.cepheus.runtime.join.IntervalJoinSnapshotTest.cast;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.testing.PropertySeeds;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.ShardMetrics;
import io.cepheus.runtime.SnapshotRoundTrip;
import io.cepheus.runtime.join.IntervalJoinSnapshotTest.Ev;
import io.cepheus.runtime.join.IntervalJoinSnapshotTest.Order;
import io.cepheus.runtime.join.IntervalJoinSnapshotTest.Payment;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Snapshots of temporal joins: run a random input, snapshot at a random cut, restore into a fresh engine, continue:
 * joined and unmatched elements and late elements and versions must be exactly those of an uninterrupted run, in
 * the same order (equal-time versions keep their arrival order, so the last one still wins).
 */
class TemporalJoinSnapshotTest {

    private static final long SEED = PropertySeeds.seed(0x7E3A5L);

    /** The join a number picks: missing versions join null or go unmatched, one or two shards, sides by function. */
    record Shape(boolean missingAsNull, int shards, boolean byFunction) {
        static Shape of(int n) {
            return new Shape(n % 2 == 1, 1 + (n / 2) % 2, (n / 4) % 2 == 1);
        }

        static final int SHAPES = 8;
    }

    private static CepEngine<Ev> engine(Shape shape, List<String> out) {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(shape.shards()).clock(new ManualClock(0))
                .snapshots(EVENTS, KEYS).flushOnClose(false)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
        TemporalJoin<Ev, Order, Payment> join;
        if (shape.byFunction()) {
            // sides selected by functions: the elements need codecs of their own
            join = engine.keyBy(Ev::key).temporalJoin(e -> e instanceof Order o ? o : null,
                    e -> e instanceof Payment p ? p : null);
            join.snapshotCodecs(cast(EVENTS), cast(EVENTS));
        } else {
            join = engine.keyBy(Ev::key).temporalJoin(Order.class, Payment.class);
        }
        if (shape.missingAsNull()) {
            join.missingVersionJoinsNull();
        }
        join.<String>apply((o, p) -> "o" + o.n() + " " + (p == null ? "-" : "p" + p.n()))
                .results((key, line, ts) -> out.add(key + " " + line + " @" + ts))
                .unmatched((key, o, ts, closedAt) -> out.add("unmatched " + o + " closed " + closedAt))
                .lateElements((key, o, ts) -> out.add("late " + o))
                .lateVersions((key, p, ts) -> out.add("late " + p));
        return engine;
    }

    private static final SnapshotRoundTrip<Ev> ROUND_TRIP = new SnapshotRoundTrip<>(EVENTS, KEYS);

    @Test
    void restoringAtAnyCutGivesTheUninterruptedJoin() {
        SnapshotRoundTrip.forRandomCuts(SEED, "TemporalJoinSnapshotTest", 500, Shape.SHAPES,
                (script, cut, shape) -> check(script, cut, Shape.of(shape)));
    }

    /** Many keys, each holding waiting orders and several versions, cut at several points. */
    @Test
    void restoredKeysJoinAsTheUninterruptedOnes() {
        List<Integer> script = SnapshotRoundTrip.steadyScript(300, 29, 9, 5);
        for (int cut : new int[] {17, 120, 199, 301}) {
            for (int shape = 0; shape < Shape.SHAPES; shape++) {
                check(script, cut, Shape.of(shape));
            }
        }
    }

    private static void check(List<Integer> script, int cut, Shape shape) {
        SnapshotRoundTrip.Outcome<Ev> run = ROUND_TRIP.run(out -> engine(shape, out),
                () -> IntervalJoinSnapshotTest.feed(script), script.size(), cut);
        assertEquals(run.expected(), run.actual(), shape + ": script " + script + " cut at " + cut);
        CepEngine<Ev> whole = run.whole();
        CepEngine<Ev> second = run.restored();
        assertEquals(whole.metrics().total(ShardMetrics::lateEvents), second.metrics().total(ShardMetrics::lateEvents),
                "counters carry over");
        // a key keeps its latest version (the table's current row) as long as the engine runs
        assertEquals(whole.metrics().total(ShardMetrics::keys), second.metrics().total(ShardMetrics::keys),
                "the same keys held at the end");
        assertEquals(whole.metrics().total(ShardMetrics::bufferedEvents),
                second.metrics().total(ShardMetrics::bufferedEvents), "the same versions held at the end");
    }

    /** Sides selected by functions have no codec by default: an engine with snapshots says what to give. */
    @Test
    void sidesSelectedByFunctionsNeedCodecs() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).snapshots(EVENTS, KEYS).build();
        TemporalJoin<Ev, Order, Payment> join = engine.keyBy(Ev::key).temporalJoin(
                e -> e instanceof Order o ? o : null, e -> e instanceof Payment p ? p : null);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> join.<String>apply((o, p) -> ""));
        assertTrue(e.getMessage().contains("snapshotCodecs(stream, versions)"), e.getMessage());
    }
}
