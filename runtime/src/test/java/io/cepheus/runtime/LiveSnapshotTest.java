package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.EventCodec;
import io.cepheus.nfa.RecordCodec;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Live snapshots: producers mark a cut with {@code checkpoint(id)}, shards align the barriers, and a fresh
 * engine restored from the snapshot and fed what came after the cuts completes exactly the output of an
 * uninterrupted run.
 */
class LiveSnapshotTest {

    record Ev(int key, char kind, long ts) {
    }

    static final EventCodec<Ev> EVENTS = RecordCodec.<Ev>builder().int32(Ev::key).int32(Ev::kind).int64(Ev::ts)
            .build(f -> new Ev(f.int32(), (char) f.int32(), f.int64()));
    static final EventCodec<Object> KEYS = RecordCodec.<Object>builder().int32(k -> (Integer) k)
            .build(f -> f.int32());

    /** One producer's input: events of its own keys, a watermark after each, in time order. */
    private static List<Ev> input(int producer, int n) {
        List<Ev> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new Ev(producer * 100 + i % 7, "abcb".charAt((i * 3 + producer) % 4), 10L * i + producer));
        }
        return out;
    }

    private static CepEngine<Ev> engine(int shards, boolean flush, List<String> out) {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(shards).clock(new ManualClock(0)).flushOnClose(flush)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts()))
                .snapshots(EVENTS, KEYS).build();
        engine.keyBy(Ev::key).pattern(Pattern.<Ev>begin("a").where(e -> e.kind() == 'a')
                        .followedBy("b").where(e -> e.kind() == 'b').followedBy("c").where(e -> e.kind() == 'c')
                        .within(Duration.ofMillis(200)))
                .select((k, m, ts) -> out.add("match " + k + " " + m))
                .timeouts((k, m, ts) -> out.add("timeout " + k + " " + m + " @" + ts))
                .lateEvents((k, e, ts) -> out.add("late " + k + " " + e));
        return engine;
    }

    private static void send(Producer<Ev> in, List<Ev> events, int from, int to) {
        for (Ev e : events.subList(from, to)) {
            in.send(e);
            in.watermark(e.ts());
        }
    }

    private static List<String> sorted(List<String> lines) {
        List<String> copy = new ArrayList<>(lines);
        Collections.sort(copy);
        return copy;
    }

    private static List<String> uninterrupted(List<Ev> p0, List<Ev> p1) {
        List<String> out = new ArrayList<>();
        CepEngine<Ev> engine = engine(1, true, out);
        Producer<Ev> in0 = engine.newProducer();
        Producer<Ev> in1 = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        send(in0, p0, 0, p0.size());
        send(in1, p1, 0, p1.size());
        h.close();
        return out;
    }

    /** One shard, two producers whose barriers arrive at different points: records after a barrier wait. */
    @Test
    void alignedBarriersGiveAConsistentCut() {
        List<Ev> p0 = input(0, 40);
        List<Ev> p1 = input(1, 40);
        for (int cut0 : new int[] {0, 7, 20, 40}) {
            for (int cut1 : new int[] {0, 13, 33}) {
                List<String> expected = uninterrupted(p0, p1);

                List<String> before = new ArrayList<>();
                CepEngine<Ev> a = engine(1, false, before);
                AtomicReference<byte[]> snapshot = new AtomicReference<>();
                int[] outputsAtSnapshot = {-1};
                a.onSnapshot(bytes -> {
                    snapshot.set(bytes);
                    outputsAtSnapshot[0] = before.size();
                });
                Producer<Ev> a0 = a.newProducer();
                Producer<Ev> a1 = a.newProducer();
                CepTestHarness<Ev> ha = CepTestHarness.start(a);
                send(a0, p0, 0, cut0);
                a0.checkpoint(1);
                send(a0, p0, cut0, p0.size()); // held back at the shard until producer 1's barrier arrives
                ha.runUntilIdle();
                send(a1, p1, 0, cut1);
                ha.runUntilIdle();
                a1.checkpoint(1);
                ha.runUntilIdle();
                assertNotNull(snapshot.get(), "the snapshot completes once both barriers are in");

                List<String> after = new ArrayList<>();
                CepEngine<Ev> b = engine(1, true, after);
                Producer<Ev> b0 = b.newProducer();
                Producer<Ev> b1 = b.newProducer();
                CepTestHarness<Ev> hb = CepTestHarness.restore(b, snapshot.get());
                send(b0, p0, cut0, p0.size());
                send(b1, p1, cut1, p1.size());
                hb.close();

                List<String> actual = new ArrayList<>(before.subList(0, outputsAtSnapshot[0]));
                actual.addAll(after);
                assertEquals(sorted(expected), sorted(actual), "cuts " + cut0 + " / " + cut1);
            }
        }
    }

    @Test
    void producersDisagreeingOnTheSnapshotIdIsAClearError() {
        CepEngine<Ev> engine = engine(1, false, new ArrayList<>());
        engine.onSnapshot(bytes -> { });
        Producer<Ev> p0 = engine.newProducer();
        Producer<Ev> p1 = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        p0.checkpoint(1);
        p1.checkpoint(2);
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                h::runUntilIdle);
        assertTrue(e.getMessage().contains("same ids"), e.getMessage());
    }

    /** Without codecs a checkpoint is refused at the call, as onSnapshot is, and nothing reaches the shards. */
    @Test
    void aCheckpointWithoutSnapshotCodecsIsRefusedAtTheCall() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).pattern(Pattern.<Ev>begin("a").where(e -> e.kind() == 'a'))
                .select((k, m, ts) -> out.add("match " + k));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev(1, 'a', 1));
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> in.checkpoint(7));
        assertEquals("checkpoint(7) needs snapshot codecs: build the engine with Builder.snapshots(eventCodec,"
                + " keyCodec)", e.getMessage());
        in.watermark(10);
        h.runUntilIdle();
        assertEquals(List.of("match 1"), out, "the engine goes on as if nothing had been sent");
        h.close();
    }

    /** Real threads, two shards: the restored engine plus the first one's output is the uninterrupted output. */
    @Test
    void aRunningEngineSnapshotsAndAFreshOneContinues() throws Exception {
        List<Ev> p0 = input(0, 400);
        List<Ev> p1 = input(1, 400);
        List<String> expected = uninterrupted(p0, p1);
        int cut0 = 150;
        int cut1 = 290;

        ConcurrentLinkedQueue<String> before = new ConcurrentLinkedQueue<>();
        List<String> beforeView = new ArrayList<>();
        CepEngine<Ev> a = engine(2, false, Collections.synchronizedList(beforeView));
        AtomicReference<byte[]> snapshot = new AtomicReference<>();
        CountDownLatch taken = new CountDownLatch(1);
        a.onSnapshot(bytes -> {
            snapshot.set(bytes);
            taken.countDown();
        });
        Producer<Ev> a0 = a.newProducer();
        Producer<Ev> a1 = a.newProducer();
        a.start();
        Thread t0 = new Thread(() -> {
            send(a0, p0, 0, cut0);
            a0.checkpoint(7);
        });
        Thread t1 = new Thread(() -> {
            send(a1, p1, 0, cut1);
            a1.checkpoint(7);
        });
        t0.start();
        t1.start();
        t0.join(60_000);
        t1.join(60_000);
        assertTrue(taken.await(60, TimeUnit.SECONDS), "the snapshot did not complete");
        a.close(); // no flush: nothing was sent after the cuts, so everything it emitted came before them
        before.addAll(beforeView);

        List<String> after = Collections.synchronizedList(new ArrayList<>());
        CepEngine<Ev> b = engine(2, true, after);
        Producer<Ev> b0 = b.newProducer();
        Producer<Ev> b1 = b.newProducer();
        b.restoreFrom(snapshot.get());
        b.start();
        send(b0, p0, cut0, p0.size());
        send(b1, p1, cut1, p1.size());
        b.close();

        List<String> actual = new ArrayList<>(before);
        actual.addAll(after);
        assertEquals(sorted(expected), sorted(actual));
        assertTrue(expected.size() > 50, "the input produces plenty of output: " + expected.size());
    }
}
