package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.EventCodec;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.nfa.OverflowPolicy;
import io.cepheus.nfa.RecordCodec;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A key at its bound on partial matches ({@code withMaxPartialMatchesPerKey}, {@code OverflowPolicy.REJECT_NEW})
 * drops the new ones, and the engine counts them: per pattern and shard in {@code engine.metrics()}, summed in
 * {@link EngineMetrics#pattern} and {@link PatternStream#metrics()}, and across a snapshot and restore.
 */
class RejectedPartialMatchesTest {

    record Ev(String key, char kind, long ts) {
    }

    private static final EventCodec<Ev> EVENTS = RecordCodec.<Ev>builder().string(Ev::key).int32(Ev::kind)
            .int64(Ev::ts).build(f -> new Ev(f.string(), (char) f.int32(), f.int64()));
    private static final EventCodec<Object> KEYS = RecordCodec.<Object>builder().string(k -> (String) k)
            .build(f -> f.string());

    /** Every 'a' starts a partial match waiting for a 'b', so a key with five 'a's wants five. */
    private static final Pattern<Ev> A_THEN_B = Pattern.<Ev>begin("a").where(e -> e.kind() == 'a')
            .followedByAny("b").where(e -> e.kind() == 'b').within(Duration.ofSeconds(10));
    private static final Pattern<Ev> B_THEN_B = Pattern.<Ev>begin("b1").where(e -> e.kind() == 'b')
            .next("b2").where(e -> e.kind() == 'b');

    private static CepEngine<Ev> engine() {
        return CepEngine.<Ev>builder().shards(2).clock(new ManualClock(0))
                .nfaOptions(NfaOptions.defaults().withMaxPartialMatchesPerKey(3)
                        .withOverflowPolicy(OverflowPolicy.REJECT_NEW))
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts()))
                .snapshots(EVENTS, KEYS).build();
    }

    /** @return a key on the other shard than {@code key} */
    private static String keyOnTheOtherShard(String key) {
        for (int i = 0; ; i++) {
            if (CepEngine.shardOf("q" + i, 2) != CepEngine.shardOf(key, 2)) {
                return "q" + i;
            }
        }
    }

    @Test
    void theBoundKeepsAHotKeysBufferEntriesBoundedUnderAllowCombinations() {
        // every b extends each partial match and forks it: the partial-match bound alone left the key's runs at
        // 1000 while their buffer entries grew by about a thousand per event, millions after 5,000 events
        Pattern<Ev> explosive = Pattern.<Ev>begin("a").where(e -> e.kind() == 'a').followedByAny("b")
                .where(e -> e.kind() == 'b').oneOrMore().allowCombinations().followedBy("c").where(e -> e.kind() == 'c');
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).clock(new ManualClock(0))
                .nfaOptions(NfaOptions.defaults().withMaxPartialMatchesPerKey(1000))
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
        long[] matches = new long[1];
        PatternStream<Ev> stream = engine.keyBy(Ev::key).pattern(explosive).select((k, m, ts) -> matches[0]++);
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("hot", 'a', 1));
        long bound = NfaOptions.DEFAULT_ENTRIES_PER_PARTIAL_MATCH * 1000L;
        for (int t = 2; t <= 5001; t++) {
            in.send(new Ev("hot", 'b', t));
            if (t % 100 == 1) {
                in.watermark(t);
                h.runUntilIdle();
                ShardMetrics shard = engine.metrics().shards().get(0);
                assertTrue(shard.sharedBufferEntries() <= bound, shard.sharedBufferEntries() + " entries at " + t);
            }
        }
        in.send(new Ev("hot", 'c', 6000));
        in.watermark(6000);
        h.runUntilIdle();
        assertTrue(stream.metrics().rejectedPartialMatches() > 0);
        assertTrue(matches[0] > 0, "the kept runs still match");
        h.close();
    }

    @Test
    void rejectionsAreCountedPerPatternAndShardThroughTheEngine() throws Exception {
        CepEngine<Ev> engine = engine();
        CollectingSink<Object> matches = new CollectingSink<>();
        KeyedStream<Ev> keyed = engine.keyBy(Ev::key);
        PatternStream<Ev> aThenB = keyed.pattern(A_THEN_B).select(matches::add);
        PatternStream<Ev> bThenB = keyed.pattern(B_THEN_B).select(matches::add);
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        String hot = "hot";
        String calm = keyOnTheOtherShard(hot);
        for (int t = 1; t <= 5; t++) {
            in.send(new Ev(hot, 'a', t)); // the 4th and 5th find the key at its bound of 3
        }
        in.send(new Ev(calm, 'a', 6));
        in.watermark(10);
        h.runUntilIdle();

        int hotShard = CepEngine.shardOf(hot, 2);
        EngineMetrics m = engine.metrics();
        assertEquals(2, m.pattern(aThenB.id()).rejectedPartialMatches());
        assertEquals(4, m.pattern(aThenB.id()).partialMatches(), "three of the hot key, one of the calm one");
        assertEquals(0, m.pattern(bThenB.id()).rejectedPartialMatches());
        assertEquals(2, m.shards().get(hotShard).patterns().get(aThenB.id()).rejectedPartialMatches());
        assertEquals(0, m.shards().get(1 - hotShard).patterns().get(aThenB.id()).rejectedPartialMatches());
        assertEquals(List.of(2L, 0L), List.of(m.shards().get(hotShard).rejectedPartialMatches(),
                m.shards().get(1 - hotShard).rejectedPartialMatches()), "the shards' totals over their patterns");
        assertEquals(m.pattern(aThenB.id()), aThenB.metrics(), "the stream reads the same sums");

        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        h.snapshot(new java.io.DataOutputStream(bytes), EVENTS, KEYS);
        CepEngine<Ev> restored = engine();
        KeyedStream<Ev> again = restored.keyBy(Ev::key);
        PatternStream<Ev> aThenBAgain = again.pattern(A_THEN_B).select(matches::add);
        again.pattern(B_THEN_B).select(matches::add);
        Producer<Ev> in2 = restored.newProducer();
        CepTestHarness<Ev> h2 = CepTestHarness.restore(restored, bytes.toByteArray());
        in2.send(new Ev(hot, 'a', 11)); // still at the bound: one more rejection on top of the restored two
        in2.watermark(20);
        h2.runUntilIdle();
        assertEquals(3, aThenBAgain.metrics().rejectedPartialMatches());
        assertNotEquals(0, aThenBAgain.metrics().partialMatches());
        h.close();
        h2.close();
    }
}
