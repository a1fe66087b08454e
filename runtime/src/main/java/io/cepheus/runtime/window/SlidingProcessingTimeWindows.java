package io.cepheus.runtime.window;

import java.time.Duration;

/**
 * Sliding windows over processing time (the engine clock's time when the shard processes an element).
 *
 * @param <T> the element type
 */
public final class SlidingProcessingTimeWindows<T> implements WindowAssigner<T> {

    private final long size;
    private final long slide;
    private final long offset;

    private SlidingProcessingTimeWindows(long size, long slide, long offset) {
        if (slide <= 0 || Math.abs(offset) >= slide || size <= 0) {
            throw new IllegalArgumentException("SlidingProcessingTimeWindows parameters must satisfy "
                    + "abs(offset) < slide and size > 0");
        }
        this.size = size;
        this.slide = slide;
        this.offset = offset;
    }

    /**
     * @param size window length
     * @param slide distance between starts
     * @param <T> element type
     * @return assigner
     */
    public static <T> SlidingProcessingTimeWindows<T> of(Duration size, Duration slide) {
        return new SlidingProcessingTimeWindows<>(size.toMillis(), slide.toMillis(), 0);
    }

    /**
     * @param size window length
     * @param slide distance between starts
     * @param offset shift, |offset| &lt; slide
     * @param <T> element type
     * @return the assigner
     */
    public static <T> SlidingProcessingTimeWindows<T> of(Duration size, Duration slide, Duration offset) {
        return new SlidingProcessingTimeWindows<>(size.toMillis(), slide.toMillis(), offset.toMillis());
    }

    @Override
    public void assignWindows(T element, long timestamp, Context context, WindowSink windows) {
        long now = context.currentProcessingTime();
        long lastStart = TimeWindow.windowStart(now, offset, slide);
        for (long start = lastStart; start > now - size; start -= slide) {
            windows.add(start, start + size);
        }
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
        return "SlidingProcessingTimeWindows(" + size + ", " + slide + (offset == 0 ? "" : ", offset " + offset) + ")";
    }
}
