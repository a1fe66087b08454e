package io.cepheus.runtime.window;

/**
 * Receives window results (or retractions) on the shard thread that owns the key.
 *
 * @param <R> the result type
 */
@FunctionalInterface
public interface WindowResultHandler<R> {
    /**
     * @param key       the key
     * @param window    the window
     * @param result    the result
     * @param timestamp the window's max timestamp
     */
    void onResult(Object key, Window window, R result, long timestamp);
}
