package io.cepheus.runtime.window;

import java.time.Duration;

/**
 * Early firings every {@code interval} of event time (at multiples of the interval, the first one after the
 * window's first element), then the final firing at the window end; each firing emits the contents so far (use
 * {@link PurgingTrigger} for only what arrived since the previous one).
 *
 * @param <T> the element type
 */
public final class ContinuousEventTimeTrigger<T> implements Trigger<T> {

    private final TriggerState<Long> nextFire = TriggerState.of("next-fire", Math::min, TriggerCodecs.LONG);
    private final long interval;

    private ContinuousEventTimeTrigger(long interval) {
        if (interval <= 0) {
            throw new IllegalArgumentException("ContinuousEventTimeTrigger needs an interval above 0, was " + interval);
        }
        this.interval = interval;
    }

    /**
     * @param interval between early firings
     * @param <T> the element type
     * @return the trigger
     */
    public static <T> ContinuousEventTimeTrigger<T> of(Duration interval) {
        return new ContinuousEventTimeTrigger<>(interval.toMillis());
    }

    @Override
    public TriggerResult onElement(T element, long timestamp, Window window, TriggerContext ctx) {
        if (window.maxTimestamp() <= ctx.currentWatermark()) {
            return TriggerResult.FIRE; // the window's end has passed: a late element fires at once
        }
        ctx.registerEventTimeTimer(window.maxTimestamp());
        if (ctx.getState(nextFire) == null) {
            registerNext(timestamp - (timestamp % interval), window, ctx);
        }
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onEventTime(long time, Window window, TriggerContext ctx) {
        if (time == window.maxTimestamp()) {
            return TriggerResult.FIRE;
        }
        Long next = ctx.getState(nextFire);
        if (next != null && next == time) {
            ctx.clearState(nextFire);
            registerNext(time, window, ctx);
            return TriggerResult.FIRE;
        }
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
        ctx.mergeState(nextFire);
        Long next = ctx.getState(nextFire);
        if (next != null) {
            ctx.registerEventTimeTimer(next);
        }
    }

    @Override
    public void clear(Window window, TriggerContext ctx) {
        Long next = ctx.getState(nextFire);
        if (next != null) {
            ctx.deleteEventTimeTimer(next);
            ctx.clearState(nextFire);
        }
    }

    private void registerNext(long time, Window window, TriggerContext ctx) {
        long next = Math.min(time + interval, window.maxTimestamp());
        ctx.setState(nextFire, next);
        ctx.registerEventTimeTimer(next);
    }

    @Override
    public String toString() {
        return "ContinuousEventTimeTrigger(" + interval + ")";
    }

    @Override
    public java.util.List<TriggerState<?>> states() {
        return java.util.List.of(nextFire);
    }
}
