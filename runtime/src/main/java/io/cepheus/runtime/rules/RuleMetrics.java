package io.cepheus.runtime.rules;

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
 */
public record RuleMetrics(RuleVersion rule, boolean inForce, long matches, long timeouts, long partialMatches,
        long discardedPartialMatches, long rejectedPartialMatches, long deadLetters) {

    /**
     * @param other the same rule version's counters on another shard
     * @return the sums
     */
    public RuleMetrics plus(RuleMetrics other) {
        return new RuleMetrics(rule, inForce || other.inForce, matches + other.matches, timeouts + other.timeouts,
                partialMatches + other.partialMatches, discardedPartialMatches + other.discardedPartialMatches,
                rejectedPartialMatches + other.rejectedPartialMatches, deadLetters + other.deadLetters);
    }
}
