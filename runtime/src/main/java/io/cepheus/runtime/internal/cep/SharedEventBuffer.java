package io.cepheus.runtime.internal.cep;

import io.cepheus.runtime.internal.shard.ShardOperator;
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
 * event to every member in registration order that it may begin or change something of (the patterns' conditions
 * are checked on fields read once per event, {@link ConditionIndex}), and only once all members have seen an event may its key be
 * forgotten (a member alone would free a key the next member is about to match). Each member then advances its
 * own keys to the watermark in its own turn.
 *
 * <p>A rule set's buffer ({@link #forRuleSet}) differs: its members are the rule versions, which come and go while
 * events flow and see the events by arrival, and which its {@link RuleSetDispatch} hands each event only if it
 * concerns them; the rule set, not a member, buffers, snapshots and counts the events, and releases the buffer when
 * it has no member.
 *
 * <p>Owned by the shard's worker thread.
 *
 * @param <T> the event type
 */
public final class SharedEventBuffer<T> {

    private final EventTimeBuffer<T> buffer;
    /** The patterns sharing the buffer (empty for a rule set's). */
    private final List<CepOperator<T>> members = new ArrayList<>();
    /** A rule set's versions; null for the patterns' buffer. */
    private final RuleSetDispatch<T> ruleSet;
    /** The patterns' conditions, by position: an event goes to a pattern only if it may begin or change something. */
    private final ConditionIndex<T> patternIndex = new ConditionIndex<>();
    private long releasedUpTo = Long.MIN_VALUE;
    private final EventTimeBuffer.Release<T> toEveryMember = this::dispatch;

    /** @param tieBreaker the members' order of equal timestamps (before arrival order); null for arrival only */
    public SharedEventBuffer(Comparator<? super T> tieBreaker) {
        this.buffer = new EventTimeBuffer<>(tieBreaker);
        this.ruleSet = null;
    }

    private SharedEventBuffer(Comparator<? super T> tieBreaker, ShardOperator.KeyRelease idle) {
        this.buffer = new EventTimeBuffer<>(tieBreaker);
        this.ruleSet = new RuleSetDispatch<>(buffer, idle);
    }

    /**
     * @param tieBreaker the order of equal timestamps (before arrival order); null for arrival only
     * @param idle       frees a key that no member holds anything for
     * @param <T>        the event type
     * @return the buffer of a rule set, whose members see events by arrival
     */
    public static <T> SharedEventBuffer<T> forRuleSet(Comparator<? super T> tieBreaker, ShardOperator.KeyRelease idle) {
        return new SharedEventBuffer<>(tieBreaker, idle);
    }

    /** @return a rule set's versions (null for the patterns' buffer) */
    RuleSetDispatch<T> ruleSet() {
        return ruleSet;
    }

    EventTimeBuffer<T> buffer() {
        return buffer;
    }

    /**
     * Puts back a buffered event under its arrival number, for a host that keeps each buffered event as it arrives
     * (a Kafka Streams task's state store): events are put back in arrival order, before the patterns' restored keys
     * are settled.
     */
    public void restore(int keyId, T event, long timestamp, long arrival) {
        buffer.add(keyId, event, timestamp, arrival);
    }

    /** @return the arrival number the next event buffered will get */
    public long arrivals() {
        return buffer.arrivals();
    }

    /** Numbers the events buffered from now on from {@code next} (a restore, once the buffered events are back). */
    public void arrivals(long next) {
        buffer.arrivals(next);
    }

    /** Adds a pattern (setup, before events flow). */
    void join(CepOperator<T> member) {
        if (ruleSet != null) {
            throw new IllegalStateException("a rule set's versions join with RuleSetDispatch.joinAt");
        }
        patternIndex.put(members.size(), member.startConditions(), member.waitingConditions());
        members.add(member);
    }

    /** @return whether {@code member} is the one that buffers events, writes them to snapshots and counts them */
    boolean owns(CepOperator<T> member) {
        return ruleSet == null && members.get(0) == member;
    }

    /** @return how many patterns (or rule versions) share the buffer */
    public int members() {
        return ruleSet != null ? ruleSet.members() : members.size();
    }

    /** Releases the buffer up to {@code watermark} to every member, once per watermark. */
    void release(long watermark) {
        if (watermark <= releasedUpTo) {
            return; // an earlier member released it for this watermark
        }
        releasedUpTo = watermark;
        if (ruleSet != null) {
            ruleSet.newRound(watermark);
            buffer.releaseUpTo(watermark, toEveryMember, ruleSet.lookahead());
            return;
        }
        for (int i = 0; i < members.size(); i++) {
            members.get(i).openRound();
        }
        // reading ahead the first member's key states also brings the events into the cache for the others
        buffer.releaseUpTo(watermark, toEveryMember, members.isEmpty() ? null : members.get(0).lookahead());
    }

    private void dispatch(int keyId, T event, long timestamp) {
        if (ruleSet != null) {
            ruleSet.dispatch(keyId, event, timestamp);
            return;
        }
        // the patterns' conditions read the event's fields once; a pattern the event can neither begin nor change
        // (a key it holds, waiting for what the event cannot be) is skipped, as it would do nothing with it
        boolean read = patternIndex.statesAnything() && patternIndex.read(event); // lambdas only: nothing to read
        for (int i = 0; i < members.size(); i++) {
            CepOperator<T> m = members.get(i);
            if (read && !patternIndex.mayBegin(i) && !(m.hasState(keyId) && patternIndex.mayChange(i))) {
                continue;
            }
            m.match(keyId, event, timestamp);
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
