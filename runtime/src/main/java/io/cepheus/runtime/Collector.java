package io.cepheus.runtime;

/**
 * Receives the results a user function emits during one call: a window's process, coGroup or flat-join
 * function, or a join's process function. Each result goes on at once to the stream's result handler, with the
 * key and record timestamp of the call (a window's max timestamp, a joined pair's timestamp). Valid only during
 * the call it is passed to, on the shard's thread.
 *
 * @param <R> the result type
 */
@FunctionalInterface
public interface Collector<R> {
    /** @param result one result */
    void collect(R result);
}
