package io.cepheus.runtime.window;

/**
 * Joins one left and one right element of the same key and window.
 *
 * @param <L>   left type
 * @param <R>   right type
 * @param <OUT> result type
 */
@FunctionalInterface
public interface JoinFunction<L, R, OUT> {
    /**
     * @param left  the left element
     * @param right the right element
     * @return the joined result
     */
    OUT join(L left, R right);
}
