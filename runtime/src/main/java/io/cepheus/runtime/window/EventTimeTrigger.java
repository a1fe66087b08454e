package io.cepheus.runtime.window;

/**
 * Fires once the watermark reaches the window's max timestamp (end - 1), and at once for an element added to a
 * window the watermark has already passed (a late firing within allowed lateness). The default of event-time
 * assigners.
 *
 * @param <T> the element type
 */
public final class EventTimeTrigger<T> implements Trigger<T> {

    private EventTimeTrigger() {
    }

    /**
     * @param <T> the element type
     * @return the trigger
     */
    public static <T> EventTimeTrigger<T> create() {
        return new EventTimeTrigger<>();
    }

    @Override
    public TriggerResult onElement(T element, long timestamp, Window window, TriggerContext ctx) {
        if (window.maxTimestamp() <= ctx.currentWatermark()) {
            return TriggerResult.FIRE;
        }
        ctx.registerEventTimeTimer(window.maxTimestamp());
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onEventTime(long time, Window window, TriggerContext ctx) {
        return time == window.maxTimestamp() ? TriggerResult.FIRE : TriggerResult.CONTINUE;
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
        if (window.maxTimestamp() > ctx.currentWatermark()) {
            ctx.registerEventTimeTimer(window.maxTimestamp());
        }
    }

    @Override
    public void clear(Window window, TriggerContext ctx) {
        ctx.deleteEventTimeTimer(window.maxTimestamp());
    }

    @Override
    public String toString() {
        return "EventTimeTrigger()";
    }
}
