package io.cepheus.nfa.internal;

import io.cepheus.nfa.Match;
import io.cepheus.nfa.SkipStrategyException;
import io.cepheus.pattern.AfterMatchSkipStrategy;

/**
 * What an after-match skip strategy discards when a match is released (Flink's
 * {@code AfterMatchSkipStrategy#prune}): every partial and held match of the key that started before the strategy's
 * pruning point. The point is an event sequence number taken from the released match:
 * <ul>
 *   <li>{@code skipToNext}: its first event, inclusive (so nothing else starting there survives);</li>
 *   <li>{@code skipPastLastEvent}: its last event, inclusive;</li>
 *   <li>{@code skipToFirst(stage)} / {@code skipToLast(stage)}: the first / last event of that stage in the match,
 *       exclusive (a partial match starting there survives);</li>
 *   <li>{@code noSkip}: none.</li>
 * </ul>
 * Survivors close up in queue order and the queues are re-heaped if anything went, as Flink removes from its
 * priority queues.
 *
 * <p>Owned by the thread of the {@link NfaEngine} that holds it.
 */
final class AfterMatchPruning {

    private static final int NONE = SharedBuffer.NONE;
    /** {@link #pruningSeq}: nothing to prune. */
    static final long NOTHING = Long.MIN_VALUE;
    /** {@link #pruningSeq}: the named stage is missing from the match and the strategy throws then. */
    static final long TARGET_MISSING = Long.MIN_VALUE + 1;
    /** {@link #pruningSeq}: the target is the match's first event and the strategy throws then. */
    static final long TARGET_IS_FIRST = Long.MIN_VALUE + 2;

    private final AfterMatchSkipStrategy skip;
    private final int skipStage;
    private final boolean inclusive;
    private final SharedBuffer buffer;
    private final ExpiryTimes expiry;
    /** Scratch for rebuilding a key's queue of partial matches, {@link KeyState#STRIDE} longs each. */
    private long[] queue = new long[16 * KeyState.STRIDE];

    AfterMatchPruning(Program<?> program, SharedBuffer buffer, ExpiryTimes expiry) {
        this.skip = program.skipStrategy;
        this.skipStage = program.skipStage;
        this.inclusive = skip.kind() == AfterMatchSkipStrategy.Kind.SKIP_TO_NEXT
                || skip.kind() == AfterMatchSkipStrategy.Kind.SKIP_PAST_LAST_EVENT;
        this.buffer = buffer;
        this.expiry = expiry;
    }

    /**
     * @param entry    the match's last buffer entry
     * @param startSeq the sequence number of the match's first event
     * @return the event sequence number partial matches are pruned against, {@link #NOTHING}, or (only with
     *     {@code throwExceptionOnMiss}) {@link #TARGET_MISSING} or {@link #TARGET_IS_FIRST}; event sequence numbers
     *     are positive, so these cannot be mistaken for one
     */
    long pruningSeq(int entry, long startSeq) {
        switch (skip.kind()) {
            case SKIP_PAST_LAST_EVENT:
                return buffer.seq(entry);
            case SKIP_TO_NEXT: {
                long first = Long.MAX_VALUE;
                for (int e = entry; e != NONE; e = buffer.prev(e)) {
                    first = Math.min(first, buffer.seq(e));
                }
                return first;
            }
            case SKIP_TO_FIRST:
            case SKIP_TO_LAST: {
                long found = NOTHING;
                for (int e = entry; e != NONE; e = buffer.prev(e)) {
                    if (buffer.stage(e) == skipStage) {
                        found = buffer.seq(e);
                        if (skip.kind() == AfterMatchSkipStrategy.Kind.SKIP_TO_LAST) {
                            break;
                        }
                    }
                }
                if (skip.throwOnAbsent()) {
                    if (found == NOTHING) {
                        return TARGET_MISSING;
                    }
                    if (found == startSeq) {
                        return TARGET_IS_FIRST;
                    }
                }
                return found;
            }
            default:
                return NOTHING;
        }
    }

    /**
     * Drops the key's partial and held matches that started before {@code pruneAt} (at it too for the inclusive
     * strategies), releasing their buffer references.
     *
     * @return how many partial matches were dropped (held ones not counted)
     */
    int prune(KeyState st, long pruneAt) {
        int records = st.count;
        if (queue.length < records * KeyState.STRIDE) {
            queue = new long[Math.max(records, queue.length / KeyState.STRIDE * 2) * KeyState.STRIDE];
        }
        long[] q = queue;
        st.copyTo(q);
        int kept = 0;
        for (int r = 0; r < records; r++) {
            int at = r * KeyState.STRIDE;
            if (pruned(q[at + KeyState.START_SEQ], pruneAt)) {
                int entry = KeyState.entryOf(q[at + KeyState.STATE_ENTRY]);
                if (entry != NONE) {
                    buffer.release(entry);
                }
                continue;
            }
            if (kept != r) {
                System.arraycopy(q, at, q, kept * KeyState.STRIDE, KeyState.STRIDE);
            }
            kept++;
        }
        if (kept != records) {
            StartQueue.heapify(q, kept);
            st.replaceAll(q, kept);
            st.expiresAt = expiry.earliest(st);
        }
        int held = 0;
        for (int i = 0; i < st.heldCount; i++) {
            long s = st.heldStartSeq[i];
            if (pruned(s, pruneAt)) {
                buffer.release(st.heldEntry[i]);
                continue;
            }
            st.heldEntry[held] = st.heldEntry[i];
            st.heldStartSeq[held++] = s;
        }
        if (held != st.heldCount) {
            st.heldCount = held;
            StartQueue.heapify(st.heldEntry, st.heldStartSeq, held);
        }
        return records - kept;
    }

    private boolean pruned(long startSeq, long pruneAt) {
        return inclusive ? startSeq <= pruneAt : startSeq < pruneAt;
    }

    /**
     * The error for a match {@link #pruningSeq} refused ({@link #TARGET_MISSING} or {@link #TARGET_IS_FIRST}); the
     * caller drops the match.
     */
    SkipStrategyException failure(Object key, Match<?> match, long refusal) {
        String strategy = skip.kind() + "('" + skip.stage() + "') with throwExceptionOnMiss";
        String why = refusal == TARGET_MISSING
                ? "Could not skip to stage '" + skip.stage() + "': the match has no such element"
                : "Could not skip to first element of a match: the " + (skip.kind()
                        == AfterMatchSkipStrategy.Kind.SKIP_TO_FIRST ? "first" : "last") + " event of stage '"
                        + skip.stage() + "' is the match's first event, so skipping to it would prune nothing";
        return new SkipStrategyException(why + " (after-match skip strategy " + strategy + ", key " + key
                + ", match " + match + "); the match was dropped, not emitted");
    }
}
