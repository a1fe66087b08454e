package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.EventCodec;
import io.cepheus.nfa.RecordCodec;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Keys route to shards by hashCode. A key type whose hash changes between JVMs would be restored into a shard
 * that no longer owns it, its later events going to another shard: the restore refuses it, naming the key.
 * Two "JVMs" are simulated by a key whose hash depends on a field that equality ignores.
 */
class RestoredKeyRoutingTest {

    private static final int SHARDS = 3;

    /** Equal by {@code id}; its hash also mixes in {@code jvm}, as an identity hash would differ per JVM. */
    record Account(String id, int jvm) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Account a && a.id.equals(id);
        }

        @Override
        public int hashCode() {
            return 31 * id.hashCode() + jvm * 0x9E3779B9;
        }
    }

    record Ev(String user, char kind, long ts) {
    }

    static final EventCodec<Ev> EVENTS = RecordCodec.<Ev>builder().string(Ev::user).int32(Ev::kind).int64(Ev::ts)
            .build(f -> new Ev(f.string(), (char) f.int32(), f.int64()));

    private static EventCodec<Object> keysOf(int jvm) {
        return RecordCodec.<Object>builder().string(k -> ((Account) k).id()).build(f -> new Account(f.string(), jvm));
    }

    private static final List<String> USERS = IntStream.range(0, 12).mapToObj(i -> "user" + i).toList();

    private static CepEngine<Ev> engine(int jvm, List<String> out) {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(SHARDS).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts()))
                .snapshots(EVENTS, keysOf(jvm)).build();
        engine.keyBy(e -> new Account(e.user(), jvm))
                .pattern(Pattern.<Ev>begin("a").where(e -> e.kind() == 'a').followedBy("b")
                        .where(e -> e.kind() == 'b').within(Duration.ofMillis(100)))
                .select((k, m, ts) -> out.add(((Account) k).id() + " @" + ts));
        return engine;
    }

    /** Every user starts a partial match; half of them also leave an event buffered behind the watermark. */
    private static byte[] snapshotIn(int jvm, List<String> users) {
        CepEngine<Ev> engine = engine(jvm, new ArrayList<>());
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        users.forEach(u -> in.send(new Ev(u, 'a', 10)));
        in.watermark(10);
        users.subList(0, users.size() / 2).forEach(u -> in.send(new Ev(u, 'c', 20)));
        h.runUntilIdle();
        assertEquals(users.size(), engine.metrics().total(ShardMetrics::partialMatches));
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.DataOutputStream data = new java.io.DataOutputStream(bytes)) {
            h.snapshot(data, EVENTS, keysOf(jvm));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void restoreIn(int jvm, byte[] snapshot) {
        CepEngine<Ev> engine = engine(jvm, new ArrayList<>());
        engine.newProducer();
        CepTestHarness.restore(engine, snapshot);
    }

    private static int shardOf(String user, int jvm) {
        return CepEngine.shardOf(new Account(user, jvm), SHARDS);
    }

    private static boolean sameShards(List<String> users, int jvm, int otherJvm) {
        return users.stream().allMatch(u -> shardOf(u, jvm) == shardOf(u, otherJvm));
    }

    /** Sends every user's 'b' into a restored engine: each partial match completes, once. */
    private static List<String> continueIn(int jvm, byte[] snapshot, List<String> users) {
        List<String> out = new ArrayList<>();
        CepEngine<Ev> engine = engine(jvm, out);
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.restore(engine, snapshot);
        users.forEach(u -> in.send(new Ev(u, 'b', 30)));
        h.close();
        return out;
    }

    @Test
    void aKeyWhoseHashMovedItToAnotherShardIsRefusedByName() {
        byte[] snapshot = snapshotIn(1, USERS);
        assertTrue(!sameShards(USERS, 1, 2), "some key changes shard between the two JVMs");

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> restoreIn(2, snapshot));
        String message = e.getMessage();
        assertTrue(message.contains("key Account[id=user"), message);
        assertTrue(message.contains("stable across JVMs"), message);
        String key = message.substring(message.indexOf("id=") + 3, message.indexOf(','));
        assertNotEquals(shardOf(key, 1), shardOf(key, 2), message);
        assertTrue(message.contains("restored into shard " + shardOf(key, 1) + ", but this engine routes it to shard "
                + shardOf(key, 2)), message);
    }

    /** A hash that is the same, or that differs but keeps every key on its shard, restores as before. */
    @Test
    void keysOnTheShardsTheyRouteToRestoreAndContinue() {
        byte[] snapshot = snapshotIn(1, USERS);
        List<String> expected = continueIn(1, snapshot, USERS);
        assertEquals(USERS.size(), expected.size(), expected.toString());

        List<String> few = USERS.subList(0, 4); // few enough that some other hash keeps them all on their shards
        byte[] fewSnapshot = snapshotIn(1, few);
        List<String> fewExpected = continueIn(1, fewSnapshot, few);
        int otherJvm = IntStream.range(2, 10_000).filter(j -> sameShards(few, 1, j)).findFirst().orElseThrow();
        assertNotEquals(new Account("user0", 1).hashCode(), new Account("user0", otherJvm).hashCode());
        assertEquals(fewExpected, continueIn(otherJvm, fewSnapshot, few));
    }
}
