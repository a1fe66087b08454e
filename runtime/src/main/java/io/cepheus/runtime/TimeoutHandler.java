package io.cepheus.runtime;

import io.cepheus.nfa.Match;

/**
 * Receives a pattern's timed-out partial matches (the timeout side output): "an order with no shipment within
 * 1 hour". Runs on the worker thread of the key's shard.
 *
 * @param <T> the event type
 */
@FunctionalInterface
public interface TimeoutHandler<T> {
    /**
     * @param key              the key
     * @param partialMatch     the events taken before the window closed
     * @param timeoutTimestamp first event time + window (or previous event time + gap)
     */
    void onTimeout(Object key, Match<T> partialMatch, long timeoutTimestamp);
}
