package io.cepheus.runtime;

import java.util.List;

/**
 * One shard's counters, as published at the end of its latest batch (so they may trail by one batch).
 *
 * @param shard                  the shard's number
 * @param events                 events received
 * @param lateEvents             events that arrived behind the watermark (sent to the late output, never matched)
 * @param deadLetters            events a condition threw on
 * @param matches                matches emitted (all patterns)
 * @param timeouts               timed-out partial matches emitted (all patterns)
 * @param partialMatches         live partial matches
 * @param rejectedPartialMatches partial matches dropped at a key's bound (all patterns; see
 *                               {@link PatternMetrics#rejectedPartialMatches()})
 * @param bufferedEvents         events waiting for the watermark
 * @param sharedBufferEntries    live shared-buffer entries of the NFAs
 * @param keys                   keys with pending state
 * @param watermark              the shard's watermark
 * @param queueDepth             records waiting in the shard's inbox (read live)
 * @param patterns               each pattern's counters on this shard, in pattern id order
 */
public record ShardMetrics(int shard, long events, long lateEvents, long deadLetters, long matches, long timeouts,
        long partialMatches, long rejectedPartialMatches, long bufferedEvents, long sharedBufferEntries, long keys,
        long watermark, int queueDepth, List<PatternMetrics> patterns) {

    /**
     * Copies the list.
     *
     * @param shard                  the shard's number
     * @param events                 events received
     * @param lateEvents             events that arrived behind the watermark (sent to the late output, never matched)
     * @param deadLetters            events a condition threw on
     * @param matches                matches emitted (all patterns)
     * @param timeouts               timed-out partial matches emitted (all patterns)
     * @param partialMatches         live partial matches
     * @param rejectedPartialMatches partial matches dropped at a key's bound (all patterns; see {@link
     *                               PatternMetrics#rejectedPartialMatches()})
     * @param bufferedEvents         events waiting for the watermark
     * @param sharedBufferEntries    live shared-buffer entries of the NFAs
     * @param keys                   keys with pending state
     * @param watermark              the shard's watermark
     * @param queueDepth             records waiting in the shard's inbox (read live)
     * @param patterns               each pattern's counters on this shard, in pattern id order
     */
    public ShardMetrics {
        patterns = List.copyOf(patterns);
    }
}
