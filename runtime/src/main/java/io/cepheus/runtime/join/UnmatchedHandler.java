package io.cepheus.runtime.join;

/**
 * Receives the elements of one join input that found no partner (the "no payment within 5 minutes" output).
 * Runs on the worker thread of the key's shard.
 *
 * @param <X> the input's element type
 */
@FunctionalInterface
public interface UnmatchedHandler<X> {
    /**
     * @param key       the element's key
     * @param element   the element
     * @param timestamp the element's event time
     * @param closedAt  the event time at which it was known to stay unmatched (interval join: the end of its
     *                  interval, at least its own timestamp; temporal join: its own timestamp)
     */
    void onUnmatched(Object key, X element, long timestamp, long closedAt);
}
