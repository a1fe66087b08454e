package io.cepheus.runtime.window;

/**
 * Counters of one window operator summed over the shards, as of each shard's latest batch.
 *
 * @param windows          windows alive (with contents, trigger state or timers); for sliced tumbling/sliding
 *                         aggregation (no trigger, evictor or lateness set), keys holding slices
 * @param bufferedElements elements held in window contents (0 for incremental reduce/aggregate)
 * @param accumulators     accumulators held (incremental windows or slices)
 * @param keys             keys with live windows
 * @param firings          window evaluations that emitted
 * @param results          results emitted
 * @param retractions      retractions emitted (accumulating-and-retracting mode)
 * @param lateElements     elements dropped as late (sent to the late side output)
 * @param timers           timers pending for this operator
 */
public record WindowMetrics(long windows, long bufferedElements, long accumulators, long keys, long firings,
        long results, long retractions, long lateElements, long timers) {
}
