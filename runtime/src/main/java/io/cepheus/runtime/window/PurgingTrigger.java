package io.cepheus.runtime.window;

import java.util.Objects;

/**
 * Wraps a trigger so that every FIRE becomes FIRE_AND_PURGE: each firing emits only what arrived since the
 * previous one (discarding mode), and nothing when nothing did.
 *
 * @param <T> the element type
 */
public final class PurgingTrigger<T> implements Trigger<T> {

    private final Trigger<T> nested;

    private PurgingTrigger(Trigger<T> nested) {
        this.nested = Objects.requireNonNull(nested, "nested");
    }

    /**
     * @param nested the trigger to wrap
     * @param <T> the element type
     * @return the purging trigger
     */
    public static <T> PurgingTrigger<T> of(Trigger<T> nested) {
        return nested instanceof PurgingTrigger<T> p ? p : new PurgingTrigger<>(nested);
    }

    /** @return the wrapped trigger */
    public Trigger<T> nested() {
        return nested;
    }

    private static TriggerResult purging(TriggerResult r) {
        return r.isFire() ? TriggerResult.FIRE_AND_PURGE : r;
    }

    @Override
    public TriggerResult onElement(T element, long timestamp, Window window, TriggerContext ctx) {
        return purging(nested.onElement(element, timestamp, window, ctx));
    }

    @Override
    public TriggerResult onEventTime(long time, Window window, TriggerContext ctx) {
        return purging(nested.onEventTime(time, window, ctx));
    }

    @Override
    public TriggerResult onProcessingTime(long time, Window window, TriggerContext ctx) {
        return purging(nested.onProcessingTime(time, window, ctx));
    }

    @Override
    public boolean canMerge() {
        return nested.canMerge();
    }

    @Override
    public void onMerge(Window window, OnMergeContext ctx) {
        nested.onMerge(window, ctx);
    }

    @Override
    public void clear(Window window, TriggerContext ctx) {
        nested.clear(window, ctx);
    }

    @Override
    public String toString() {
        return "PurgingTrigger(" + nested + ")";
    }

    @Override
    public java.util.List<TriggerState<?>> states() {
        return nested.states();
    }
}
