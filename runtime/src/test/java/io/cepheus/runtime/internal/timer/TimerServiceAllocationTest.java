package io.cepheus.runtime.internal.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The shard's timer structures allocate nothing per timer once their arrays have grown to the working set's peak
 * (the promise of {@link TimerService}'s and {@link TimerQueue}'s class comments, and of {@link KeyDueTimes}, which
 * stands in for per-key timers on the CEP operator's event-time path). Measured as the bytes the test thread
 * allocates, which HotSpot counts exactly (TLAB included), so the check depends on no clock and no GC.
 *
 * <p>The bound: the measured phase handles about 200,000 timers, and the smallest object (a {@code new long[1]}
 * or an empty {@code Object}) takes 16 to 24 bytes, so one allocation per timer would show as 3 MB or more, and
 * even one per hundred timers as about 32 KB. 64 KB (well under one byte per timer) keeps a margin of 50 below
 * one object per timer, and is far above what may legitimately land on this thread in a loop that is already
 * compiled: nothing here boxes, builds strings or throws, and the JIT compiles on its own threads (HotSpot 17
 * measures 0 bytes for both tests).
 */
class TimerServiceAllocationTest {

    private static final long MAX_ALLOCATED_BYTES = 64 * 1024;

    /** Fixed sets of key ids and namespaces: the per-key count array and the queues stop growing in warm-up. */
    private static final int KEYS = 512;
    private static final long[] NAMESPACES = {0, 1, 42, 1L << 40};
    /** New timers per domain and round; at most KEYS * NAMESPACES.length, so a round's triples are distinct. */
    private static final int TIMERS_PER_ROUND = 1_000;
    /**
     * Time a round's timers spread over (out of order), and how far the round then advances both clocks. A power
     * of two, so that it divides the lap of {@link #due}'s wheel (2,048 buckets of 2 ms): every lap puts the same
     * number of entries in each bucket, and the buckets reach their final size in the first lap of warm-up.
     */
    private static final int SPREAD = 64;
    private static final int WARM_UP_ROUNDS = 300;
    /** 2 domains * 1,000 * 100 = 200,000 timers registered, as many duplicates, 50,000 deleted, 150,000 fired. */
    private static final int MEASURED_ROUNDS = 100;

    private com.sun.management.ThreadMXBean threads;

    @BeforeEach
    void requireAllocationCounting() {
        // on the class path (surefire's useModulePath=false) jdk.management is resolved by default
        assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean,
                "this JVM has no com.sun.management.ThreadMXBean");
        threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM does not count the bytes a thread allocates");
    }

    // ---------------------------------------------------------------- TimerService

    private final TimerService timers = new TimerService();
    /** One handler for the whole test, as an operator keeps its handlers in fields. */
    private final CountingHandler handler = new CountingHandler();
    private long now;
    private long registered;
    private long duplicates;
    private long deleted;

    @Test
    void registeringDeduplicatingDeletingAndFiringTimersAllocatesNothingPerTimer() {
        for (int r = 0; r < WARM_UP_ROUNDS; r++) {
            timerRound();
        }
        resetCounts();
        long threadId = Thread.currentThread().getId();

        long before = threads.getThreadAllocatedBytes(threadId);
        for (int r = 0; r < MEASURED_ROUNDS; r++) {
            timerRound();
        }
        long allocated = threads.getThreadAllocatedBytes(threadId) - before;

        // the work really happened (asserted after the measurement: nothing inside it may allocate)
        long timersPerDomain = (long) MEASURED_ROUNDS * TIMERS_PER_ROUND;
        assertEquals(2 * timersPerDomain, registered);
        assertEquals(2 * timersPerDomain, duplicates);
        assertEquals(2 * timersPerDomain / 4, deleted);
        assertEquals(2 * timersPerDomain * 3 / 4, handler.fired);
        assertEquals(0, timers.eventTimeTimers() + timers.processingTimeTimers());
        assertEquals(0, timers.keysWithTimers());
        assertTrue(allocated < MAX_ALLOCATED_BYTES, allocated + " bytes allocated for " + registered
                + " timers registered, " + duplicates + " re-registered, " + deleted + " deleted and "
                + handler.fired + " fired: something allocates per timer");
    }

    /**
     * Per domain: registers {@link #TIMERS_PER_ROUND} distinct timers spread over the next {@link #SPREAD} ms in
     * no order, registers each again (a no-op), deletes every fourth, then advances that domain's time past them
     * all so the rest fire. The working set is the same every round, so the arrays stop growing.
     */
    private void timerRound() {
        long base = now;
        for (int i = 0; i < TIMERS_PER_ROUND; i++) {
            int key = i % KEYS;
            long namespace = NAMESPACES[i / KEYS];
            long timestamp = base + 1 + (i * 37L) % SPREAD;
            registered += (timers.registerEventTimeTimer(key, namespace, timestamp) ? 1 : 0)
                    + (timers.registerProcessingTimeTimer(key, namespace, timestamp) ? 1 : 0);
            duplicates += (timers.registerEventTimeTimer(key, namespace, timestamp) ? 0 : 1)
                    + (timers.registerProcessingTimeTimer(key, namespace, timestamp) ? 0 : 1);
        }
        for (int i = 0; i < TIMERS_PER_ROUND; i += 4) {
            int key = i % KEYS;
            long namespace = NAMESPACES[i / KEYS];
            long timestamp = base + 1 + (i * 37L) % SPREAD;
            deleted += (timers.deleteEventTimeTimer(key, namespace, timestamp) ? 1 : 0)
                    + (timers.deleteProcessingTimeTimer(key, namespace, timestamp) ? 1 : 0);
        }
        now = base + SPREAD;
        timers.advanceWatermark(now, handler);
        timers.advanceProcessingTime(now, handler);
    }

    private void resetCounts() {
        registered = 0;
        duplicates = 0;
        deleted = 0;
        handler.fired = 0;
    }

    /** Counts what fires. A class, not a lambda: a capturing lambda made per advance would itself allocate. */
    private static final class CountingHandler implements TimerHandler {
        long fired;

        @Override
        public void onTimer(int key, long namespace, long timestamp) {
            fired++;
        }
    }

    // ---------------------------------------------------------------- KeyDueTimes

    /** As the CEP operator sizes it for a 1 s window (CepOperator.wheelFor). */
    private final KeyDueTimes due = new KeyDueTimes(KeyDueWheel.sizedFor(1_000, 4_000));
    private long watermark;
    private long polled;

    @Test
    void armingCollectingAndPollingKeyDueTimesAllocatesNothingPerKey() {
        due.ensureKeys(KEYS);
        for (int r = 0; r < WARM_UP_ROUNDS; r++) {
            dueRound();
        }
        polled = 0;
        long threadId = Thread.currentThread().getId();
        int rounds = 400; // 400 * 512 = 204,800 keys armed

        long before = threads.getThreadAllocatedBytes(threadId);
        for (int r = 0; r < rounds; r++) {
            dueRound();
        }
        long allocated = threads.getThreadAllocatedBytes(threadId) - before;

        // two keys in three are really due at their entry; the third was disarmed (parked) and never comes out
        long expectedPolled = (long) rounds * (KEYS - KEYS / 3);
        assertEquals(expectedPolled, polled);
        assertTrue(allocated < MAX_ALLOCATED_BYTES, allocated + " bytes allocated for " + rounds * KEYS
                + " keys armed and " + polled + " polled: something allocates per key");
    }

    /**
     * Arms every key a little ahead of the watermark, as the CEP operator does for a key's next expiry: one key
     * in three then has nothing due (disarmed: its entry is parked and dropped when it comes out), the others
     * are due at their entry. Then advances the watermark past them all, collects and polls every due key. The
     * pattern repeats every lap of the wheel, so its buckets stop growing in warm-up; a round's keys (512) stay
     * below the wheel's and the heap's give-back thresholds, so no array is dropped and reallocated.
     */
    private void dueRound() {
        long base = watermark;
        for (int id = 0; id < KEYS; id++) {
            long time = base + 1 + (id * 37L) % SPREAD;
            due.armIfEarlier(id, time, base);
            if (id % 3 == 2) {
                due.disarm(id);
            } else {
                due.next(id, time);
            }
        }
        watermark = base + SPREAD;
        due.collectDue(watermark);
        while (due.pollDue() >= 0) {
            polled++;
        }
    }
}
