package io.cepheus.runtime.window;

import java.time.Duration;
import java.util.Objects;

/**
 * Sessions over processing time: each element opens {@code [now, now + gap)}; windows that overlap or touch merge
 * (the default rule of {@link MergingWindowAssigner#mergeWindows}, applied in place: the class is final).
 *
 * @param <T> the element type
 */
public final class ProcessingTimeSessionWindows<T> implements MergingWindowAssigner<T> {

    private final long gap;
    private final SessionGapExtractor<? super T> dynamicGap;

    private ProcessingTimeSessionWindows(long gap, SessionGapExtractor<? super T> dynamicGap) {
        if (dynamicGap == null && gap <= 0) {
            throw new IllegalArgumentException("ProcessingTimeSessionWindows parameters must satisfy 0 < size");
        }
        this.gap = gap;
        this.dynamicGap = dynamicGap;
    }

    /**
     * @param gap the session gap, above 0
     * @param <T> element type
     * @return the assigner
     */
    public static <T> ProcessingTimeSessionWindows<T> withGap(Duration gap) {
        return new ProcessingTimeSessionWindows<>(gap.toMillis(), null);
    }

    /**
     * @param gap each element's gap
     * @param <T> element type
     * @return the assigner
     */
    public static <T> ProcessingTimeSessionWindows<T> withDynamicGap(SessionGapExtractor<? super T> gap) {
        return new ProcessingTimeSessionWindows<>(0, Objects.requireNonNull(gap, "gap"));
    }

    @Override
    public void assignWindows(T element, long timestamp, Context context, WindowSink windows) {
        long now = context.currentProcessingTime();
        windows.add(now, now + SessionGaps.gapOf(element, gap, dynamicGap));
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
        return "ProcessingTimeSessionWindows(" + (dynamicGap == null ? gap : "dynamic") + ")";
    }
}
