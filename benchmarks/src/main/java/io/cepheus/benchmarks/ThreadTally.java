package io.cepheus.benchmarks;

/**
 * What the handlers of one engine run counted on one shard thread: matches, timeouts, late events, the
 * {@link MatchChecksum}, and optionally one send-to-emission latency per match.
 *
 * <p>Owned by the shard thread that created it (through {@link PerThreadTallies}); plain fields, no atomics:
 * the only other reader is the benchmark thread after {@code CepEngine.close()} has waited for every shard to
 * finish, which orders all these writes before its reads.
 */
import io.cepheus.benchmarks.workloads.*;
final class ThreadTally {

    long matches;
    long timeouts;
    long lateEvents;
    long checksum;
    private final long[] latencyNanos;
    private int latencyCount;

    /** @param latencyCapacity the most latencies this thread may record (0 when latency is not measured) */
    ThreadTally(int latencyCapacity) {
        this.latencyNanos = new long[latencyCapacity];
    }

    /** Records one match's latency; fails loudly rather than dropping a sample. */
    void recordLatency(long nanos) {
        if (latencyCount == latencyNanos.length) {
            throw new IllegalStateException("more matches than the " + latencyNanos.length
                    + " latency slots reserved: the workload produced more matches than WORKLOADS.md states");
        }
        latencyNanos[latencyCount++] = nanos;
    }

    int latencyCount() {
        return latencyCount;
    }

    long[] latencyNanos() {
        return latencyNanos;
    }
}
