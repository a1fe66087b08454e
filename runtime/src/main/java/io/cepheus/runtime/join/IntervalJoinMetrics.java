package io.cepheus.runtime.join;

/**
 * An interval join's counters, summed over the shards as published at the end of each shard's latest batch
 * (so they may trail by one batch). After a final watermark of {@code Long.MAX_VALUE} both buffers are empty.
 *
 * @param bufferedLeft      left elements held now, waiting for partners
 * @param bufferedRight     right elements held now
 * @param peakBufferedLeft  the most left elements held at once (the sum of each shard's peak)
 * @param peakBufferedRight the most right elements held at once (the sum of each shard's peak)
 * @param pairs             pairs given to the join function
 * @param unmatchedLeft     left elements whose interval closed without a partner (counted in every join mode;
 *                          emitted only with a left or full outer join or an unmatched-left handler)
 * @param unmatchedRight    the same for right elements
 * @param lateLeft          left elements behind the watermark on arrival (to the left late output)
 * @param lateRight         right elements behind the watermark on arrival (to the right late output)
 * @param deadLetters       pairs or unmatched elements the join function threw on
 */
public record IntervalJoinMetrics(long bufferedLeft, long bufferedRight, long peakBufferedLeft,
        long peakBufferedRight, long pairs, long unmatchedLeft, long unmatchedRight, long lateLeft, long lateRight,
        long deadLetters) {

    /** @return elements held now, both sides */
    public long buffered() {
        return bufferedLeft + bufferedRight;
    }
}
