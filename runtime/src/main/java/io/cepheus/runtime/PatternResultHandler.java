package io.cepheus.runtime;

/**
 * Receives the results a select or flat-select function makes of a pattern's matches. Runs on the worker thread
 * of the match's shard: a handler shared by several shards must be thread-safe.
 *
 * @param <R> the result type
 */
@FunctionalInterface
public interface PatternResultHandler<R> {
    /**
     * @param key       the key of the match the result was made of
     * @param result    the result
     * @param timestamp the match's record time (see {@link MatchHandler#onMatch})
     */
    void onResult(Object key, R result, long timestamp);
}
