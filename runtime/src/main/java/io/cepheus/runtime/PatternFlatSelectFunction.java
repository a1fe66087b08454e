package io.cepheus.runtime;

import io.cepheus.nfa.Match;
import java.util.function.Consumer;

/**
 * Turns each match into zero or more results, like Flink's {@code PatternFlatSelectFunction}. Registered with
 * {@link PatternStream#flatSelect}; runs on the worker thread of the match's shard.
 *
 * @param <T> the event type
 * @param <R> the result type
 */
@FunctionalInterface
public interface PatternFlatSelectFunction<T, R> {
    /**
     * @param match the events per stage
     * @param out   receives the results, each handed on at once with the match's key and record timestamp
     */
    void flatSelect(Match<T> match, Consumer<? super R> out);
}
