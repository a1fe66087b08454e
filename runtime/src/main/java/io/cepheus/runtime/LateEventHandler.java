package io.cepheus.runtime;

/**
 * Receives late events (the late-data side output): events whose timestamp was not after the shard's
 * watermark when they arrived. They are never matched; each is counted whether or not a handler is set. Runs
 * on the worker thread of the key's shard.
 *
 * @param <T> the event type
 */
@FunctionalInterface
public interface LateEventHandler<T> {
    /**
     * @param key       the event's key
     * @param event     the event
     * @param timestamp its event time
     */
    void onLateEvent(Object key, T event, long timestamp);
}
