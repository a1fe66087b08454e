package io.cepheus.runtime.internal.queue;

import io.cepheus.runtime.agent.IdleStrategy;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jctools.queues.MpscArrayQueue;

/**
 * A shard's bounded input: many producer threads offer records, the one thread that owns the shard drains
 * them. Records from one producer are drained in the order that producer offered them.
 *
 * <p>Built on JCTools' {@link MpscArrayQueue} (lock-free, no allocation per record). On top of it sits a
 * {@code closed} flag: once {@link #close()} is called, producers get an {@link IllegalStateException} while
 * the consumer can still drain what is queued. To make "nothing lost at close" hold under races, every offer
 * runs inside an in-flight count; {@link #isClosedAndDrained()} becomes true only when the inbox is closed, no
 * producer is part-way through an offer, and the queue is empty - after that no record can ever arrive.
 *
 * <p><b>Threading:</b> {@link #offer}, {@link #put}, {@link #close()}, {@link #isClosed()}, {@link #size()} and
 * {@link #capacity()} may be called from any thread. {@link #drain} and {@link #isClosedAndDrained()} belong to
 * the single consumer thread (the shard's worker); calling them from two threads at once corrupts the queue.
 *
 * @param <E> the record type; null records are refused
 */
public final class ShardInbox<E> {

    /** Spins before a blocked {@link #put(Object)} starts yielding. */
    public static final int PUT_MAX_SPINS = 64;
    /** Yields before a blocked {@link #put(Object)} starts parking. */
    public static final int PUT_MAX_YIELDS = 8;
    /** The first park of a blocked {@link #put(Object)}: 1 microsecond. */
    public static final long PUT_MIN_PARK_NANOS = 1_000L;
    /** The longest park of a blocked {@link #put(Object)}: 100 microseconds, so a freed slot is used soon. */
    public static final long PUT_MAX_PARK_NANOS = 100_000L;

    /** JCTools rounds capacities up to a power of two; this keeps the rounded value an int array size. */
    private static final int MAX_CAPACITY = 1 << 30;

    private final MpscArrayQueue<E> queue;
    /** A blocked put tries again once the queue holds at most this many records (see {@link #put(Object, IdleStrategy)}). */
    private final int resumeAtOrBelow;
    private final AtomicInteger offersInFlight = new AtomicInteger();
    private volatile boolean closed;

    /**
     * @param requestedCapacity the most records the inbox holds, {@code >= 2}; rounded up to a power of two
     *                          (see {@link #capacity()})
     * @throws IllegalArgumentException if the capacity is out of range
     */
    public ShardInbox(int requestedCapacity) {
        if (requestedCapacity < 2 || requestedCapacity > MAX_CAPACITY) {
            throw new IllegalArgumentException(
                    "inbox capacity must be between 2 and " + MAX_CAPACITY + ", was " + requestedCapacity);
        }
        this.queue = new MpscArrayQueue<>(requestedCapacity);
        int capacity = queue.capacity();
        this.resumeAtOrBelow = capacity - Math.max(1, capacity / 8);
    }

    /**
     * Enqueues a record if there is room. Any thread.
     *
     * @param record the record, not null
     * @return true if enqueued, false if the inbox is full (the record was not enqueued)
     * @throws NullPointerException  if the record is null
     * @throws IllegalStateException if the inbox is closed (the record was not enqueued)
     */
    public boolean offer(E record) {
        Objects.requireNonNull(record, "record");
        // Enter before reading 'closed': close() sets 'closed' before the consumer checks the count, so either
        // this offer sees 'closed' or the consumer sees it in flight and waits for it (see isClosedAndDrained).
        offersInFlight.getAndIncrement();
        try {
            if (closed) {
                throw closedException();
            }
            return queue.offer(record);
        } finally {
            offersInFlight.getAndDecrement();
        }
    }

    /**
     * Enqueues a record, waiting for room with the default bounded spin, yield, then park backoff
     * ({@link #PUT_MAX_SPINS}, {@link #PUT_MAX_YIELDS}, {@link #PUT_MIN_PARK_NANOS} to
     * {@link #PUT_MAX_PARK_NANOS}). It never drops: it returns once the record is enqueued, or throws. Any
     * thread. Allocates only when it has to wait.
     *
     * @param record the record, not null
     * @throws NullPointerException  if the record is null
     * @throws IllegalStateException if the inbox is closed before the record could be enqueued, or the calling
     *                               thread is interrupted while waiting (its interrupt flag stays set); either
     *                               way the record was not enqueued
     */
    public void put(E record) {
        if (offer(record)) {
            return;
        }
        put(record, IdleStrategy.backoff(PUT_MAX_SPINS, PUT_MAX_YIELDS, PUT_MIN_PARK_NANOS, PUT_MAX_PARK_NANOS));
    }

    /**
     * Like {@link #put(Object)}, waiting with the caller's own idle strategy (reset before its first wait), for a
     * producer that wants to reuse one instead of allocating, or to tune the backoff.
     *
     * <p>Once the inbox is found full, the put waits until an eighth of it is free again (one slot for the
     * smallest inboxes), not just one slot. A producer that refills each slot the moment the consumer frees it
     * writes into the cache line the consumer is reading and keeps reading the consumer's index, so the two
     * cores trade those lines on every record: the consumer then took 15-60% longer per record (measured with a
     * JCTools queue kept full by a spinning producer, against one that waits for room like this).
     *
     * @param record       the record, not null
     * @param idleStrategy how to wait while full; owned by the calling thread
     * @throws NullPointerException  if an argument is null
     * @throws IllegalStateException as for {@link #put(Object)}
     */
    public void put(E record, IdleStrategy idleStrategy) {
        Objects.requireNonNull(idleStrategy, "idleStrategy");
        if (offer(record)) {
            return; // most sends find room at once: only a put that waits needs a fresh backoff
        }
        idleStrategy.reset();
        do {
            do {
                if (Thread.currentThread().isInterrupted()) {
                    throw new IllegalStateException(
                            "interrupted while waiting for room in a full shard inbox; the record was not enqueued");
                }
                idleStrategy.idle(0);
            } while (!closed && queue.size() > resumeAtOrBelow); // closed: the offer below throws
        } while (!offer(record));
    }

    /**
     * Hands up to {@code limit} queued records to {@code handler}, oldest first, and removes them. Consumer
     * thread only. Works after {@link #close()} too. A record a producer is still publishing may be left for
     * the next call. If the handler throws, the exception propagates: the records handed over so far (the
     * failing one included) are consumed, the rest stay queued.
     *
     * @param handler receives each record; pass a long-lived instance, not a capturing lambda, on hot paths
     * @param limit   the most records to drain, {@code >= 0}
     * @return the number of records handed to the handler
     * @throws IllegalArgumentException if limit is negative
     */
    public int drain(Consumer<? super E> handler, int limit) {
        Objects.requireNonNull(handler, "handler");
        if (limit < 0) {
            throw new IllegalArgumentException("drain limit must be >= 0, was " + limit);
        }
        int drained = 0;
        while (drained < limit) {
            // relaxedPoll: a slot claimed but not yet written reads as empty; the next duty cycle picks it up
            E record = queue.relaxedPoll();
            if (record == null) {
                break;
            }
            drained++;
            handler.accept(record);
        }
        return drained;
    }

    /**
     * Stops accepting records: every later {@link #offer}/{@link #put} throws {@link IllegalStateException},
     * including puts waiting for room. What is queued stays drainable. Any thread; idempotent.
     */
    public void close() {
        closed = true;
    }

    /** @return true once {@link #close()} was called */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Consumer thread only.
     *
     * @return true when the inbox is closed, no offer is in progress and nothing is queued: no record can
     *         arrive any more, so the consumer may finish
     */
    public boolean isClosedAndDrained() {
        // Order matters: 'closed' first, then the in-flight count, then emptiness. An offer that entered after
        // the count read 0 must see 'closed' and throw; one that finished before has published its record.
        return closed && offersInFlight.get() == 0 && queue.isEmpty();
    }

    /** @return the number of queued records; approximate under concurrency, for metrics */
    public int size() {
        return queue.size();
    }

    /** @return the most records the inbox holds: the requested capacity rounded up to a power of two */
    public int capacity() {
        return queue.capacity();
    }

    private IllegalStateException closedException() {
        return new IllegalStateException("shard inbox is closed: the engine no longer accepts input");
    }

    @Override
    public String toString() {
        return "ShardInbox[size=" + size() + ", capacity=" + capacity() + (closed ? ", closed" : "") + "]";
    }
}
