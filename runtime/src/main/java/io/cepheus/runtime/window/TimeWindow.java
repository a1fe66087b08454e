package io.cepheus.runtime.window;

/**
 * The time interval {@code [start, end)}.
 *
 * @param start first timestamp in the window
 * @param end   first timestamp after the window
 */
public record TimeWindow(long start, long end) implements Window {

    /**
     * Validates the interval.
     *
     * @param start first timestamp in the window
     * @param end   first timestamp after the window
     */
    public TimeWindow {
        if (end <= start) {
            throw new IllegalArgumentException("a time window needs start < end, was [" + start + "," + end + ")");
        }
    }

    /** @return {@code end - 1} */
    @Override
    public long maxTimestamp() {
        return end - 1;
    }

    /**
     * @param other another window
     * @return whether the two windows overlap or touch (such session windows merge)
     */
    public boolean intersects(TimeWindow other) {
        return start <= other.end && end >= other.start;
    }

    /**
     * @param other another window
     * @return the smallest window covering both
     */
    public TimeWindow cover(TimeWindow other) {
        return new TimeWindow(Math.min(start, other.start), Math.max(end, other.end));
    }

    /**
     * The start of the window of size {@code size} (aligned to {@code offset}) that holds {@code timestamp}, for
     * negative timestamps too.
     *
     * @param timestamp the timestamp
     * @param offset    the alignment offset
     * @param size      the window size (or the slide of sliding windows)
     * @return the window's start
     */
    public static long windowStart(long timestamp, long offset, long size) {
        long remainder = (timestamp - offset) % size;
        return remainder < 0 ? timestamp - (remainder + size) : timestamp - remainder;
    }

    @Override
    public String toString() {
        return "[" + start + "," + end + ")";
    }
}
