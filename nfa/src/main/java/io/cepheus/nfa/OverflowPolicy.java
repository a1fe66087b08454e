package io.cepheus.nfa;

/** What an {@link NfaMatcher} does when a key would hold more live partial matches than allowed. */
public enum OverflowPolicy {
    /**
     * Keep the partial matches already held, drop the new ones beyond the bound and count them
     * ({@link NfaMatcher#rejectedPartialMatches()}).
     *
     * <p>"New" is defined by what an event does to the partial matches: it turns each into its successors, in
     * Flink's order (none if the partial match dies, several if it branches), and may start one more from the
     * first stage. The first successor of a partial match <em>continues</em> it; its other successors (the
     * branches it forks on this event) and the partial match the event starts are <em>new</em>. Every
     * continuation is kept; the remaining room goes to the new ones in start order (branches of earlier
     * partial matches first, the one the event starts last). For {@code a followedByAny b followedBy c} with a
     * bound of 3 over {@code a1 b1 a2 b2}, at {@code b2} the runs {@code a1 b1}, {@code a1} and {@code a2}
     * continue as {@code a1 b1}, {@code a1 b2} and {@code a2 b2}; the branches of {@code a1} and {@code a2}
     * that keep waiting for another {@code b} are dropped, so {@code c1} still completes all three.
     */
    REJECT_NEW,
    /** Throw {@link PartialMatchLimitException}; the key's state is left as it was before the event. */
    FAIL
}
