package io.cepheus.runtime.window;

import java.time.Duration;

/**
 * Event-time windows of length {@code size} starting every {@code slide}: an element belongs to every window
 * that covers it (about size / slide of them; none if size &lt; slide and it falls in a gap).
 *
 * @param <T> the element type
 */
public final class SlidingEventTimeWindows<T> implements WindowAssigner<T> {

    private final long size;
    private final long slide;
    private final long offset;

    private SlidingEventTimeWindows(long size, long slide, long offset) {
        if (slide <= 0 || Math.abs(offset) >= slide || size <= 0) {
            throw new IllegalArgumentException("SlidingEventTimeWindows parameters must satisfy abs(offset) < slide"
                    + " and size > 0 (size " + size + " ms, slide " + slide + " ms, offset " + offset + " ms)");
        }
        this.size = size;
        this.slide = slide;
        this.offset = offset;
    }

    /**
     * @param size window length
     * @param slide distance between starts
     * @param <T> element type
     * @return the assigner
     */
    public static <T> SlidingEventTimeWindows<T> of(Duration size, Duration slide) {
        return new SlidingEventTimeWindows<>(size.toMillis(), slide.toMillis(), 0);
    }

    /**
     * @param size   window length
     * @param slide  distance between window starts
     * @param offset shifts the windows, {@code |offset| < slide}
     * @param <T>    the element type
     * @return the assigner
     */
    public static <T> SlidingEventTimeWindows<T> of(Duration size, Duration slide, Duration offset) {
        return new SlidingEventTimeWindows<>(size.toMillis(), slide.toMillis(), offset.toMillis());
    }

    @Override
    public void assignWindows(T element, long timestamp, Context context, WindowSink windows) {
        long lastStart = TimeWindow.windowStart(timestamp, offset, slide);
        for (long start = lastStart; start > timestamp - size; start -= slide) {
            windows.add(start, start + size);
        }
    }

    /** @return window length in ms */
    public long size() {
        return size;
    }

    /** @return slide in ms */
    public long slide() {
        return slide;
    }

    /** @return offset in ms */
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
        return "SlidingEventTimeWindows(" + size + ", " + slide + (offset == 0 ? "" : ", offset " + offset) + ")";
    }
}
