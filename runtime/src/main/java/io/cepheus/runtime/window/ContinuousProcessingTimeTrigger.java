package io.cepheus.runtime.window;

import java.time.Duration;

/**
 * Fires every {@code interval} of processing time while the window has elements (at multiples of the interval,
 * the last firing at the window's max timestamp).
 *
 * @param <T> the element type
 */
public final class ContinuousProcessingTimeTrigger<T> implements Trigger<T> {

    private final TriggerState<Long> nextFire = TriggerState.of("next-fire", Math::min, TriggerCodecs.LONG);
    private final long interval;

    private ContinuousProcessingTimeTrigger(long interval) {
        if (interval <= 0) {
            throw new IllegalArgumentException("ContinuousProcessingTimeTrigger needs an interval above 0, was "
                    + interval);
        }
        this.interval = interval;
    }

    /**
     * @param interval between firings
     * @param <T> the element type
     * @return the trigger
     */
    public static <T> ContinuousProcessingTimeTrigger<T> of(Duration interval) {
        return new ContinuousProcessingTimeTrigger<>(interval.toMillis());
    }

    @Override
    public TriggerResult onElement(T element, long timestamp, Window window, TriggerContext ctx) {
        if (ctx.getState(nextFire) == null) {
            long now = ctx.currentProcessingTime();
            registerNext(now - (now % interval), window, ctx);
        }
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onEventTime(long time, Window window, TriggerContext ctx) {
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onProcessingTime(long time, Window window, TriggerContext ctx) {
        Long next = ctx.getState(nextFire);
        if (next != null && next == time) {
            ctx.clearState(nextFire);
            if (time != window.maxTimestamp()) {
                // at the window's end the next fire time would be the end again: a timer at the time being fired
                // fires at once, for ever (Flink's FLINK-35069: an event-time window whose end the clock has passed)
                registerNext(time, window, ctx);
            }
            return TriggerResult.FIRE;
        }
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
            ctx.registerProcessingTimeTimer(next);
        }
    }

    @Override
    public void clear(Window window, TriggerContext ctx) {
        Long next = ctx.getState(nextFire);
        if (next != null) {
            ctx.deleteProcessingTimeTimer(next);
            ctx.clearState(nextFire);
        }
    }

    private void registerNext(long time, Window window, TriggerContext ctx) {
        long next = Math.min(time + interval, window.maxTimestamp());
        ctx.setState(nextFire, next);
        ctx.registerProcessingTimeTimer(next);
    }

    @Override
    public java.util.List<TriggerState<?>> states() {
        return java.util.List.of(nextFire);
    }
}
