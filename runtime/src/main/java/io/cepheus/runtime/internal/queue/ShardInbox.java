package io.cepheus.runtime.internal.queue;

import io.cepheus.runtime.agent.IdleStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.jctools.queues.MpscArrayQueue;

/**
 * A shard's bounded input: many producer threads offer records, the one thread that owns the shard drains
 * them. Records from one producer are drained in the order that producer offered them.
 *
 * <p>Built on JCTools' {@link MpscArrayQueue} (lock-free, no allocation per record). On top of it sits a
 * {@code closed} flag: once {@link #close()} is called, producers get an {@link IllegalStateException} while
 * the consumer can still drain what is queued.
 *
 * <p>Design: "nothing lost at close" under races, at the cost of one atomic instruction per offer, the queue's own
 * CAS. An offer reads {@code closed}, enqueues, and reads {@code closed} again. The consumer finishes
 * ({@link #isClosedAndDrained()} true, and it never polls again) only after it saw the inbox closed and then
 * empty; it decides that under a lock and marks the inbox <em>sealed</em>. In the total order of volatile
 * accesses an offer whose second read still sees the inbox open enqueued before the close, so the consumer's later
 * emptiness check sees that record: it is drained, and the offer returns true without any other step. Only an offer
 * whose second read sees the inbox closed (it raced with {@link #close()}) takes the lock: if the consumer has not
 * sealed, it will drain the record before it can (the queue is not empty), so the offer succeeds; if it has, the
 * record may have been drained before the seal or have come after it, so the offer takes what is left in the queue
 * (the consumer polls no more) and fails if its own record is among it. Each racing record thus ends up either
 * drained or refused by an exception, never both and never neither. The lock is off the hot path: only offers
 * racing with the close take it, and the consumer once, to seal. The alternative, every offer counting itself in and
 * out of an atomic in-flight counter, costs two more atomic instructions per record on the producer's path (W1 on
 * two shards ran 1.039x as fast without them, 8 of 12 paired rounds).
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
    private volatile boolean closed;
    /**
     * Set by the consumer, under {@link #raceLock}, once it found the inbox closed and then empty: from then on it
     * polls no more, and offers that raced with the close settle among themselves what is left in the queue.
     */
    private volatile boolean sealed;
    /** Guards {@link #sealed} becoming true and the queue after it (the close race only, never a plain offer). */
    private final Object raceLock = new Object();
    /** Records that came after the seal, taken out of the queue by a racing offer, until their own offers fail. */
    private final List<E> refusedAfterSeal = new ArrayList<>();

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
        if (closed) {
            throw closedException();
        }
        if (!queue.offer(record)) {
            return false;
        }
        // still open after the enqueue: the consumer cannot have sealed before it (see the class comment)
        return !closed || settleRaceWithClose(record);
    }

    /**
     * An offer that enqueued {@code record} and then found the inbox closed: the record is drained if the
     * consumer has not sealed yet, else it came too late unless the consumer drained it before the seal.
     *
     * @return true if the consumer drains (or drained) the record
     * @throws IllegalStateException if the record came after the seal (it is taken out of the queue again)
     */
    private boolean settleRaceWithClose(E record) {
        synchronized (raceLock) {
            if (!sealed) {
                return true; // the consumer seals only once the queue is empty, so it drains this record first
            }
            // the consumer polls no more: what the queue still holds came after the seal, this record perhaps too;
            // poll() (not relaxedPoll) waits for a slot another racing offer has claimed but not yet written
            for (E late = queue.poll(); late != null; late = queue.poll()) {
                refusedAfterSeal.add(late);
            }
            for (int i = 0; i < refusedAfterSeal.size(); i++) {
                if (refusedAfterSeal.get(i) == record) {
                    refusedAfterSeal.remove(i);
                    throw closedException();
                }
            }
            return true; // drained before the seal
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
        if (sealed) {
            return 0; // what is queued now came after the seal: its offers take it back and fail
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
     * @return true when the inbox is closed and everything offered successfully has been drained, so the consumer
     *         may finish: from the first true on, {@link #drain} takes nothing more (offers still racing with the
     *         close fail instead)
     */
    public boolean isClosedAndDrained() {
        if (sealed) {
            return true;
        }
        // 'closed' before emptiness: an offer that enqueues after this emptiness check sees 'closed' and settles
        if (!closed || !queue.isEmpty()) {
            return false;
        }
        synchronized (raceLock) {
            if (!queue.isEmpty()) {
                return false; // a racing offer got in: drain it first
            }
            sealed = true;
            return true;
        }
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
