package io.cepheus.runtime.window;

import java.time.Duration;

/**
 * Tumbling windows over processing time: an element goes into the window holding the engine clock's time when
 * its shard processes it; windows fire from processing-time timers.
 *
 * @param <T> the element type
 */
public final class TumblingProcessingTimeWindows<T> implements WindowAssigner<T> {

    private final long size;
    private final long offset;

    private TumblingProcessingTimeWindows(long size, long offset) {
        if (size <= 0 || Math.abs(offset) >= size) {
            throw new IllegalArgumentException("TumblingProcessingTimeWindows parameters must satisfy "
                    + "abs(offset) < size (size " + size + " ms, offset " + offset + " ms)");
        }
        this.size = size;
        this.offset = offset;
    }

    /**
     * @param size window size
     * @param <T> element type
     * @return the assigner
     */
    public static <T> TumblingProcessingTimeWindows<T> of(Duration size) {
        return new TumblingProcessingTimeWindows<>(size.toMillis(), 0);
    }

    /**
     * @param size window size
     * @param offset shift, |offset| &lt; size
     * @param <T> element type
     * @return the assigner
     */
    public static <T> TumblingProcessingTimeWindows<T> of(Duration size, Duration offset) {
        return new TumblingProcessingTimeWindows<>(size.toMillis(), offset.toMillis());
    }

    @Override
    public void assignWindows(T element, long timestamp, Context context, WindowSink windows) {
        long now = context.currentProcessingTime();
        long start = TimeWindow.windowStart(now, offset, size);
        windows.add(start, start + size);
    }

    @Override
    public Trigger<T> defaultTrigger() {
        return ProcessingTimeTrigger.create();
    }

    @Override
    public boolean isEventTime() {
        return false;
    }

    @Override
    public String toString() {
        return "TumblingProcessingTimeWindows(" + size + (offset == 0 ? "" : ", offset " + offset) + ")";
    }
}
