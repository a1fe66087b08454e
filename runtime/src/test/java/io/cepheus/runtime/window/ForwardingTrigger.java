package io.cepheus.runtime.window;

/**
 * A trigger that does what another one does, under another class: the engine picks its fast window paths by the
 * trigger's class, so a test wraps the default trigger in this to run the same configuration on the general
 * operator and compare the two.
 *
 * @param <T> the element type
 */
final class ForwardingTrigger<T> implements Trigger<T> {

    private final Trigger<T> delegate;

    private ForwardingTrigger(Trigger<T> delegate) {
        this.delegate = delegate;
    }

    /** @return a trigger behaving as {@code delegate}, of another class */
    static <T> Trigger<T> of(Trigger<T> delegate) {
        return new ForwardingTrigger<>(delegate);
    }

    @Override
    public TriggerResult onElement(T element, long timestamp, Window window, TriggerContext ctx) {
        return delegate.onElement(element, timestamp, window, ctx);
    }

    @Override
    public TriggerResult onEventTime(long time, Window window, TriggerContext ctx) {
        return delegate.onEventTime(time, window, ctx);
    }

    @Override
    public TriggerResult onProcessingTime(long time, Window window, TriggerContext ctx) {
        return delegate.onProcessingTime(time, window, ctx);
    }

    @Override
    public boolean canMerge() {
        return delegate.canMerge();
    }

    @Override
    public void onMerge(Window window, OnMergeContext ctx) {
        delegate.onMerge(window, ctx);
    }

    @Override
    public void clear(Window window, TriggerContext ctx) {
        delegate.clear(window, ctx);
    }
}
