package io.cepheus.benchmarks;

/** The monotonic clock the benchmark runners time themselves with; the only wall-clock read in this module. */
public final class StopwatchClock {

    private StopwatchClock() {
    }

    /** @return a monotonic time in nanoseconds, only meaningful as a difference */
    public static long nanos() {
        return System.nanoTime();
    }
}
