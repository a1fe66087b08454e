package io.cepheus.runtime.internal.window;

import io.cepheus.runtime.OutputTag;
import io.cepheus.runtime.window.Window;

/**
 * Where a window operator's results go; called on the shard thread.
 *
 * @param <T> the element type
 * @param <R> the result type
 */
public interface WindowOutput<T, R> {

    /** A result of {@code window}, with record timestamp {@code timestamp} (the window's max timestamp). */
    void result(Object key, Window window, R value, long timestamp);

    /** Withdraws a result emitted earlier for {@code window} (accumulating-and-retracting mode). */
    void retract(Object key, Window window, R value, long timestamp);

    /** An element no window took because all its windows were past cleanup. */
    void late(Object key, T element, long timestamp);

    /** An element a user function threw on; by default the exception propagates and stops the shard. */
    default void deadLetter(Object key, T element, long timestamp, RuntimeException error) {
        throw error;
    }

    /**
     * A window function (trigger, evictor, reduce, aggregate or process function) threw while a window fired; the
     * firing produced nothing, and the operator went on with its other windows. By default the exception propagates.
     *
     * @param function  what threw, e.g. "window function"
     * @param key       the window's key
     * @param timestamp the firing's time (the window's max timestamp, or the timer's time)
     * @param error     what was thrown
     */
    default void failed(String function, Object key, long timestamp, RuntimeException error) {
        throw error;
    }

    /** A record a process function emitted to a side output. */
    <X> void sideOutput(OutputTag<X> tag, X value, long timestamp);
}
