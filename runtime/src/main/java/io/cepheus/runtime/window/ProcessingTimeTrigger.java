package io.cepheus.runtime.window;

/**
 * Fires when processing time reaches the window's max timestamp. The default of processing-time assigners.
 *
 * @param <T> the element type
 */
public final class ProcessingTimeTrigger<T> implements Trigger<T> {

    private ProcessingTimeTrigger() {
    }

    /**
     * @param <T> the element type
     * @return the trigger
     */
    public static <T> ProcessingTimeTrigger<T> create() {
        return new ProcessingTimeTrigger<>();
    }

    @Override
    public TriggerResult onElement(T element, long timestamp, Window window, TriggerContext ctx) {
        ctx.registerProcessingTimeTimer(window.maxTimestamp());
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onEventTime(long time, Window window, TriggerContext ctx) {
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onProcessingTime(long time, Window window, TriggerContext ctx) {
        return TriggerResult.FIRE;
    }

    @Override
    public boolean canMerge() {
        return true;
    }

    @Override
    public void onMerge(Window window, OnMergeContext ctx) {
        if (window.maxTimestamp() > ctx.currentProcessingTime()) {
            ctx.registerProcessingTimeTimer(window.maxTimestamp());
        }
    }

    @Override
    public void clear(Window window, TriggerContext ctx) {
        ctx.deleteProcessingTimeTimer(window.maxTimestamp());
    }
}
