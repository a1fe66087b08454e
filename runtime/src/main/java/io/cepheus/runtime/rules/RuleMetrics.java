package io.cepheus.runtime.rules;

import io.cepheus.nfa.StageCounters;
import java.util.ArrayList;
import java.util.List;

/**
 * One rule version's counters, summed over the shards as of each shard's latest batch.
 *
 * @param rule                    the rule version
 * @param inForce                 whether it is the version in force (false: it was replaced or removed and drains, or
 *                                is gone)
 * @param matches                 matches emitted
 * @param timeouts                partial matches timed out
 * @param partialMatches          partial matches alive now
 * @param discardedPartialMatches partial matches dropped when it was retired with {@link RetirePolicy#DISCARD}
 * @param rejectedPartialMatches  partial matches dropped at a key's bound
 * @param deadLetters             events a condition of it threw on
 * @param startedPartialMatches   partial matches begun, counted with the stage counters (0 without them); since the
 *                                engine started (not restored from a snapshot)
 * @param prunedPartialMatches    partial matches its after-match skip strategy discarded; since the engine started
 * @param stages                  per stage, in pattern order: events tested and taken there, partial matches an event
 *                                ended there and those that timed out there; since the engine started. An event the
 *                                rule set's index shows cannot begin the rule, on a key where the version holds
 *                                nothing, is not tested; empty unless the engine's
 *                                {@code NfaOptions.withStageCounters(true)}
 */
public record RuleMetrics(RuleVersion rule, boolean inForce, long matches, long timeouts, long partialMatches,
        long discardedPartialMatches, long rejectedPartialMatches, long deadLetters, long startedPartialMatches,
        long prunedPartialMatches, List<StageCounters> stages) {

    /**
     * Copies the stages.
     *
     * @param rule                    the rule version
     * @param inForce                 whether it is the version in force
     * @param matches                 matches emitted
     * @param timeouts                partial matches timed out
     * @param partialMatches          partial matches alive now
     * @param discardedPartialMatches partial matches dropped at retirement
     * @param rejectedPartialMatches  partial matches dropped at a key's bound
     * @param deadLetters             events a condition threw on
     * @param startedPartialMatches   partial matches begun
     * @param prunedPartialMatches    partial matches the skip strategy discarded
     * @param stages                  per-stage counters
     */
    public RuleMetrics {
        stages = List.copyOf(stages);
    }

    /**
     * @param other the same rule version's counters on another shard
     * @return the sums
     */
    public RuleMetrics plus(RuleMetrics other) {
        List<StageCounters> summed;
        if (stages.isEmpty() || other.stages.isEmpty()) {
            summed = stages.isEmpty() ? other.stages : stages;
        } else {
            summed = new ArrayList<>(stages.size());
            for (int i = 0; i < stages.size(); i++) {
                summed.add(stages.get(i).plus(other.stages.get(i)));
            }
        }
        return new RuleMetrics(rule, inForce || other.inForce, matches + other.matches, timeouts + other.timeouts,
                partialMatches + other.partialMatches, discardedPartialMatches + other.discardedPartialMatches,
                rejectedPartialMatches + other.rejectedPartialMatches, deadLetters + other.deadLetters,
                startedPartialMatches + other.startedPartialMatches, prunedPartialMatches + other.prunedPartialMatches,
                summed);
    }
}
