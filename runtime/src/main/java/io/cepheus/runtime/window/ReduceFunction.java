package io.cepheus.runtime.window;

/**
 * Combines two values into one of the same type; a window keeps one value, never its elements.
 *
 * @param <T> the value type
 */
@FunctionalInterface
public interface ReduceFunction<T> {
    /**
     * @param a the value so far
     * @param b the next value
     * @return the combination of {@code a} and {@code b}
     */
    T reduce(T a, T b);
}
