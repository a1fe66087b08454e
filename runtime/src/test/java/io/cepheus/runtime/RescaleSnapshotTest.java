package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.EventCodec;
import io.cepheus.nfa.RecordCodec;
import io.cepheus.nfa.testing.PropertySeeds;
import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.WithinType;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Rescaling: a snapshot of an engine with 2 shards restores into an engine with 1, 3 or 4, whose routing puts each
 * key on a shard of its own choosing, and the engine goes on as if nothing had happened. Results of different keys
 * at the same time may come out in another order on another number of shards (they do between uninterrupted runs
 * too), so outputs are compared key by key, in order within each key; the engine's totals carry over.
 */
class RescaleSnapshotTest {

    private static final long SEED = PropertySeeds.seed(0x5CA1EL);
    private static final int[] NEW_SHARDS = {1, 3, 4};

    record Ev(int key, char kind, long ts) {
    }

    static final EventCodec<Ev> EVENTS = RecordCodec.<Ev>builder().int32(Ev::key).int32(Ev::kind).int64(Ev::ts)
            .build(f -> new Ev(f.int32(), (char) f.int32(), f.int64()));
    static final EventCodec<Object> KEYS = SnapshotRoundTrip.INT_KEYS;
    private static final SnapshotRoundTrip<Ev> ROUND_TRIP = new SnapshotRoundTrip<>(EVENTS, KEYS);

    /** Patterns with windows, gaps, loops, a skip strategy, a trailing NOT, timeouts and late events. */
    static CepEngine<Ev> patterns(int shards, List<String> out) {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(shards).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts()))
                .snapshots(EVENTS, KEYS).build();
        KeyedStream<Ev> keyed = engine.keyBy(Ev::key);
        keyed.pattern(Pattern.<Ev>begin("a").where(e -> e.kind() == 'a').followedBy("b").where(e -> e.kind() == 'b')
                        .oneOrMore().followedBy("c").where(e -> e.kind() == 'c').within(Duration.ofMillis(40)))
                .select((k, m, ts) -> out.add(k + " P0 " + m + " @" + ts))
                .timeouts((k, m, ts) -> out.add(k + " T0 " + m + " @" + ts))
                .lateEvents((k, e, ts) -> out.add(k + " L0 " + e));
        keyed.pattern(Pattern.<Ev>begin("x", AfterMatchSkipStrategy.skipPastLastEvent()).where(e -> e.kind() == 'b')
                        .next("y").where(e -> e.kind() == 'b').within(Duration.ofMillis(9), WithinType.PREVIOUS_AND_CURRENT)
                        .followedBy("z").where(e -> e.kind() == 'c').within(Duration.ofMillis(30)))
                .select((k, m, ts) -> out.add(k + " P1 " + m + " @" + ts))
                .timeouts((k, m, ts) -> out.add(k + " T1 " + m + " @" + ts));
        keyed.pattern(Pattern.<Ev>begin("n").where(e -> e.kind() == 'a').notFollowedBy("not").where(e -> e.kind() == 'c')
                        .within(Duration.ofMillis(15)))
                .select((k, m, ts) -> out.add(k + " P2 " + m + " @" + ts));
        return engine;
    }

    /** The event of a script step: seven keys, so that 2, 3 and 4 shards each split and merge them differently. */
    private static Ev event(int step, int value, long ts) {
        return new Ev(value % 7, "abcb".charAt(value % 4), ts);
    }

    @Test
    void aSnapshotOfTwoShardsRestoresIntoOneThreeOrFourAtAnyCut() {
        SnapshotRoundTrip.forRandomCuts(SEED, "RescaleSnapshotTest", 300, NEW_SHARDS.length,
                (script, cut, shape) -> check(script, cut, NEW_SHARDS[shape], RescaleSnapshotTest::patterns));
    }

    @Test
    void aLongInputWithStateOnEveryShardRestoresIntoEveryCount() {
        List<Integer> script = SnapshotRoundTrip.steadyScript(400, 37, 5, 3);
        for (int cut : new int[] {1, 97, 211, 300, 479}) {
            for (int shards : NEW_SHARDS) {
                check(script, cut, shards, RescaleSnapshotTest::patterns);
            }
        }
    }

    /** A rule set of two rules; with {@code changed}, a third one put while the engine ran. */
    private static final class RuleRig {
        final CepEngine<Ev> engine;
        final io.cepheus.runtime.rules.RuleStream<Ev> rules;
        final Producer<Ev> in;
        CepTestHarness<Ev> h;

        RuleRig(int shards, List<String> out, boolean changed) {
            engine = CepEngine.<Ev>builder().shards(shards).clock(new ManualClock(0))
                    .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts()))
                    .snapshots(EVENTS, KEYS).build();
            rules = engine.keyBy(Ev::key).rules()
                    .select((rule, k, m, ts) -> out.add(k + " R " + rule + " " + m + " @" + ts))
                    .timeouts((rule, k, m, ts) -> out.add(k + " RT " + rule + " " + m + " @" + ts))
                    .lateEvents((k, e, ts) -> out.add(k + " RL " + e));
            rules.put("r1", 1, firstRule());
            rules.put("r2", 1, Pattern.<Ev>begin("x").where(e -> e.kind() == 'b').next("y").where(e -> e.kind() == 'c'));
            if (changed) {
                rules.put("r3", 1, firstRule());
            }
            in = engine.newProducer();
        }

        static Pattern<Ev> firstRule() {
            return Pattern.<Ev>begin("a").where(e -> e.kind() == 'a').followedBy("b").where(e -> e.kind() == 'b')
                    .within(Duration.ofMillis(30));
        }

        /** Puts the third rule: it sees only events sent after it, even those that arrive in time order before. */
        void change() {
            java.util.concurrent.CompletableFuture<?> done = rules.put("r3", 1, firstRule());
            h.runUntilIdle();
            done.join();
        }

        /** Steps {@code from} to {@code to - 1} of the script, changing the rule before step {@code changeAt}. */
        void steps(SnapshotRoundTrip.Feed<Ev> feed, int from, int to, int changeAt) {
            if (changeAt >= from && changeAt < to) {
                feed.steps(in, h, from, changeAt);
                change();
                feed.steps(in, h, changeAt, to);
            } else {
                feed.steps(in, h, from, to);
            }
        }
    }

    @Test
    void aRuleSetRestoresIntoAnotherNumberOfShardsWithEachVersionSeeingWhatItSaw() {
        // a version put while events wait for the watermark sees only those sent after it: the restore renumbers the
        // waiting events of both old shards so that every version still sees exactly those
        SnapshotRoundTrip.forRandomCuts(SEED + 1, "RescaleSnapshotTest", 300, NEW_SHARDS.length,
                (script, cut, shape) -> {
                    int changeAt = script.isEmpty() ? 0 : (script.hashCode() & 0x7fff_ffff) % (script.size() + 1);
                    checkRules(script, cut, changeAt, NEW_SHARDS[shape]);
                });
    }

    private static void checkRules(List<Integer> script, int cut, int changeAt, int shards) {
        List<String> expected = new ArrayList<>();
        RuleRig whole = new RuleRig(2, expected, false);
        whole.h = CepTestHarness.start(whole.engine);
        SnapshotRoundTrip.Feed<Ev> uninterrupted = SnapshotRoundTrip.script(script, RescaleSnapshotTest::event);
        whole.steps(uninterrupted, 0, script.size(), changeAt);
        uninterrupted.finish(whole.in, whole.h);

        List<String> actual = new ArrayList<>();
        RuleRig first = new RuleRig(2, actual, false);
        first.h = CepTestHarness.start(first.engine);
        SnapshotRoundTrip.Feed<Ev> interrupted = SnapshotRoundTrip.script(script, RescaleSnapshotTest::event);
        first.steps(interrupted, 0, cut, changeAt);
        byte[] bytes = ROUND_TRIP.snapshot(first.h);
        RuleRig restored = new RuleRig(shards, actual, changeAt < cut);
        restored.h = ROUND_TRIP.restore(restored.engine, bytes);
        assertEquals(List.of(), restored.rules.restored().dropped(), "every version was kept");
        restored.steps(interrupted, cut, script.size(), changeAt);
        interrupted.finish(restored.in, restored.h);
        assertEquals(byKey(expected), byKey(actual), "rules: 2 shards cut at " + cut + ", r3 put before step "
                + changeAt + ", restored into " + shards + ", script " + script);
    }

    /** The counters a snapshot carries: those counted since the engine started (per stage) left out. */
    private static List<Long> carried(PatternMetrics m) {
        return List.of(m.matches(), m.timeouts(), m.partialMatches(), m.rejectedPartialMatches(), m.lateEvents(),
                m.deadLetters());
    }

    @Test
    void theTotalsCarryOverToTheRestoredEngine() {
        List<Integer> script = SnapshotRoundTrip.steadyScript(200, 37, 5, 3);
        for (int shards : NEW_SHARDS) {
            Runs runs = runs(script, 150, shards, RescaleSnapshotTest::patterns);
            EngineMetrics whole = runs.whole.metrics();
            EngineMetrics restored = runs.restored.metrics();
            assertEquals(shards, restored.shards().size());
            for (int pattern = 0; pattern < 3; pattern++) {
                assertEquals(carried(whole.pattern(pattern)), carried(restored.pattern(pattern)),
                        "pattern " + pattern + " on " + shards);
            }
            assertEquals(whole.total(ShardMetrics::events), restored.total(ShardMetrics::events));
            assertEquals(whole.total(ShardMetrics::lateEvents), restored.total(ShardMetrics::lateEvents));
        }
    }

    @Test
    void shardsAtDifferentWatermarksAreRefusedForAnotherCount() {
        // keys of a shard behind the others could not join keys already advanced past their buffered events
        List<String> out = new ArrayList<>();
        CepEngine<Ev> engine = patterns(2, out);
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        for (int i = 0; i < 30; i++) {
            in.send(new Ev(i % 7, 'a', 10 + i));
        }
        in.watermark(20);
        h.runUntilIdle();
        byte[] bytes = patchSecondShardsWatermark(ROUND_TRIP.snapshot(h), 19);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> CepTestHarness.restore(withProducer(patterns(3, new ArrayList<>())), bytes));
        assertTrue(e.getMessage().contains("different watermarks (shard 0 at 20, shard 1 at 19)"), e.getMessage());
    }

    @Test
    void aShardCountTheBytesCannotHoldIsRefusedBeforeAnythingIsSizedByIt() {
        // found by the fault suite: an intact-looking snapshot (checksum recomputed) announcing two billion shards
        // made a restore into another number of shards allocate arrays of that length
        CepEngine<Ev> engine = patterns(2, new ArrayList<>());
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev(1, 'a', 10));
        h.runUntilIdle();
        byte[] bytes = ROUND_TRIP.snapshot(h);
        java.nio.ByteBuffer.wrap(bytes).putInt(16, Integer.MAX_VALUE); // the body's first int: the shard count
        byte[] damaged = SnapshotRoundTrip.withChecksum(bytes);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> CepTestHarness.restore(withProducer(patterns(3, new ArrayList<>())), damaged));
        assertTrue(e.getMessage().contains("announces 2147483647 shards, more than its"), e.getMessage());
    }

    private static CepEngine<Ev> withProducer(CepEngine<Ev> engine) {
        engine.newProducer();
        return engine;
    }

    /** The snapshot with shard 1's watermark (the first long of its part) set to {@code watermark}, re-checksummed. */
    private static byte[] patchSecondShardsWatermark(byte[] snapshot, long watermark) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(snapshot);
        int at = 16; // header
        at += 4; // shards
        int operators = b.getInt(at);
        at += 4;
        for (int i = 0; i < operators; i++) {
            at += 2 + (b.getShort(at) & 0xFFFF); // a UTF description
        }
        int first = b.getInt(at);
        at += 4 + first;
        b.putLong(at + 4, watermark);
        return SnapshotRoundTrip.withChecksum(snapshot);
    }

    /** The two runs: uninterrupted on 2 shards, and cut, snapshotted on 2 and continued on {@code shards}. */
    record Runs(List<String> expected, List<String> actual, CepEngine<Ev> whole, CepEngine<Ev> restored) {
    }

    private static Runs runs(List<Integer> script, int cut, int shards,
            java.util.function.BiFunction<Integer, List<String>, CepEngine<Ev>> engine) {
        List<String> expected = new ArrayList<>();
        CepEngine<Ev> whole = engine.apply(2, expected);
        Producer<Ev> in = whole.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(whole);
        SnapshotRoundTrip.Feed<Ev> uninterrupted = SnapshotRoundTrip.script(script, RescaleSnapshotTest::event);
        uninterrupted.steps(in, h, 0, script.size());
        uninterrupted.finish(in, h);

        List<String> actual = new ArrayList<>();
        CepEngine<Ev> first = engine.apply(2, actual);
        Producer<Ev> in1 = first.newProducer();
        CepTestHarness<Ev> h1 = CepTestHarness.start(first);
        SnapshotRoundTrip.Feed<Ev> interrupted = SnapshotRoundTrip.script(script, RescaleSnapshotTest::event);
        interrupted.steps(in1, h1, 0, cut);
        byte[] bytes = ROUND_TRIP.snapshot(h1);
        CepEngine<Ev> restored = engine.apply(shards, actual);
        Producer<Ev> in2 = restored.newProducer();
        CepTestHarness<Ev> h2 = ROUND_TRIP.restore(restored, bytes);
        interrupted.steps(in2, h2, cut, script.size());
        interrupted.finish(in2, h2);
        return new Runs(expected, actual, whole, restored);
    }

    static void check(List<Integer> script, int cut, int shards,
            java.util.function.BiFunction<Integer, List<String>, CepEngine<Ev>> engine) {
        Runs runs = runs(script, cut, shards, engine);
        assertEquals(byKey(runs.expected), byKey(runs.actual),
                "2 shards cut at " + cut + " and restored into " + shards + ", script " + script);
    }

    /** Each output under the key it starts with, in order. */
    static Map<String, List<String>> byKey(List<String> out) {
        Map<String, List<String>> byKey = new TreeMap<>();
        for (String line : out) {
            byKey.computeIfAbsent(line.substring(0, line.indexOf(' ')), k -> new ArrayList<>()).add(line);
        }
        return byKey;
    }
}
