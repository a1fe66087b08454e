package io.cepheus.runtime.rules;

import java.util.List;

/**
 * What a restore did with the rules of a snapshot, given the rule set the restored engine was given: the state of
 * every rule whose id and version are unchanged is kept; a rule new to the set starts empty; the state of a rule
 * the set no longer has (another version, removed, or a version that was draining) is dropped, and reported here.
 *
 * @param kept         the versions whose state was restored
 * @param startedEmpty the versions the snapshot had no state for
 * @param dropped      the versions whose state was dropped, with what they held
 */
public record RestoredRules(List<RuleVersion> kept, List<RuleVersion> startedEmpty, List<Dropped> dropped) {

    /**
     * Copies the lists.
     *
     * @param kept         the versions whose state was restored
     * @param startedEmpty the versions the snapshot had no state for
     * @param dropped      the versions whose state was dropped, with what they held
     */
    public RestoredRules {
        kept = List.copyOf(kept);
        startedEmpty = List.copyOf(startedEmpty);
        dropped = List.copyOf(dropped);
    }

    /**
     * A rule version whose state the restore dropped.
     *
     * @param rule           the rule version
     * @param partialMatches its partial (and held) matches, over all shards
     * @param keys           the keys it held state for, over all shards
     */
    public record Dropped(RuleVersion rule, long partialMatches, long keys) {
    }
}
