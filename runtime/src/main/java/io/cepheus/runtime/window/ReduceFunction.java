package io.cepheus.runtime.window;

/**
 * Combines two values into one of the same type; a window keeps one value, never its elements.
 *
 * @param <T> the value type
 */
@FunctionalInterface
public interface ReduceFunction<T> {
    /** @return the combination of {@code a} (so far) and {@code b} (the next value) */
    T reduce(T a, T b);
}
