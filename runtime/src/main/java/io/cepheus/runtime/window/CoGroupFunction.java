package io.cepheus.runtime.window;

import io.cepheus.runtime.Collector;

/**
 * Receives, per key and window firing, all left and all right elements of the window (either may be empty):
 * outer joins and anything else over both lists.
 *
 * @param <L>   left type
 * @param <R>   right type
 * @param <OUT> result type
 */
@FunctionalInterface
public interface CoGroupFunction<L, R, OUT> {
    /**
     * @param left  the left elements in arrival order (valid during the call)
     * @param right the right elements in arrival order
     * @param out   receives results
     */
    void coGroup(Iterable<L> left, Iterable<R> right, Collector<OUT> out);
}
