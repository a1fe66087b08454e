package io.cepheus.runtime.window;

/**
 * Puts each element into zero or more windows. Implement it for custom windows: assigners emit
 * {@link TimeWindow}s ({@code [start, end)}) through a primitive sink so assigning allocates nothing;
 * {@link MergingWindowAssigner}s additionally have their windows merged as their
 * {@link MergingWindowAssigner#mergeWindows} decides (by default: those that overlap or touch).
 *
 * @param <T> the element type
 */
public interface WindowAssigner<T> {

    /**
     * Assigns an element to its windows.
     *
     * @param element   the element
     * @param timestamp its event time
     * @param context   the current processing time, for processing-time assigners
     * @param windows   receives every window {@code [start, end)} of the element
     */
    void assignWindows(T element, long timestamp, Context context, WindowSink windows);

    /** @return the trigger used when none is set */
    Trigger<T> defaultTrigger();

    /** @return whether windows follow event time (watermarks) rather than processing time */
    boolean isEventTime();

    /** What an assigner may read. */
    interface Context {
        /** @return the current processing time (the engine's clock) */
        long currentProcessingTime();
    }

    /** Receives the windows of one element. */
    @FunctionalInterface
    interface WindowSink {
        /**
         * @param start first timestamp of the window
         * @param end   first timestamp after it; {@code end > start}
         */
        void add(long start, long end);
    }
}
