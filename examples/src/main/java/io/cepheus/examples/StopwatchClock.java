package io.cepheus.examples;

/**
 * The monotonic clock throughput figures are timed with; the only wall-clock read in the examples. Code that
 * needs time takes a {@code LongSupplier} and is given {@code StopwatchClock::nanos}, so tests can inject theirs.
 */
public final class StopwatchClock {

    private StopwatchClock() {
    }

    /** @return a monotonic time in nanoseconds, only meaningful as a difference */
    public static long nanos() {
        return System.nanoTime();
    }
}
