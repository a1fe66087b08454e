package io.cepheus.runtime.rules;

import io.cepheus.nfa.Match;

/**
 * Receives the matches of a rule set's rules. Runs on the worker thread of the key's shard: a handler shared by
 * several shards must be thread-safe.
 *
 * @param <T> the event type
 */
@FunctionalInterface
public interface RuleMatchHandler<T> {
    /**
     * @param rule      the rule version that matched
     * @param key       the key the match belongs to
     * @param match     the events per stage
     * @param timestamp the match's record time (as for a pattern: the completing event's time, or the watermark that
     *                  released it)
     */
    void onMatch(RuleVersion rule, Object key, Match<T> match, long timestamp);
}
