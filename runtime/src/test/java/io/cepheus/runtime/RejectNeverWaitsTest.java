package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Under {@link BackpressurePolicy#REJECT} no producer call waits, on shard threads with one shard stalled: a
 * watermark that finds the stalled shard's inbox full waits in the producer, the producer's later events for that
 * shard are refused rather than overtake it, the other shard takes its events, and once the stalled shard moves the
 * watermark goes out first: an event sent after it behind its time is late, as it must be. The timeout only guards
 * against a call that waits: nothing here depends on how fast the machine is.
 */
class RejectNeverWaitsTest {

    record Ev(String key, long ts) {
    }

    private static String keyOnShard(int shard, int n) {
        int found = 0;
        for (int i = 0; ; i++) {
            if (CepEngine.shardOf("k" + i, 2) == shard && found++ == n) {
                return "k" + i;
            }
        }
    }

    @Test
    void watermarksWaitInTheProducerNotTheCallerAndNothingIsLostOrOvertaken() throws Exception {
        CountDownLatch stalled = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(1);
        String stall = keyOnShard(0, 0);
        String slow = keyOnShard(0, 1);
        String fast = keyOnShard(1, 0);
        ConcurrentHashMap<String, AtomicInteger> matches = new ConcurrentHashMap<>();
        AtomicInteger late = new AtomicInteger();
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).inboxCapacity(4)
                .backpressure(BackpressurePolicy.REJECT)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
        engine.keyBy(Ev::key).pattern(Pattern.<Ev>begin("e").where(e -> true))
                .select((key, m, ts) -> {
                    if (key.equals(stall) && stalled.getCount() > 0) {
                        stalled.countDown();
                        try {
                            assertTrue(gate.await(60, TimeUnit.SECONDS), "the gate never opened");
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    matches.computeIfAbsent((String) key, k -> new AtomicInteger()).incrementAndGet();
                })
                .lateEvents((key, e, ts) -> late.incrementAndGet());
        Producer<Ev> in = engine.newProducer();
        engine.start();
        AtomicInteger slowAccepted = new AtomicInteger();
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            assertTrue(in.send(new Ev(stall, 1)));
            in.watermark(2); // shard 0 matches the stall event and its thread stops in the handler
            assertTrue(stalled.await(60, TimeUnit.SECONDS));
            while (in.send(new Ev(slow, 10))) {
                slowAccepted.incrementAndGet(); // until shard 0's inbox is full
            }
            in.watermark(100); // shard 0's inbox is full: it waits in the producer, the call returns
            assertFalse(in.send(new Ev(slow, 200)), "an event for shard 0 does not overtake the waiting watermark");
            for (int i = 0; i < 3; i++) {
                while (!in.send(new Ev(fast, 200 + i))) { // shard 1 drains meanwhile, so each goes in soon
                    Thread.onSpinWait();
                }
            }
            assertTrue(stalled.getCount() == 0 && gate.getCount() == 1, "all while shard 0 was still stopped");
            gate.countDown();
            while (!in.send(new Ev(slow, 50))) { // behind watermark 100, which must reach shard 0 first
                Thread.onSpinWait();
            }
        });
        boolean closed = false;
        while (!closed) {
            try {
                in.close();
                closed = true;
            } catch (IllegalStateException fullAtClose) {
                Thread.onSpinWait(); // reported, to be called again
            }
        }
        engine.close(Duration.ofSeconds(60));

        assertEquals(1, matches.get(stall).get());
        assertEquals(slowAccepted.get(), matches.get(slow).get(), "every accepted event of shard 0 matched once");
        assertEquals(3, matches.get(fast).get());
        assertEquals(1, late.get(), "the event at 50 came after watermark 100 and is late: the watermark was kept");
    }
}
