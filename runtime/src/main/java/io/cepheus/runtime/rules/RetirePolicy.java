package io.cepheus.runtime.rules;

/**
 * What happens to a rule version's partial matches when it is replaced or removed. Either way the events sent
 * before the change are matched by it, those sent after start only the new version.
 */
public enum RetirePolicy {
    /**
     * Its partial matches run to completion or timeout under it: the events sent after the change extend them (and
     * start none), and their matches and timeouts carry the old version. It is gone once it holds nothing.
     */
    DRAIN,
    /**
     * Its partial matches are dropped at the change: it sees no event sent after the change, and what it has not
     * completed once the events sent before it are matched is discarded and counted
     * ({@link RuleMetrics#discardedPartialMatches()}), without timeouts.
     */
    DISCARD
}
