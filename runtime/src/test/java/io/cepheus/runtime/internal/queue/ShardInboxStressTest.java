package io.cepheus.runtime.internal.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.runtime.agent.ErrorHandler;
import io.cepheus.runtime.agent.IdleStrategy;
import io.cepheus.runtime.internal.agent.Agent;
import io.cepheus.runtime.internal.agent.AgentRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Real threads: several producers push sequence-stamped records into one small inbox (so backpressure kicks in
 * constantly) while a consumer agent on an {@link AgentRunner} drains it. Every record must arrive exactly once
 * and in its producer's order. Sized to take about a second on 2 cores; no timing is asserted.
 */
@Tag("stress")
class ShardInboxStressTest {

    private static final int PRODUCERS = 3;
    private static final int RECORDS_PER_PRODUCER = 200_000;
    private static final int CAPACITY = 256;
    private static final int DRAIN_LIMIT = 64;
    private static final long WAIT_SECONDS = 60;

    private record Stamped(int producer, int sequence) {
    }

    /** Drains the inbox and checks each producer's sequence; all its state is owned by the runner's thread. */
    private static final class CheckingConsumer implements Agent, Consumer<Stamped> {
        private final ShardInbox<Stamped> inbox;
        final int[] nextSequence = new int[PRODUCERS];
        final List<String> violations = new ArrayList<>();
        long received;
        final CountDownLatch drainedForGood = new CountDownLatch(1);

        CheckingConsumer(ShardInbox<Stamped> inbox) {
            this.inbox = inbox;
        }

        @Override
        public int doWork() {
            int drained = inbox.drain(this, DRAIN_LIMIT);
            if (drained == 0 && drainedForGood.getCount() > 0 && inbox.isClosedAndDrained()) {
                drainedForGood.countDown();
            }
            return drained;
        }

        @Override
        public void accept(Stamped record) {
            received++;
            int expected = nextSequence[record.producer()];
            if (record.sequence() != expected && violations.size() < 20) {
                violations.add("producer " + record.producer() + ": expected sequence " + expected + ", got "
                        + record.sequence() + (record.sequence() < expected ? " (duplicate or reordered)" : " (gap)"));
            }
            nextSequence[record.producer()] = record.sequence() + 1;
        }

        @Override
        public String roleName() {
            return "stress-consumer";
        }
    }

    @Test
    void everyRecordArrivesExactlyOnceAndInItsProducersOrder() throws InterruptedException {
        ShardInbox<Stamped> inbox = new ShardInbox<>(CAPACITY);
        CheckingConsumer consumer = new CheckingConsumer(inbox);
        AgentRunner runner = new AgentRunner(consumer, IdleStrategy.backoff(64, 8, 1_000, 100_000),
                ErrorHandler.alwaysStop());

        CountDownLatch go = new CountDownLatch(1);
        AtomicReferenceArray<Throwable> producerFailures = new AtomicReferenceArray<>(PRODUCERS);
        Thread[] producers = new Thread[PRODUCERS];
        for (int p = 0; p < PRODUCERS; p++) {
            int producer = p;
            producers[p] = new Thread(() -> {
                try {
                    go.await();
                    produce(inbox, producer);
                } catch (Throwable t) {
                    producerFailures.set(producer, t);
                }
            }, "stress-producer-" + p);
            producers[p].setDaemon(true);
        }

        runner.start();
        for (Thread producer : producers) {
            producer.start();
        }
        go.countDown();
        for (Thread producer : producers) {
            producer.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            assertFalse(producer.isAlive(), producer.getName() + " did not finish within " + WAIT_SECONDS + " s");
        }
        for (int p = 0; p < PRODUCERS; p++) {
            assertNull(producerFailures.get(p), "producer " + p + " failed");
        }

        inbox.close();
        assertThrows(IllegalStateException.class, () -> inbox.offer(new Stamped(0, RECORDS_PER_PRODUCER)));
        assertTrue(consumer.drainedForGood.await(WAIT_SECONDS, TimeUnit.SECONDS),
                "consumer did not drain the closed inbox within " + WAIT_SECONDS + " s; runner failure: "
                        + runner.failure());
        runner.close(Duration.ofSeconds(WAIT_SECONDS));

        // runner.close() waited for the consumer thread to finish, so its state is safe to read here
        assertTrue(runner.failure().isEmpty(), () -> "consumer failed: " + runner.failure().orElseThrow());
        assertEquals(List.of(), consumer.violations);
        int[] expected = new int[PRODUCERS];
        Arrays.fill(expected, RECORDS_PER_PRODUCER);
        assertArrayEquals(expected, consumer.nextSequence, "last sequence + 1 per producer");
        assertEquals((long) PRODUCERS * RECORDS_PER_PRODUCER, consumer.received, "records received in total");
    }

    private static final int CLOSE_RACE_ROUNDS = 400;
    private static final int CLOSE_RACE_CAPACITY = 16;

    /**
     * {@link ShardInbox#close()} while two producers are still offering: whatever point of an offer the close lands
     * on (before it, between its enqueue and its second look at the flag, after it), every record whose offer
     * returned normally is drained once and in order, every offer that threw left nothing behind, and the consumer
     * finishes. Many short rounds, each closing after a different amount of progress, so that the close meets the
     * offers at many points; the consumer runs on its own thread, as a shard's does.
     */
    @Test
    void aCloseRacingWithOffersDrainsExactlyTheRecordsWhoseOffersSucceeded() throws InterruptedException {
        for (int round = 0; round < CLOSE_RACE_ROUNDS; round++) {
            closeRace(round);
        }
    }

    private static void closeRace(int round) throws InterruptedException {
        ShardInbox<Stamped> inbox = new ShardInbox<>(CLOSE_RACE_CAPACITY);
        int[] succeeded = new int[2];
        boolean[] refused = new boolean[2];
        AtomicReferenceArray<Throwable> failures = new AtomicReferenceArray<>(3);
        int[] next = new int[2];
        List<String> violations = new ArrayList<>();
        java.util.concurrent.atomic.AtomicLong received = new java.util.concurrent.atomic.AtomicLong();
        Thread consumer = new Thread(() -> {
            try {
                Consumer<Stamped> check = r -> {
                    if (r.sequence() != next[r.producer()] && violations.size() < 20) {
                        violations.add("producer " + r.producer() + ": expected " + next[r.producer()] + ", got "
                                + r.sequence());
                    }
                    next[r.producer()] = r.sequence() + 1;
                    received.incrementAndGet();
                };
                while (!(inbox.drain(check, 8) == 0 && inbox.isClosedAndDrained())) {
                    Thread.onSpinWait();
                }
            } catch (Throwable t) {
                failures.set(2, t);
            }
        }, "close-race-consumer");
        Thread[] producers = new Thread[2];
        for (int p = 0; p < 2; p++) {
            int producer = p;
            producers[p] = new Thread(() -> {
                try {
                    for (int sequence = 0; ; sequence++) {
                        Stamped record = new Stamped(producer, sequence);
                        try {
                            if (producer == 0) {
                                while (!inbox.offer(record)) {
                                    Thread.onSpinWait();
                                }
                            } else {
                                inbox.put(record);
                            }
                        } catch (IllegalStateException closed) {
                            refused[producer] = true;
                            return;
                        }
                        succeeded[producer] = sequence + 1;
                    }
                } catch (Throwable t) {
                    failures.set(producer, t);
                }
            }, "close-race-producer-" + p);
        }
        consumer.start();
        for (Thread producer : producers) {
            producer.start();
        }
        long closeAfter = (round % 40) * 7L; // records drained before the close: a different point every round
        while (received.get() < closeAfter && failures.get(2) == null) {
            Thread.onSpinWait();
        }
        inbox.close();
        for (Thread t : producers) {
            join(t);
        }
        join(consumer);
        for (int i = 0; i < 3; i++) {
            assertNull(failures.get(i), "round " + round + ": thread " + i + " failed");
        }
        assertEquals(List.of(), violations, "round " + round);
        for (int p = 0; p < 2; p++) {
            assertTrue(refused[p], "round " + round + ": producer " + p + " ended without a refusal");
            assertEquals(succeeded[p], next[p], "round " + round + ", producer " + p
                    + ": records drained (last sequence + 1) against offers that succeeded");
        }
        assertEquals(0, inbox.size(), "round " + round + ": a refused record stayed queued");
    }

    private static void join(Thread thread) throws InterruptedException {
        thread.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        assertFalse(thread.isAlive(), thread.getName() + " did not finish within " + WAIT_SECONDS + " s");
    }

    /** Producer 0 behaves like BackpressurePolicy.REJECT with a retrying caller; the others use BLOCK (put). */
    private static void produce(ShardInbox<Stamped> inbox, int producer) {
        IdleStrategy retryIdle = IdleStrategy.backoff(16, 4, 1_000, 100_000);
        for (int sequence = 0; sequence < RECORDS_PER_PRODUCER; sequence++) {
            Stamped record = new Stamped(producer, sequence);
            if (producer == 0) {
                retryIdle.reset();
                while (!inbox.offer(record)) {
                    retryIdle.idle(0);
                }
            } else {
                inbox.put(record);
            }
        }
    }
}
