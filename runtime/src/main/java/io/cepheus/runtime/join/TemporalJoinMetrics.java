package io.cepheus.runtime.join;

/**
 * A temporal join's counters, summed over the shards as published at the end of each shard's latest batch.
 *
 * @param bufferedElements stream elements waiting for the watermark to pass their timestamp
 * @param versions         table versions held (at most one per key at or before the watermark, plus those
 *                         after it)
 * @param joined           elements joined with a version (or with null, when so configured)
 * @param unmatched        elements that found no version and went to the unmatched output
 * @param lateElements     stream elements behind the watermark on arrival
 * @param lateVersions     table versions behind the watermark on arrival
 * @param deadLetters      elements the join function threw on
 */
public record TemporalJoinMetrics(long bufferedElements, long versions, long joined, long unmatched,
        long lateElements, long lateVersions, long deadLetters) {
}
