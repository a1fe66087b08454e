package io.cepheus.runtime;

import io.cepheus.nfa.Match;

/**
 * Turns each match into one result, like Flink's {@code PatternSelectFunction}. Registered with
 * {@link PatternStream#select(PatternSelectFunction, PatternResultHandler)}; runs on the worker thread of the
 * match's shard.
 *
 * @param <T> the event type
 * @param <R> the result type
 */
@FunctionalInterface
public interface PatternSelectFunction<T, R> {
    /**
     * @param match the events per stage
     * @return the result (null: no result)
     */
    R select(Match<T> match);
}
