package io.cepheus.runtime.window;

/**
 * Receives the results of a window or join function call.
 *
 * @param <R> the result type
 */
@FunctionalInterface
public interface Collector<R> {
    /** @param value a result (emitted with the window's max timestamp) */
    void collect(R value);
}
