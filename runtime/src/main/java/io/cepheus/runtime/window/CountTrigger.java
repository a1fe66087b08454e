package io.cepheus.runtime.window;

/**
 * Fires every {@code n}-th element of a window (then counts again from zero); ignores time. Counts of merged
 * windows add up. Replaces the assigner's trigger: the window no longer fires at its end.
 *
 * @param <T> the element type
 */
public final class CountTrigger<T> implements Trigger<T> {

    /** A mutable cell, so counting allocates nothing per element. */
    private final TriggerState<long[]> count = TriggerState.of("count", (a, b) -> new long[] {a[0] + b[0]},
            TriggerCodecs.LONG_CELL);
    private final long maxCount;

    private CountTrigger(long maxCount) {
        if (maxCount < 1) {
            throw new IllegalArgumentException("CountTrigger needs a count of at least 1, was " + maxCount);
        }
        this.maxCount = maxCount;
    }

    /**
     * @param n elements per firing, at least 1
     * @param <T> the element type
     * @return the trigger
     */
    public static <T> CountTrigger<T> of(long n) {
        return new CountTrigger<>(n);
    }

    @Override
    public TriggerResult onElement(T element, long timestamp, Window window, TriggerContext ctx) {
        long[] cell = ctx.getState(count);
        if (cell == null) {
            cell = new long[1];
            ctx.setState(count, cell);
        }
        if (++cell[0] >= maxCount) {
            ctx.clearState(count);
            return TriggerResult.FIRE;
        }
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onEventTime(long time, Window window, TriggerContext ctx) {
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onProcessingTime(long time, Window window, TriggerContext ctx) {
        return TriggerResult.CONTINUE;
    }

    @Override
    public boolean canMerge() {
        return true;
    }

    @Override
    public void onMerge(Window window, OnMergeContext ctx) {
        ctx.mergeState(count);
    }

    @Override
    public void clear(Window window, TriggerContext ctx) {
        ctx.clearState(count);
    }

    @Override
    public String toString() {
        return "CountTrigger(" + maxCount + ")";
    }

    @Override
    public java.util.List<TriggerState<?>> states() {
        return java.util.List.of(count);
    }
}
