package io.cepheus.benchmarks.compare;

import io.cepheus.benchmarks.workloads.RunResult;
import java.util.Arrays;

/**
 * The measured runs of one engine on one comparison. Arrays hold one value per measured run, in run order.
 *
 * @param engine          the engine's name
 * @param result          what every run produced (all runs agreed, or the harness would have failed)
 * @param eventsPerSecond throughput of each run
 * @param bytesPerEvent   bytes the harness thread allocated during each run, per input event
 * @param retainedBytes   heap still reachable from the finished run's state (used after a full GC minus used
 *                        after a full GC before feeding), or null when the comparison does not measure it
 */
public record EngineStats(String engine, RunResult result, double[] eventsPerSecond, double[] bytesPerEvent,
        long[] retainedBytes) {

    /** @return the median throughput */
    public double medianEventsPerSecond() {
        return median(eventsPerSecond);
    }

    /** @return the slowest run's throughput */
    public double minEventsPerSecond() {
        return Arrays.stream(eventsPerSecond).min().orElseThrow();
    }

    /** @return the fastest run's throughput */
    public double maxEventsPerSecond() {
        return Arrays.stream(eventsPerSecond).max().orElseThrow();
    }

    /** @return the median allocation per event */
    public double medianBytesPerEvent() {
        return median(bytesPerEvent);
    }

    /** @return the median retained heap in bytes; only when {@link #retainedBytes} is measured */
    public double medianRetainedBytes() {
        return median(Arrays.stream(retainedBytes).asDoubleStream().toArray());
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
