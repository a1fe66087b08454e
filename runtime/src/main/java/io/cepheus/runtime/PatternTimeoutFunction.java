package io.cepheus.runtime;

import io.cepheus.nfa.Match;

/**
 * Turns each timed-out partial match into one record for a timeout side output, like Flink's
 * {@code PatternTimeoutFunction}. Registered with {@link PatternStream#sideOutputTimeouts}; runs on the worker
 * thread of the key's shard.
 *
 * @param <T> the event type
 * @param <L> the record type
 */
@FunctionalInterface
public interface PatternTimeoutFunction<T, L> {
    /**
     * @param partialMatch     the events taken before the window closed
     * @param timeoutTimestamp first event time + window (or previous event time + gap)
     * @return the record (null: none)
     */
    L timeout(Match<T> partialMatch, long timeoutTimestamp);
}
