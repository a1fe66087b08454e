package io.cepheus.benchmarks;

import io.cepheus.benchmarks.workloads.*;
import java.util.Locale;

/**
 * One paced run through the runtime ({@link RuntimeWorkloadRunner#runPaced}): its counts, the latency of every
 * match from the (scheduled) send of its last event to its handler, and how well the producer kept the rate.
 *
 * @param result                  counts and checksum
 * @param targetEventsPerSecond   the rate asked for
 * @param achievedEventsPerSecond events over the time from the first to the last send
 * @param maxProducerLagNanos     the most a send started after its due time
 * @param latencyNanos            one latency per match, sorted ascending
 */
public record PacedRun(RunResult result, long targetEventsPerSecond, double achievedEventsPerSecond,
        long maxProducerLagNanos, long[] latencyNanos) {

    /**
     * @param fraction in (0, 1], e.g. 0.99
     * @return the nearest-rank percentile of the latencies in nanoseconds (0 if there are none)
     */
    public long percentile(double fraction) {
        if (!(fraction > 0 && fraction <= 1)) {
            throw new IllegalArgumentException("fraction must be in (0, 1], was " + fraction);
        }
        if (latencyNanos.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(fraction * latencyNanos.length);
        return latencyNanos[Math.max(0, rank - 1)];
    }

    /** @return the largest latency in nanoseconds (0 if there are none) */
    public long maxLatency() {
        return latencyNanos.length == 0 ? 0 : latencyNanos[latencyNanos.length - 1];
    }

    /** @return a one-line summary in microseconds */
    public String summary() {
        return String.format(Locale.ROOT, "p50 %,.0f us, p90 %,.0f us, p99 %,.0f us, p99.9 %,.0f us, max %,.0f us "
                        + "(%,d matches; sent at %.3f M events/s for %.3f M asked, producer lag max %,.0f us)",
                percentile(0.50) / 1e3, percentile(0.90) / 1e3, percentile(0.99) / 1e3, percentile(0.999) / 1e3,
                maxLatency() / 1e3, latencyNanos.length, achievedEventsPerSecond / 1e6,
                targetEventsPerSecond / 1e6, maxProducerLagNanos / 1e3);
    }
}
