package io.cepheus.runtime.window;

import java.time.Duration;

/**
 * Fixed-size, non-overlapping event-time windows {@code [k * size + offset, (k + 1) * size + offset)}; the
 * offset shifts them. Days from local midnight in a zone at UTC+08:00 are size 1 day, offset -8 hours (Flink's
 * example): windows {@code [16:00Z, 16:00Z)}; at UTC-08:00 the offset is +8 hours.
 *
 * @param <T> the element type
 */
public final class TumblingEventTimeWindows<T> implements WindowAssigner<T> {

    private final long size;
    private final long offset;

    private TumblingEventTimeWindows(long size, long offset) {
        if (size <= 0 || Math.abs(offset) >= size) {
            throw new IllegalArgumentException("TumblingEventTimeWindows parameters must satisfy abs(offset) < size"
                    + " (size " + size + " ms, offset " + offset + " ms)");
        }
        this.size = size;
        this.offset = offset;
    }

    /**
     * @param size the window size
     * @param <T> the element type
     * @return the assigner
     */
    public static <T> TumblingEventTimeWindows<T> of(Duration size) {
        return new TumblingEventTimeWindows<>(size.toMillis(), 0);
    }

    /**
     * @param size   the window size
     * @param offset shifts the windows, {@code |offset| < size}
     * @param <T>    the element type
     * @return the assigner
     */
    public static <T> TumblingEventTimeWindows<T> of(Duration size, Duration offset) {
        return new TumblingEventTimeWindows<>(size.toMillis(), offset.toMillis());
    }

    @Override
    public void assignWindows(T element, long timestamp, Context context, WindowSink windows) {
        long start = TimeWindow.windowStart(timestamp, offset, size);
        windows.add(start, start + size);
    }

    /** @return the window size in ms */
    public long size() {
        return size;
    }

    /** @return the offset in ms */
    public long offset() {
        return offset;
    }

    @Override
    public Trigger<T> defaultTrigger() {
        return EventTimeTrigger.create();
    }

    @Override
    public boolean isEventTime() {
        return true;
    }

    @Override
    public String toString() {
        return "TumblingEventTimeWindows(" + size + (offset == 0 ? "" : ", offset " + offset) + ")";
    }
}
