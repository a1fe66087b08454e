package io.cepheus.runtime.internal.cep;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One event-time buffer for the event-time patterns of a shard that order equal timestamps the same way: each
 * event is buffered once however many patterns watch the stream, and released once per watermark to every
 * pattern, in order.
 *
 * <p>A watermark reaches the patterns one after the other ({@link CepOperator#beginWatermark}); the first to get
 * it releases the buffer for all of them: it opens the watermark's round on every member, then hands each released
 * event to every member in registration order, and only once all members have seen an event may its key be
 * forgotten (a member alone would free a key the next member is about to match). Each member then advances its
 * own keys to the watermark in its own turn.
 *
 * <p>Owned by the shard's worker thread.
 *
 * @param <T> the event type
 */
public final class SharedEventBuffer<T> {

    private final EventTimeBuffer<T> buffer;
    private final List<CepOperator<T>> members = new ArrayList<>();
    private long releasedUpTo = Long.MIN_VALUE;
    private final EventTimeBuffer.Release<T> toEveryMember = this::dispatch;

    /** @param tieBreaker the members' order of equal timestamps (before arrival order); null for arrival only */
    public SharedEventBuffer(Comparator<? super T> tieBreaker) {
        this.buffer = new EventTimeBuffer<>(tieBreaker);
    }

    EventTimeBuffer<T> buffer() {
        return buffer;
    }

    /** Adds a pattern (setup, before events flow). */
    void join(CepOperator<T> member) {
        members.add(member);
    }

    /** @return whether {@code member} is the one that buffers events, writes them to snapshots and counts them */
    boolean owns(CepOperator<T> member) {
        return members.get(0) == member;
    }

    /** @return how many patterns share the buffer */
    public int members() {
        return members.size();
    }

    /** Releases the buffer up to {@code watermark} to every member, once per watermark. */
    void release(long watermark) {
        if (watermark <= releasedUpTo) {
            return; // an earlier member released it for this watermark
        }
        releasedUpTo = watermark;
        for (int i = 0; i < members.size(); i++) {
            members.get(i).openRound();
        }
        // reading ahead the first member's key states also brings the events into the cache for the others
        buffer.releaseUpTo(watermark, toEveryMember, members.get(0).lookahead());
    }

    private void dispatch(int keyId, T event, long timestamp) {
        for (int i = 0; i < members.size(); i++) {
            members.get(i).match(keyId, event, timestamp);
        }
        if (buffer.bufferedFor(keyId) == 0) {
            for (int i = 0; i < members.size(); i++) {
                if (members.get(i).holds(keyId)) {
                    return;
                }
            }
            members.get(0).idleUnlessHeld(keyId);
        }
    }
}
