package io.cepheus.runtime;

/**
 * What a producer experiences when a shard's bounded input queue is full. Either way nothing is dropped
 * silently: a record is either enqueued or the caller is told it was not.
 */
public enum BackpressurePolicy {

    /**
     * The pushing thread waits until the shard has room: it spins briefly, then yields, then parks with an
     * exponential backoff capped at a short period, retrying in between. The push returns only once the record
     * is enqueued; it throws {@link IllegalStateException} (and the record is not enqueued) if the engine is
     * closed while it waits, or if the waiting thread is interrupted. Producers are slowed to the shard's pace.
     */
    BLOCK,

    /**
     * The push returns {@code false} at once when the shard's queue is full and the record is not enqueued; the
     * caller decides what to do (retry later, buffer, shed load and count it). Producers never wait: a watermark,
     * idleness change or snapshot barrier that finds a queue full waits in its producer, in order (a newer watermark
     * replacing an older one), and goes out with that producer's next call ({@code send}, {@code watermark},
     * {@code tick}, {@code checkpoint}, {@code close}); until then the producer's events for that shard are refused
     * too, so none overtakes it. A {@code close()} that cannot enqueue its final watermark throws, to be called
     * again.
     */
    REJECT
}
