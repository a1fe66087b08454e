package io.cepheus.runtime.window;

import java.time.Duration;
import java.util.Objects;

/**
 * Event-time sessions: each element opens {@code [ts, ts + gap)}, and windows of a key that overlap or touch
 * merge, so a session ends after {@code gap} without elements (the gap counts from the previous element). A late
 * element (within allowed lateness) can bridge two sessions into one. The merge rule is
 * {@link MergingWindowAssigner#mergeWindows}' default; the class is final so that the engine can apply that rule in
 * place (see there). For another rule, write a {@link MergingWindowAssigner}.
 *
 * @param <T> the element type
 */
public final class EventTimeSessionWindows<T> implements MergingWindowAssigner<T> {

    private final long gap;
    private final SessionGapExtractor<? super T> dynamicGap;

    private EventTimeSessionWindows(long gap, SessionGapExtractor<? super T> dynamicGap) {
        if (dynamicGap == null && gap <= 0) {
            throw new IllegalArgumentException("EventTimeSessionWindows parameters must satisfy 0 < size (gap was "
                    + gap + " ms)");
        }
        this.gap = gap;
        this.dynamicGap = dynamicGap;
    }

    /**
     * @param gap the session gap, above 0
     * @param <T> the element type
     * @return the assigner
     */
    public static <T> EventTimeSessionWindows<T> withGap(Duration gap) {
        return new EventTimeSessionWindows<>(gap.toMillis(), null);
    }

    /**
     * @param gap each element's gap (a gap not above 0 makes that element a dead letter)
     * @param <T> the element type
     * @return the assigner
     */
    public static <T> EventTimeSessionWindows<T> withDynamicGap(SessionGapExtractor<? super T> gap) {
        return new EventTimeSessionWindows<>(0, Objects.requireNonNull(gap, "gap"));
    }

    /** @return the static gap in ms, or 0 when each element gives its own ({@link #withDynamicGap}) */
    public long gap() {
        return dynamicGap == null ? gap : 0;
    }

    @Override
    public void assignWindows(T element, long timestamp, Context context, WindowSink windows) {
        windows.add(timestamp, timestamp + SessionGaps.gapOf(element, gap, dynamicGap));
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
        return "EventTimeSessionWindows(" + (dynamicGap == null ? gap : "dynamic") + ")";
    }
}
