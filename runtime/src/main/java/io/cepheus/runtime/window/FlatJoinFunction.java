package io.cepheus.runtime.window;

import io.cepheus.runtime.Collector;

/**
 * Joins one left and one right element of the same key and window into zero or more results.
 *
 * @param <L>   left type
 * @param <R>   right type
 * @param <OUT> result type
 */
@FunctionalInterface
public interface FlatJoinFunction<L, R, OUT> {
    /**
     * Emits the results of the pair to {@code out}.
     *
     * @param left  the left element
     * @param right the right element
     * @param out   receives the results
     */
    void join(L left, R right, Collector<OUT> out);
}
