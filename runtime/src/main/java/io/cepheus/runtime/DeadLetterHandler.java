package io.cepheus.runtime;

/**
 * Receives events that user code threw on (the dead-letter side output), with the exception. Runs on the
 * worker thread of the key's shard.
 *
 * @param <T> the event type
 */
@FunctionalInterface
public interface DeadLetterHandler<T> {
    /**
     * @param key       the event's key
     * @param event     the event, which was not applied (the key's state is as before it)
     * @param timestamp its event time
     * @param error     what was thrown
     */
    void onDeadLetter(Object key, T event, long timestamp, RuntimeException error);
}
