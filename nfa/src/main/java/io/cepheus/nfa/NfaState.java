package io.cepheus.nfa;

/**
 * The matching state of one key: its live partial matches and, under a skip strategy, the completed
 * matches held back behind earlier-starting partial matches. Create one per key with
 * {@link NfaMatcher#newState(Object)}; it belongs to that matcher and to the matcher's owning thread.
 */
public interface NfaState {

    /** @return the key this state was created for (used in error messages), possibly null */
    Object key();

    /** @return the number of live partial matches */
    int partialMatchCount();

    /** @return the number of completed matches held back by the skip strategy */
    int heldMatchCount();

    /**
     * @return the shared-buffer entries this key's partial and held matches keep alive (one per event a partial
     *     match took; runs that share a prefix share its entries), at most {@link NfaOptions#bufferEntryBound()}
     *     between events
     */
    int bufferEntryCount();

    /** @return the latest time this key has seen (event time or watermark), or {@code Long.MIN_VALUE} */
    long currentTime();

    /**
     * When advancing this key's time next has an effect: the earliest time at which one of its partial
     * matches expires (times out, or completes a trailing {@code notFollowedBy}). A runtime registers an
     * event-time timer for it, so timeouts fire even for a key that receives no more events.
     *
     * @return that time, or {@code Long.MAX_VALUE} if nothing can expire
     */
    long expiryTime();

    /** @return whether nothing is kept for this key, so the caller may drop the state */
    default boolean isEmpty() {
        return partialMatchCount() == 0 && heldMatchCount() == 0;
    }
}
