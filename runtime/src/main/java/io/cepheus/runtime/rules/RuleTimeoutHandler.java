package io.cepheus.runtime.rules;

import io.cepheus.nfa.Match;

/**
 * Receives the timed-out partial matches of a rule set's rules. Runs on the worker thread of the key's shard.
 *
 * @param <T> the event type
 */
@FunctionalInterface
public interface RuleTimeoutHandler<T> {
    /**
     * @param rule             the rule version whose partial match timed out
     * @param key              the key
     * @param partialMatch     the events taken before the window closed
     * @param timeoutTimestamp first event time + window (or previous event time + gap)
     */
    void onTimeout(RuleVersion rule, Object key, Match<T> partialMatch, long timeoutTimestamp);
}
