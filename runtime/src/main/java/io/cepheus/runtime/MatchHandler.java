package io.cepheus.runtime;

import io.cepheus.nfa.Match;

/**
 * Receives a pattern's matches. Runs on the worker thread of the key's shard: handlers shared by several shards
 * must be thread-safe.
 *
 * @param <T> the event type
 */
@FunctionalInterface
public interface MatchHandler<T> {
    /**
     * @param key       the key the match belongs to
     * @param match     the events per stage
     * @param timestamp the match's record time: the event time of the event that completed it, or the watermark
     *                  that released it (a trailing {@code notFollowedBy}, a match held by a skip strategy)
     */
    void onMatch(Object key, Match<T> match, long timestamp);
}
