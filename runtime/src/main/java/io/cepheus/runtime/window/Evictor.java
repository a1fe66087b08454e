package io.cepheus.runtime.window;

/**
 * Removes elements from a window's contents before and/or after the window function runs. Evicted elements are
 * gone from the window for later firings too. A window with an evictor keeps every element (no incremental
 * pre-aggregation), as in Flink.
 *
 * @param <T> the element type
 */
public interface Evictor<T> {

    /**
     * Called before the window function with the window's contents in arrival order.
     *
     * @param elements the window's contents
     * @param window   the window
     */
    void evictBefore(Elements<T> elements, Window window);

    /**
     * Called after the window function with what remained.
     *
     * @param elements the window's contents
     * @param window   the window
     */
    void evictAfter(Elements<T> elements, Window window);

    /**
     * A window's elements as an evictor sees them: positions {@code 0..size()-1} in arrival order; evicted ones
     * are skipped by later evictors and the window function. Valid only during the call.
     *
     * @param <T> the element type
     */
    interface Elements<T> {
        /** @return the number of positions (evicted ones included) */
        int size();

        /**
         * @param i a position
         * @return the element at {@code i}
         */
        T value(int i);

        /**
         * @param i a position
         * @return the timestamp of the element at {@code i}
         */
        long timestamp(int i);

        /**
         * @param i a position
         * @return whether the element at {@code i} was evicted
         */
        boolean isEvicted(int i);

        /**
         * Evicts the element at {@code i}.
         *
         * @param i a position
         */
        void evict(int i);

        /** @return the number of elements not evicted */
        int remaining();
    }
}
