package io.cepheus.runtime.internal.cep;

import io.cepheus.runtime.internal.shard.ShardOperator;
import java.util.ArrayList;
import java.util.Arrays;
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
 * <p>A rule set's buffer ({@link #forRuleSet}) differs in two ways. Its members come and go while events flow (the
 * rule versions), and each sees the events by their arrival number ({@link EventTimeBuffer#releasingArrival()}):
 * nothing that arrived before it joined, every event that arrived before it was retired, and after that either
 * nothing (its partial matches are discarded) or only what extends the partial matches it has (it drains). And the
 * rule set, not a member, buffers, snapshots and counts the events, and releases the buffer when it has no member.
 *
 * <p>Owned by the shard's worker thread.
 *
 * @param <T> the event type
 */
public final class SharedEventBuffer<T> {

    private final EventTimeBuffer<T> buffer;
    private final List<CepOperator<T>> members = new ArrayList<>();
    /** Whether members see events by arrival (a rule set's buffer); false: every member sees every event. */
    private final boolean windowed;
    /** Per member, the first arrival it sees. */
    private long[] from = new long[4];
    /** Per member, the arrival from which it only extends its partial matches (retired to drain). */
    private long[] fullUntil = new long[4];
    /** Per member, the arrival from which it sees nothing (retired to discard). */
    private long[] until = new long[4];
    /** Per retired member, how many events that arrived before its retirement are still buffered. */
    private long[] pendingBefore = new long[4];
    /** Frees a key none of the members holds (a rule set's release when it has no member). */
    private ShardOperator.KeyRelease idle;
    /** A rule set's: how many members hold state for each key; null for the patterns' buffer. */
    private KeyHolderCounts holderCounts;
    private long releasedUpTo = Long.MIN_VALUE;
    private final EventTimeBuffer.Release<T> toEveryMember = this::dispatch;

    /** @param tieBreaker the members' order of equal timestamps (before arrival order); null for arrival only */
    public SharedEventBuffer(Comparator<? super T> tieBreaker) {
        this(tieBreaker, false);
    }

    private SharedEventBuffer(Comparator<? super T> tieBreaker, boolean windowed) {
        this.buffer = new EventTimeBuffer<>(tieBreaker);
        this.windowed = windowed;
    }

    /**
     * @param tieBreaker the order of equal timestamps (before arrival order); null for arrival only
     * @param idle       frees a key that no member holds anything for
     * @param <T>        the event type
     * @return the buffer of a rule set, whose members see events by arrival
     */
    public static <T> SharedEventBuffer<T> forRuleSet(Comparator<? super T> tieBreaker, ShardOperator.KeyRelease idle) {
        SharedEventBuffer<T> b = new SharedEventBuffer<>(tieBreaker, true);
        b.idle = idle;
        b.holderCounts = new KeyHolderCounts();
        return b;
    }

    /** @return a rule set's count of the members holding state for each key (null for the patterns' buffer) */
    KeyHolderCounts holderCounts() {
        return holderCounts;
    }

    EventTimeBuffer<T> buffer() {
        return buffer;
    }

    /** Adds a pattern (setup, before events flow). */
    void join(CepOperator<T> member) {
        if (windowed) {
            throw new IllegalStateException("a rule set's versions join with joinAt");
        }
        members.add(member);
    }

    /**
     * Adds a rule version that sees the events arriving from now on (or, for one restored from a snapshot, from
     * {@code firstArrival}).
     *
     * @param member       the version's operator (which {@link CepOperator#ruleVersionOf} made a member)
     * @param firstArrival the first arrival number it sees
     */
    void joinAt(CepOperator<T> member, long firstArrival) {
        int i = members.size();
        members.add(member);
        if (i == from.length) {
            int n = i * 2;
            from = Arrays.copyOf(from, n);
            fullUntil = Arrays.copyOf(fullUntil, n);
            until = Arrays.copyOf(until, n);
            pendingBefore = Arrays.copyOf(pendingBefore, n);
        }
        from[i] = firstArrival;
        fullUntil[i] = Long.MAX_VALUE;
        until[i] = Long.MAX_VALUE;
        pendingBefore[i] = 0;
    }

    /**
     * Retires a rule version at the current arrival: it still sees, in full, every event that arrived before, and
     * after it only those that extend its partial matches ({@code drain}) or none.
     *
     * @param retiredAt       the first arrival it no longer sees in full
     * @param pendingBefore   how many events that arrived before {@code retiredAt} are still buffered
     */
    void retire(CepOperator<T> member, boolean drain, long retiredAt, long pendingBefore) {
        int i = indexOf(member);
        fullUntil[i] = retiredAt;
        until[i] = drain ? Long.MAX_VALUE : retiredAt;
        this.pendingBefore[i] = pendingBefore;
    }

    /** @return how many events that arrived before {@code member} was retired are still buffered (0 if it is not) */
    long pendingBefore(CepOperator<T> member) {
        return pendingBefore[indexOf(member)];
    }

    /** @return the first arrival {@code member} sees */
    long firstArrival(CepOperator<T> member) {
        return from[indexOf(member)];
    }

    /** @return the arrival from which {@code member} sees events only to extend (Long.MAX_VALUE if not retired) */
    long retiredAt(CepOperator<T> member) {
        return fullUntil[indexOf(member)];
    }

    /** @return whether {@code member} was retired to drain (it goes on seeing what extends its partial matches) */
    boolean drains(CepOperator<T> member) {
        int i = indexOf(member);
        return fullUntil[i] != Long.MAX_VALUE && until[i] == Long.MAX_VALUE;
    }

    /** Removes a rule version that is done. */
    void leave(CepOperator<T> member) {
        int i = indexOf(member);
        members.remove(i);
        int n = members.size();
        System.arraycopy(from, i + 1, from, i, n - i);
        System.arraycopy(fullUntil, i + 1, fullUntil, i, n - i);
        System.arraycopy(until, i + 1, until, i, n - i);
        System.arraycopy(pendingBefore, i + 1, pendingBefore, i, n - i);
    }

    private int indexOf(CepOperator<T> member) {
        for (int i = 0; i < members.size(); i++) {
            if (members.get(i) == member) {
                return i;
            }
        }
        throw new IllegalStateException("not a member of this buffer");
    }

    /** @return whether {@code member} is the one that buffers events, writes them to snapshots and counts them */
    boolean owns(CepOperator<T> member) {
        return !windowed && members.get(0) == member;
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
        buffer.releaseUpTo(watermark, toEveryMember, members.isEmpty() ? null : members.get(0).lookahead());
    }

    private void dispatch(int keyId, T event, long timestamp) {
        if (windowed) {
            dispatchByArrival(keyId, event, timestamp);
            if (buffer.bufferedFor(keyId) == 0 && holderCounts.of(keyId) == 0) {
                idle.idle(keyId);
            }
            return;
        }
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

    private void dispatchByArrival(int keyId, T event, long timestamp) {
        long arrival = buffer.releasingArrival();
        for (int i = 0; i < members.size(); i++) {
            boolean beforeRetirement = arrival < fullUntil[i];
            if (beforeRetirement && fullUntil[i] != Long.MAX_VALUE) {
                pendingBefore[i]--; // counted down whether or not the member sees it: it arrived before
            }
            if (arrival < from[i] || arrival >= until[i]) {
                continue;
            }
            // read per member: an earlier member may just have made a state for the key
            boolean held = holderCounts.of(keyId) > 0;
            if (beforeRetirement) {
                if (held) {
                    members.get(i).match(keyId, event, timestamp);
                } else {
                    members.get(i).matchUnheld(keyId, event, timestamp);
                }
            } else if (held) {
                members.get(i).matchWithoutStarting(keyId, event, timestamp);
            }
        }
    }
}
