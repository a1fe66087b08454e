package io.cepheus.runtime;

/**
 * One pattern's counters: on one shard (in {@link ShardMetrics#patterns()}), or summed over the shards
 * ({@link PatternStream#metrics()}, {@link EngineMetrics#pattern(int)}). As published at the end of each shard's
 * latest batch, so they may trail by one batch.
 *
 * @param pattern                the pattern's id ({@link PatternStream#id()})
 * @param matches                matches emitted
 * @param timeouts               timed-out partial matches (counted whether or not a timeout handler is set)
 * @param partialMatches         live partial matches
 * @param rejectedPartialMatches partial matches (and completed matches a skip strategy would have held) dropped
 *                               because a key was at a bound ({@code NfaOptions.withMaxPartialMatchesPerKey} or
 *                               {@code withMaxBufferEntriesPerKey}, {@code OverflowPolicy.REJECT_NEW})
 * @param lateEvents             events that arrived behind the watermark (never matched)
 * @param deadLetters            events a condition threw on, or that broke the bound under
 *                               {@code OverflowPolicy.FAIL}
 */
public record PatternMetrics(int pattern, long matches, long timeouts, long partialMatches,
        long rejectedPartialMatches, long lateEvents, long deadLetters) {

    /**
     * @param other the same pattern's counters elsewhere (another shard)
     * @return the sums of both
     */
    PatternMetrics plus(PatternMetrics other) {
        return new PatternMetrics(pattern, matches + other.matches, timeouts + other.timeouts,
                partialMatches + other.partialMatches, rejectedPartialMatches + other.rejectedPartialMatches,
                lateEvents + other.lateEvents, deadLetters + other.deadLetters);
    }
}
