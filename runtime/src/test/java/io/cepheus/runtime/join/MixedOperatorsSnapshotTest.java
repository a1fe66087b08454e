package io.cepheus.runtime.join;

import static io.cepheus.runtime.join.IntervalJoinSnapshotTest.EVENTS;
import static io.cepheus.runtime.join.IntervalJoinSnapshotTest.KEYS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.nfa.testing.PropertySeeds;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.KeyedStream;
import io.cepheus.runtime.ShardMetrics;
import io.cepheus.runtime.SnapshotRoundTrip;
import io.cepheus.runtime.join.IntervalJoinSnapshotTest.Ev;
import io.cepheus.runtime.join.IntervalJoinSnapshotTest.Order;
import io.cepheus.runtime.join.IntervalJoinSnapshotTest.Payment;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import io.cepheus.runtime.window.ContinuousEventTimeTrigger;
import io.cepheus.runtime.window.CountEvictor;
import io.cepheus.runtime.window.EventTimeSessionWindows;
import io.cepheus.runtime.window.SlidingEventTimeWindows;
import io.cepheus.runtime.window.TumblingEventTimeWindows;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One engine with every kind of operator that takes part in snapshots, on the same keyed stream: a pattern,
 * sliding windows, sessions, a window with a continuous trigger and an evictor, a window join, an interval join and
 * a temporal join. They share each shard's key dictionary, and the
 * shard keeps a key while any of them holds it. Run, snapshot at a random cut, restore, continue: the outputs of
 * all of them, interleaved as they come, must be those of an uninterrupted run.
 */
class MixedOperatorsSnapshotTest {

    private static final long SEED = PropertySeeds.seed(0x3A11EDL);
    private static final SnapshotRoundTrip<Ev> ROUND_TRIP = new SnapshotRoundTrip<>(EVENTS, KEYS);

    private static CepEngine<Ev> engine(int shards, List<String> out) {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(shards).clock(new ManualClock(0))
                .snapshots(EVENTS, KEYS).flushOnClose(false)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
        KeyedStream<Ev> keyed = engine.keyBy(Ev::key);
        keyed.pattern(Pattern.<Ev>begin("order").where(e -> e instanceof Order).followedBy("paid")
                        .where(e -> e instanceof Payment).within(Duration.ofMillis(6)))
                .select((k, m, ts) -> out.add("match " + k + " " + m + " @" + ts))
                .timeouts((k, m, ts) -> out.add("timeout " + k + " " + m + " @" + ts));
        keyed.window(SlidingEventTimeWindows.of(Duration.ofMillis(6), Duration.ofMillis(2)))
                .allowedLateness(Duration.ofMillis(3))
                .reduce((a, b) -> a instanceof Order o ? new Order(o.key(), o.n() * 3 + n(b), o.ts()) : b)
                .results((k, w, r, ts) -> out.add("slide " + k + " " + w + " " + r + " @" + ts));
        keyed.window(EventTimeSessionWindows.withGap(Duration.ofMillis(4)))
                .reduce((a, b) -> a instanceof Order o ? new Order(o.key(), o.n() * 3 + n(b), o.ts()) : b)
                .results((k, w, r, ts) -> out.add("session " + k + " " + w + " " + r + " @" + ts));
        // the general window operator: a trigger with state and timers, an evictor, a window join; their timers
        // share the shard's timer service with the pattern's and the other windows'
        keyed.window(TumblingEventTimeWindows.of(Duration.ofMillis(7)))
                .trigger(ContinuousEventTimeTrigger.of(Duration.ofMillis(2))).evictor(CountEvictor.of(3))
                .reduce((a, b) -> a instanceof Order o ? new Order(o.key(), o.n() * 3 + n(b), o.ts()) : b)
                .results((k, w, r, ts) -> out.add("continuous " + k + " " + w + " " + r + " @" + ts));
        keyed.join(Order.class, Payment.class).window(TumblingEventTimeWindows.of(Duration.ofMillis(5)))
                .apply((Order o, Payment p) -> "o" + o.n() + " p" + p.n())
                .results((k, w, line, ts) -> out.add("window join " + k + " " + w + " " + line + " @" + ts));
        keyed.intervalJoin(Order.class, Payment.class).between(Duration.ofMillis(-2), Duration.ofMillis(5))
                .leftOuter()
                .<String>process((o, p, ctx, c) -> c.collect("o" + o.n() + " " + (p == null ? "-" : "p" + p.n())))
                .results((k, line, ts) -> out.add("interval " + k + " " + line + " @" + ts));
        keyed.temporalJoin(Order.class, Payment.class)
                .<String>apply((o, p) -> "o" + o.n() + " " + (p == null ? "-" : "p" + p.n()))
                .results((k, line, ts) -> out.add("temporal " + k + " " + line + " @" + ts))
                .unmatched((k, o, ts, closedAt) -> out.add("temporal unmatched " + k + " " + o));
        return engine;
    }

    private static int n(Ev e) {
        return e instanceof Order o ? o.n() : ((Payment) e).n();
    }

    @Test
    void restoringAtAnyCutGivesTheUninterruptedOutputsOfEveryOperator() {
        SnapshotRoundTrip.forRandomCuts(SEED, "MixedOperatorsSnapshotTest", 300, 2, (script, cut, shape) -> {
            int shards = shape + 1;
            SnapshotRoundTrip.Outcome<Ev> run = ROUND_TRIP.run(out -> engine(shards, out),
                    () -> IntervalJoinSnapshotTest.feed(script), script.size(), cut);
            assertEquals(run.expected(), run.actual(), shards + " shards: script " + script + " cut at " + cut);
            assertEquals(run.whole().metrics().total(ShardMetrics::keys),
                    run.restored().metrics().total(ShardMetrics::keys), "the same keys held at the end");
        });
    }
}
