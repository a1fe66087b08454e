package io.cepheus.nfa;

/**
 * What an {@link NfaMatcher} does when a key would keep more than {@link NfaOptions#maxPartialMatchesPerKey()}
 * partial matches plus held matches (completed matches a skip strategy holds back while an earlier partial
 * match is alive: they keep their events buffered just as partial matches do), or when those would keep more
 * than {@link NfaOptions#bufferEntryBound()} shared-buffer entries alive.
 *
 * <p>The check is made when an event has been matched, before the result is kept: the partial matches the
 * event leaves, plus the matches held before it, are compared with the bound.
 */
public enum OverflowPolicy {
    /**
     * Keep what the key already has, drop the new beyond the bound and count them
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
     *
     * <p>A match the event completes is new too: if the skip strategy holds it back and the key would then
     * exceed the bound, it is dropped (and counted), the latest-starting first. Held matches from earlier events
     * are not dropped for this bound; they leave less room for partial matches.
     *
     * <p>Then the entry bound ({@link NfaOptions#bufferEntryBound()}): while the key keeps more shared-buffer
     * entries alive than it allows, its latest-starting partial match is dropped (among equal starts the one
     * later in Flink's queue), and once none is left its latest-starting held match; each is counted. A step that
     * only extends runs (a looping stage that takes every event) can pass this bound where it cannot pass the
     * first, so both hold between any two events.
     */
    REJECT_NEW,
    /**
     * Throw {@link PartialMatchLimitException}; the key's state is left as it was before the event. The entry
     * bound is checked before the event lets anything go: the entries the key keeps plus those the event creates
     * must fit, so the check needs no undo. Matches
     * that the event completes are not refused: if the skip strategy holds them back beyond the bound, the
     * key's next event fails (until time releases them or times out partial matches).
     */
    FAIL
}
