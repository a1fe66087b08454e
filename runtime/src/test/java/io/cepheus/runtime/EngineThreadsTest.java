package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.agent.IdleStrategy;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The engine's threading contract on real threads: handlers run on the thread of the shard that owns the key,
 * each shard thread idles with its own strategy from {@link CepEngine.Builder#idleStrategy}, and a blocking send
 * into a full inbox waits for room instead of dropping or failing. Waits are bounded awaits on what the other
 * threads do, never sleeps.
 */
@Tag("stress")
class EngineThreadsTest {

    record Ev(String key, char kind, long ts) {
    }

    private static final long AWAIT_SECONDS = 60;

    private static CepEngine.Builder<Ev> builder() {
        return CepEngine.<Ev>builder()
                .watermarks(WatermarkStrategy.<Ev>forMonotonousTimestamps().withTimestampAssigner((e, ts) -> e.ts()));
    }

    private static Pattern<Ev> orderThenShipment() {
        return Pattern.<Ev>begin("order").where(e -> e.kind() == 'o')
                .followedBy("shipment").where(e -> e.kind() == 's')
                .within(Duration.ofMillis(100));
    }

    @Test
    void matchTimeoutAndLateHandlersRunOnTheThreadOfTheShardThatOwnsTheKey() throws Exception {
        int shards = 2;
        CepEngine<Ev> engine = builder().shards(shards).build();
        // key -> the names of the threads its handlers ran on (one entry per call)
        Map<String, List<String>> threadsOf = new ConcurrentHashMap<>();
        AtomicInteger calls = new AtomicInteger();
        engine.keyBy(Ev::key).pattern(orderThenShipment())
                .select((key, m, ts) -> record(threadsOf, calls, key))
                .timeouts((key, m, ts) -> record(threadsOf, calls, key))
                .lateEvents((key, e, ts) -> record(threadsOf, calls, key));
        Producer<Ev> in = engine.newProducer();
        engine.start();
        int keys = 200;
        for (int k = 0; k < keys; k++) {
            String key = "k" + k;
            in.send(new Ev(key, 'o', 10L * k + 1));
            if (k % 2 == 0) {
                in.send(new Ev(key, 's', 10L * k + 2)); // even keys match, odd keys time out
            }
        }
        in.watermark(10L * keys + 1_000);
        for (int k = 0; k < keys; k += 3) {
            in.send(new Ev("k" + k, 'o', 0)); // behind the watermark: late
        }
        in.close();
        engine.close(Duration.ofSeconds(AWAIT_SECONDS));

        int late = (keys + 2) / 3;
        assertEquals(keys + late, calls.get(), "one match or timeout per key, plus the late events");
        String producerThread = Thread.currentThread().getName();
        for (Map.Entry<String, List<String>> e : threadsOf.entrySet()) {
            String owner = "cepheus-shard-" + CepEngine.shardOf(e.getKey(), shards);
            for (String thread : e.getValue()) {
                assertEquals(owner, thread, "a handler of key " + e.getKey() + " ran off its shard's thread");
                assertNotEquals(producerThread, thread);
            }
        }
        assertEquals(keys, threadsOf.size());
    }

    private static void record(Map<String, List<String>> threadsOf, AtomicInteger calls, Object key) {
        threadsOf.computeIfAbsent((String) key, k -> new CopyOnWriteArrayList<>()).add(Thread.currentThread().getName());
        calls.incrementAndGet();
    }

    /**
     * An idle strategy that remembers the threads it idled and signals its first idle step without work; it
     * yields so that the shard threads leave the test's thread a core.
     */
    private static final class RecordingIdleStrategy implements IdleStrategy {
        final Set<String> threads = ConcurrentHashMap.newKeySet();
        final CountDownLatch idledWithoutWork = new CountDownLatch(1);
        final AtomicInteger busySteps = new AtomicInteger();
        private final IdleStrategy delegate = IdleStrategy.yielding();

        @Override
        public void idle(int workCount) {
            threads.add(Thread.currentThread().getName());
            if (workCount > 0) {
                busySteps.incrementAndGet();
            } else {
                idledWithoutWork.countDown();
            }
            delegate.idle(workCount);
        }

        @Override
        public void reset() {
            delegate.reset();
        }
    }

    @Test
    void eachShardThreadIdlesWithItsOwnStrategyFromTheBuildersSupplier() throws Exception {
        int shards = 2;
        List<RecordingIdleStrategy> strategies = new CopyOnWriteArrayList<>();
        CepEngine<Ev> engine = builder().shards(shards).idleStrategy(() -> {
            RecordingIdleStrategy s = new RecordingIdleStrategy();
            strategies.add(s);
            return s;
        }).build();
        AtomicInteger matches = new AtomicInteger();
        engine.keyBy(Ev::key).pattern(orderThenShipment()).select((key, m, ts) -> matches.incrementAndGet());
        Producer<Ev> in = engine.newProducer();
        engine.start();
        assertEquals(shards, strategies.size(), "one strategy per shard thread");
        for (RecordingIdleStrategy s : strategies) {
            assertTrue(s.idledWithoutWork.await(AWAIT_SECONDS, TimeUnit.SECONDS), "a shard never idled");
        }
        for (int k = 0; k < 50; k++) {
            in.send(new Ev("k" + k, 'o', 1));
            in.send(new Ev("k" + k, 's', 2));
        }
        in.close();
        engine.close(Duration.ofSeconds(AWAIT_SECONDS));

        assertEquals(50, matches.get());
        Set<String> seen = ConcurrentHashMap.newKeySet();
        int busy = 0;
        for (RecordingIdleStrategy s : strategies) {
            assertEquals(1, s.threads.size(), "a strategy was shared between threads: " + s.threads);
            String thread = s.threads.iterator().next();
            assertTrue(thread.startsWith("cepheus-shard-"), thread);
            assertTrue(seen.add(thread), "two strategies on one thread: " + thread);
            busy += s.busySteps.get();
        }
        assertTrue(busy > 0, "the strategies were never told of a duty cycle that did work");
    }

    @Test
    void aBlockingSendIntoAFullInboxWaitsForRoomAndLosesNothing() throws Exception {
        int capacity = 4;
        CepEngine<Ev> engine = builder().shards(1).inboxCapacity(capacity).backpressure(BackpressurePolicy.BLOCK)
                .build();
        CountDownLatch shardHeld = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(1);
        List<Long> matched = new CopyOnWriteArrayList<>();
        // in processing time each event matches as the shard takes it, so the first match holds the shard thread
        engine.keyBy(Ev::key).pattern(Pattern.<Ev>begin("any").where(e -> true)).inProcessingTime()
                .select((key, m, ts) -> {
                    long seq = m.allEvents().get(0).ts();
                    matched.add(seq);
                    if (seq == 0) {
                        shardHeld.countDown();
                        awaitUninterruptibly(gate);
                    }
                });
        Producer<Ev> in = engine.newProducer();
        engine.start();
        int events = 3 * capacity;
        AtomicInteger sendsReturned = new AtomicInteger();
        AtomicReference<Throwable> producerFailure = new AtomicReference<>();
        Thread producer = new Thread(() -> {
            try {
                for (int i = 0; i < events; i++) {
                    assertTrue(in.send(new Ev("k", 'x', i)), "a blocking send returned false");
                    sendsReturned.incrementAndGet();
                }
                in.close();
            } catch (Throwable t) {
                producerFailure.set(t);
            }
        }, "blocked-producer");
        producer.start();
        assertTrue(shardHeld.await(AWAIT_SECONDS, TimeUnit.SECONDS), "the shard never took the first event");
        // the shard holds event 0 and its inbox the next `capacity`: the send after them must wait, parked
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(AWAIT_SECONDS);
        try {
            // parked with every slot taken: the producer may have filled the inbox before the shard took event 0,
            // and parked on event `capacity` until that drain; that earlier park does not count
            // the parked producer wakes now and then to look for room, so what counts is having seen it parked
            boolean parkedWhileFull = false;
            while (!parkedWhileFull && producer.isAlive() && System.nanoTime() < deadline) {
                parkedWhileFull = producer.getState() == Thread.State.TIMED_WAITING
                        && sendsReturned.get() == 1 + capacity;
                Thread.onSpinWait();
            }
            assertTrue(parkedWhileFull, "the producer never parked on the full inbox");
            assertEquals(1 + capacity, sendsReturned.get(), "sends that returned while the inbox was full");
            assertEquals(List.of(0L), matched);
            assertEquals(capacity, engine.metrics().shards().get(0).queueDepth(), "the inbox is not full");
        } finally {
            gate.countDown(); // a failed assertion must not leave the shard thread held
        }
        producer.join(TimeUnit.SECONDS.toMillis(AWAIT_SECONDS));
        assertFalse(producer.isAlive(), "the producer is still blocked after the shard drained");
        engine.close(Duration.ofSeconds(AWAIT_SECONDS));
        assertEquals(null, producerFailure.get());
        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < events; i++) {
            expected.add(i);
        }
        assertEquals(expected, matched, "every event matched once, in the order sent");
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            if (!latch.await(AWAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("gate never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
