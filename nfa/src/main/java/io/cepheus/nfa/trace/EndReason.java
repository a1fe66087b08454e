package io.cepheus.nfa.trace;

/** Why a partial match ended without completing a match. */
public enum EndReason {
    /**
     * The event fulfilled no condition the partial match waited for, and it could not skip the event: the stage it
     * waited for follows with strict contiguity ({@code next()}, {@code consecutive()}), or ends a loop that must take
     * it.
     */
    CONDITION_FALSE,
    /** A {@code notNext} or {@code notFollowedBy} stage saw its event. */
    NOT_STAGE_MATCHED,
    /** Its time ran out: the pattern's window ({@code within}) closed, or a stage's gap did. */
    TIMED_OUT,
    /** The after-match skip strategy discarded it when a match was emitted. */
    PRUNED,
    /** The key was at its bound of partial matches or buffer entries ({@code OverflowPolicy.REJECT_NEW}). */
    REJECTED,
    /** Dropped without timing out: its rule version was retired with its partial matches discarded. */
    DISCARDED
}
