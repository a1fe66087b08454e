package io.cepheus.runtime.join;

/**
 * Receives a join's results. Runs on the worker thread of the key's shard: a handler shared by several shards
 * must be thread-safe.
 *
 * @param <OUT> the results' type
 */
@FunctionalInterface
public interface JoinResultHandler<OUT> {
    /**
     * @param key       the key of the joined elements
     * @param result    the result
     * @param timestamp its record time (interval join: the larger of the two timestamps; temporal join: the
     *                  element's timestamp)
     */
    void onResult(Object key, OUT result, long timestamp);
}
