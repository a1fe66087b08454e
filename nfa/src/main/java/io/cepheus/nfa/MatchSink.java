package io.cepheus.nfa;

/**
 * Receives what an {@link NfaMatcher} step produces, in emission order. Called on the matcher's thread,
 * synchronously, during {@link NfaMatcher#process} and {@link NfaMatcher#advanceTime}.
 *
 * @param <T> the event type
 */
@FunctionalInterface
public interface MatchSink<T> {

    /** @param match a complete match */
    void onMatch(Match<T> match);

    /**
     * A partial match whose window closed before it completed. Each distinct partial match (the same
     * events in the same stages) is reported once.
     *
     * @param partialMatch     the events taken so far, per stage
     * @param timeoutTimestamp first event time + window (or previous event time + gap for a
     *                         {@code PREVIOUS_AND_CURRENT} window)
     */
    default void onTimeout(Match<T> partialMatch, long timeoutTimestamp) {
    }

    /**
     * Whether {@link #onTimeout} should be called. Materialising a timed-out partial match costs allocation;
     * a sink that ignores timeouts returns false so the matcher skips it (timeouts are still counted).
     *
     * @return true by default
     */
    default boolean wantsTimeouts() {
        return true;
    }

    /** @param <T> the event type
     * @return a sink that drops everything (useful when only counts are read) */
    static <T> MatchSink<T> discarding() {
        return new MatchSink<>() {
            @Override
            public void onMatch(Match<T> match) {
            }

            @Override
            public boolean wantsTimeouts() {
                return false;
            }
        };
    }
}
