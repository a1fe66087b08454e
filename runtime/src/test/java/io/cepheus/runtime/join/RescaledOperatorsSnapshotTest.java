package io.cepheus.runtime.join;

import static io.cepheus.runtime.join.IntervalJoinSnapshotTest.EVENTS;
import static io.cepheus.runtime.join.IntervalJoinSnapshotTest.KEYS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.nfa.testing.PropertySeeds;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.KeyedStream;
import io.cepheus.runtime.Producer;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Rescaling with every kind of operator: a pattern, sliding windows (the slice operator), sessions, a general window
 * with a continuous trigger and an evictor, a window join, an interval join and a temporal join, snapshotted on 2
 * shards and restored into 1, 3 or 4. Outputs are compared key by key, in order within each key (results of
 * different keys at one time may come out in another order on another number of shards). The window functions are
 * associative: after a rescaling restore a sliding window combines its slices in other groups.
 */
class RescaledOperatorsSnapshotTest {

    private static final long SEED = PropertySeeds.seed(0x5CA1ED0L);
    private static final int[] NEW_SHARDS = {1, 3, 4};
    private static final SnapshotRoundTrip<Ev> ROUND_TRIP = new SnapshotRoundTrip<>(EVENTS, KEYS);

    private static CepEngine<Ev> engine(int shards, List<String> out) {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(shards).clock(new ManualClock(0))
                .snapshots(EVENTS, KEYS).flushOnClose(false)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
        KeyedStream<Ev> keyed = engine.keyBy(Ev::key);
        keyed.pattern(Pattern.<Ev>begin("order").where(e -> e instanceof Order).followedBy("paid")
                        .where(e -> e instanceof Payment).within(Duration.ofMillis(6)))
                .select((k, m, ts) -> out.add(k + " match " + m + " @" + ts))
                .timeouts((k, m, ts) -> out.add(k + " timeout " + m + " @" + ts));
        keyed.window(SlidingEventTimeWindows.of(Duration.ofMillis(6), Duration.ofMillis(2)))
                .allowedLateness(Duration.ofMillis(3))
                .reduce(RescaledOperatorsSnapshotTest::sum)
                .results((k, w, r, ts) -> out.add(k + " slide " + w + " " + r + " @" + ts));
        keyed.window(EventTimeSessionWindows.withGap(Duration.ofMillis(4)))
                .reduce(RescaledOperatorsSnapshotTest::sum)
                .results((k, w, r, ts) -> out.add(k + " session " + w + " " + r + " @" + ts));
        keyed.window(TumblingEventTimeWindows.of(Duration.ofMillis(7)))
                .trigger(ContinuousEventTimeTrigger.of(Duration.ofMillis(2))).evictor(CountEvictor.of(3))
                .reduce(RescaledOperatorsSnapshotTest::sum)
                .results((k, w, r, ts) -> out.add(k + " continuous " + w + " " + r + " @" + ts));
        keyed.join(Order.class, Payment.class).window(TumblingEventTimeWindows.of(Duration.ofMillis(5)))
                .apply((Order o, Payment p) -> "o" + o.n() + " p" + p.n())
                .results((k, w, line, ts) -> out.add(k + " window-join " + w + " " + line + " @" + ts));
        keyed.intervalJoin(Order.class, Payment.class).between(Duration.ofMillis(-2), Duration.ofMillis(5))
                .leftOuter()
                .<String>process((o, p, ctx, c) -> c.collect("o" + o.n() + " " + (p == null ? "-" : "p" + p.n())))
                .results((k, line, ts) -> out.add(k + " interval " + line + " @" + ts));
        keyed.temporalJoin(Order.class, Payment.class)
                .<String>apply((o, p) -> "o" + o.n() + " " + (p == null ? "-" : "p" + p.n()))
                .results((k, line, ts) -> out.add(k + " temporal " + line + " @" + ts))
                .unmatched((k, o, ts, closedAt) -> out.add(k + " temporal-unmatched " + o));
        return engine;
    }

    /** An associative reduce: the sum of the numbers modulo a prime, at the later time. */
    private static Ev sum(Ev a, Ev b) {
        return new Order(a.key(), (int) ((n(a) + (long) n(b)) % 1_000_003), Math.max(a.ts(), b.ts()));
    }

    private static int n(Ev e) {
        return e instanceof Order o ? o.n() : ((Payment) e).n();
    }

    /** Seven keys: 2, 3 and 4 shards each split and merge them differently. */
    private static SnapshotRoundTrip.Feed<Ev> feed(List<Integer> script) {
        return SnapshotRoundTrip.script(script,
                (i, v, ts) -> v % 2 == 0 ? new Order(v % 7, i, ts) : new Payment(v % 7, i, ts));
    }

    @Test
    void everyOperatorRestoresIntoAnotherNumberOfShardsAtAnyCut() {
        SnapshotRoundTrip.forRandomCuts(SEED, "RescaledOperatorsSnapshotTest", 300, NEW_SHARDS.length,
                (script, cut, shape) -> check(script, cut, NEW_SHARDS[shape]));
    }

    @Test
    void aLongInputRestoresIntoEveryCount() {
        List<Integer> script = SnapshotRoundTrip.steadyScript(400, 37, 5, 3);
        for (int cut : new int[] {1, 97, 211, 300, 479}) {
            for (int shards : NEW_SHARDS) {
                check(script, cut, shards);
            }
        }
    }

    /**
     * A snapshot of every operator kind, one byte damaged at random under a recomputed checksum, restored into 3
     * shards: refused clearly, or restored and run to the end; never an allocation sized by a damaged count
     * ({@code -Dcepheus.seed=S}, {@code -Dcepheus.snapshot.damages=N}, default 200).
     */
    @Test
    void aDamagedSnapshotIsRefusedOrRunsToTheEndInAnotherNumberOfShards() {
        long seed = Long.getLong("cepheus.seed", 20261202L);
        int damages = Integer.getInteger("cepheus.snapshot.damages", 200);
        List<Integer> script = SnapshotRoundTrip.steadyScript(120, 37, 5, 3);
        CepEngine<Ev> first = engine(2, new ArrayList<>());
        Producer<Ev> in = first.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(first);
        feed(script).steps(in, h, 0, 90);
        byte[] snapshot = ROUND_TRIP.snapshot(h);
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        for (int i = 0; i < damages; i++) {
            byte[] damaged = snapshot.clone();
            int at = 16 + random.nextInt(damaged.length - 16);
            damaged[at] = (byte) random.nextInt(256);
            String what = "damage " + i + " (byte " + at + ", -Dcepheus.seed=" + seed + ")";
            CepEngine<Ev> fresh = engine(3, new ArrayList<>());
            Producer<Ev> in2 = fresh.newProducer();
            CepTestHarness<Ev> h2;
            try {
                h2 = CepTestHarness.restore(fresh, SnapshotRoundTrip.withChecksum(damaged));
            } catch (IllegalStateException refused) {
                org.junit.jupiter.api.Assertions.assertTrue(
                        refused.getMessage().startsWith("cannot restore the snapshot: "), what + ": " + refused);
                continue;
            } catch (OutOfMemoryError allocatedWhatACountClaimed) {
                throw new AssertionError(what + ": the restore ran out of memory", allocatedWhatACountClaimed);
            }
            org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                feed(script).steps(in2, h2, 90, script.size());
                in2.watermark(Long.MAX_VALUE);
                h2.runUntilIdle();
                h2.close();
            }, () -> what + ": the restored engine did not run to the end");
        }
    }

    private static void check(List<Integer> script, int cut, int shards) {
        List<String> expected = new ArrayList<>();
        CepEngine<Ev> whole = engine(2, expected);
        Producer<Ev> in = whole.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(whole);
        SnapshotRoundTrip.Feed<Ev> uninterrupted = feed(script);
        uninterrupted.steps(in, h, 0, script.size());
        uninterrupted.finish(in, h);

        List<String> actual = new ArrayList<>();
        CepEngine<Ev> first = engine(2, actual);
        Producer<Ev> in1 = first.newProducer();
        CepTestHarness<Ev> h1 = CepTestHarness.start(first);
        SnapshotRoundTrip.Feed<Ev> interrupted = feed(script);
        interrupted.steps(in1, h1, 0, cut);
        byte[] bytes = ROUND_TRIP.snapshot(h1);
        CepEngine<Ev> restored = engine(shards, actual);
        Producer<Ev> in2 = restored.newProducer();
        CepTestHarness<Ev> h2 = ROUND_TRIP.restore(restored, bytes);
        interrupted.steps(in2, h2, cut, script.size());
        interrupted.finish(in2, h2);
        assertEquals(byKey(expected), byKey(actual),
                "2 shards cut at " + cut + ", restored into " + shards + ": script " + script);
        assertEquals(whole.metrics().total(ShardMetrics::keys), restored.metrics().total(ShardMetrics::keys),
                "the same keys held at the end");
    }

    private static Map<String, List<String>> byKey(List<String> out) {
        Map<String, List<String>> byKey = new TreeMap<>();
        for (String line : out) {
            byKey.computeIfAbsent(line.substring(0, line.indexOf(' ')), k -> new ArrayList<>()).add(line);
        }
        return byKey;
    }
}
