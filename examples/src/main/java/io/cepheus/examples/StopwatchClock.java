package io.cepheus.examples;

/** The monotonic clock the demo's summary line is timed with; the only wall-clock read in the examples. */
final class StopwatchClock {

    private StopwatchClock() {
    }

    /** @return a monotonic time in nanoseconds, only meaningful as a difference */
    static long nanos() {
        return System.nanoTime();
    }
}
