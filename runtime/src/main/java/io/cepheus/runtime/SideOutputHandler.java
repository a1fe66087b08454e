package io.cepheus.runtime;

/**
 * Receives the records a process function emits to one {@link OutputTag}. Runs on the emitting shard's
 * worker thread.
 *
 * @param <X> the record type
 */
@FunctionalInterface
public interface SideOutputHandler<X> {
    /**
     * @param value     the record
     * @param timestamp the record time of the match being processed when it was emitted
     */
    void onOutput(X value, long timestamp);
}
