package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Metrics readable at any time without stopping the engine: the queue depth is read live (records waiting in
 * each shard's inbox, before any batch ran), and a thread reading every counter while the shard threads run sees
 * plausible values and no exception; once the engine is closed, the events-in total is the number sent.
 */
class LiveMetricsTest {

    record Ev(String key, char kind, long ts) {
    }

    private static Pattern<Ev> orderThenShipment() {
        return Pattern.<Ev>begin("order").where(e -> e.kind() == 'o')
                .followedBy("ship").where(e -> e.kind() == 's').within(Duration.ofMillis(1_500));
    }

    private static CepEngine.Builder<Ev> builder() {
        return CepEngine.<Ev>builder().shards(2).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts()));
    }

    private static String keyOnShard(int shard) {
        for (int i = 0; ; i++) {
            if (CepEngine.shardOf("k" + i, 2) == shard) {
                return "k" + i;
            }
        }
    }

    private static List<Integer> queueDepths(CepEngine<?> engine) {
        return engine.metrics().shards().stream().map(ShardMetrics::queueDepth).toList();
    }

    @Test
    void queueDepthCountsTheRecordsWaitingInEachShardsInbox() {
        CepEngine<Ev> engine = builder().inboxCapacity(64).build();
        engine.keyBy(Ev::key).pattern(orderThenShipment());
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        String a = keyOnShard(0);
        String b = keyOnShard(1);
        assertEquals(List.of(0, 0), queueDepths(engine));
        for (int i = 0; i < 5; i++) {
            in.send(new Ev(a, 'o', 100 + i));
        }
        for (int i = 0; i < 3; i++) {
            in.send(new Ev(b, 'o', 100 + i));
        }
        assertEquals(List.of(5, 3), queueDepths(engine), "read live: no batch has run yet");
        assertEquals(0, engine.metrics().total(ShardMetrics::events), "counters are published by batches");
        in.watermark(200); // a watermark is a record in every shard's inbox too
        assertEquals(List.of(6, 4), queueDepths(engine));

        harness.runUntilIdle();
        assertEquals(List.of(0, 0), queueDepths(engine));
        assertEquals(List.of(5L, 3L), engine.metrics().shards().stream().map(ShardMetrics::events).toList());
        assertEquals(8, engine.metrics().total(ShardMetrics::partialMatches));
        harness.close();
    }

    /**
     * Real threads: one producer, two shard workers and this thread reading metrics as fast as it can. Every read
     * must be plausible: per shard, events, matches and watermark never go back; the queue depth stays within the
     * inbox; nothing is late; no counter is negative; and the events seen never exceed the sends begun before the
     * read. After close, events in = events sent, every inbox is empty and every order has met its shipment.
     */
    @Test
    @Tag("stress")
    void metricsReadFromAnotherThreadWhileShardsRunArePlausible() throws Exception {
        int capacity = 256;
        CepEngine<Ev> engine = builder().inboxCapacity(capacity).build();
        engine.keyBy(Ev::key).pattern(orderThenShipment());
        Producer<Ev> in = engine.newProducer();
        engine.start();
        int keys = 1_000;
        int events = 200_000; // per key: order, shipment 1,000 ms later, order, ...
        AtomicLong begun = new AtomicLong();
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> producerFailure = new AtomicReference<>();
        Thread producer = new Thread(() -> {
            try {
                for (int i = 0; i < events; i++) {
                    begun.incrementAndGet(); // before the send: a shard may count the event before send returns
                    in.send(new Ev("u" + (i % keys), (i / keys) % 2 == 0 ? 'o' : 's', i));
                    if (i % 64 == 63) {
                        in.watermark(i);
                    }
                }
                in.close();
            } catch (Throwable t) {
                producerFailure.set(t);
            } finally {
                done.set(true);
            }
        }, "metrics-test-producer");
        producer.start();

        int shards = engine.shardCount();
        long[] lastEvents = new long[shards];
        long[] lastMatches = new long[shards];
        long[] lastWatermark = new long[shards];
        java.util.Arrays.fill(lastWatermark, Long.MIN_VALUE);
        String violation = null;
        long reads = 0;
        boolean last;
        do {
            last = done.get(); // one more read after the producer finished
            EngineMetrics m = engine.metrics();
            long sendsBegun = begun.get(); // read after the metrics: bounds the events they can show
            reads++;
            violation = implausible(m, shards, capacity, sendsBegun, lastEvents, lastMatches, lastWatermark);
            Thread.yield();
        } while (violation == null && !last);
        producer.join();
        engine.close(Duration.ofSeconds(60));

        assertNull(producerFailure.get(), "the producer failed");
        assertNull(violation, "after " + reads + " reads");
        EngineMetrics end = engine.metrics();
        assertEquals(events, end.total(ShardMetrics::events), "events in = events sent");
        assertEquals(0, end.total(ShardMetrics::queueDepth));
        assertEquals(events / 2, end.total(ShardMetrics::matches), "every order met its shipment");
        assertEquals(0, end.total(ShardMetrics::timeouts));
        assertEquals(0, end.total(ShardMetrics::keys));
        assertEquals(Long.MAX_VALUE, end.watermark(), "closing flushed with the final watermark");
        assertTrue(reads >= 1);
    }

    /** @return what is wrong with one read of the metrics, or null */
    private static String implausible(EngineMetrics m, int shards, int capacity, long sendsBegun, long[] lastEvents,
            long[] lastMatches, long[] lastWatermark) {
        if (m.shards().size() != shards) {
            return "shards: " + m.shards().size();
        }
        long eventsSeen = 0;
        for (int s = 0; s < shards; s++) {
            ShardMetrics sm = m.shards().get(s);
            if (sm.shard() != s) {
                return "shard " + s + " reported as " + sm.shard();
            }
            if (sm.events() < lastEvents[s] || sm.matches() < lastMatches[s] || sm.watermark() < lastWatermark[s]) {
                return "shard " + s + " went back: " + sm + " after events " + lastEvents[s] + ", matches "
                        + lastMatches[s] + ", watermark " + lastWatermark[s];
            }
            if (sm.queueDepth() < 0 || sm.queueDepth() > capacity) {
                return "queue depth out of range: " + sm;
            }
            if (sm.lateEvents() != 0 || sm.deadLetters() != 0 || sm.partialMatches() < 0 || sm.bufferedEvents() < 0
                    || sm.sharedBufferEntries() < 0 || sm.keys() < 0 || sm.timeouts() < 0) {
                return "implausible counter: " + sm;
            }
            lastEvents[s] = sm.events();
            lastMatches[s] = sm.matches();
            lastWatermark[s] = sm.watermark();
            eventsSeen += sm.events();
        }
        if (eventsSeen > sendsBegun) {
            return "events in " + eventsSeen + " > sends begun " + sendsBegun + ": " + m;
        }
        return null;
    }
}
