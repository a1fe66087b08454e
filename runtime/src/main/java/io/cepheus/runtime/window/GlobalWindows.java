package io.cepheus.runtime.window;

/**
 * One window per key that never ends ({@link GlobalWindow}). Its default trigger never fires: give it a trigger
 * (e.g. {@link CountTrigger}, purged for count windows), and mind that its state lives as long as the key unless
 * the trigger purges it. Nothing is ever late in a global window.
 *
 * @param <T> the element type
 */
public final class GlobalWindows<T> implements WindowAssigner<T> {

    private GlobalWindows() {
    }

    /**
     * @param <T> the element type
     * @return the assigner
     */
    public static <T> GlobalWindows<T> create() {
        return new GlobalWindows<>();
    }

    /** Emits the window {@code [Long.MIN_VALUE, Long.MAX_VALUE)}, which the operator treats as the global window. */
    @Override
    public void assignWindows(T element, long timestamp, Context context, WindowSink windows) {
        windows.add(Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /** @return a trigger that never fires */
    @Override
    public Trigger<T> defaultTrigger() {
        return new NeverTrigger<>();
    }

    @Override
    public boolean isEventTime() {
        return false;
    }

    @Override
    public String toString() {
        return "GlobalWindows()";
    }

    /** The default trigger of global windows: never fires, holds no state. */
    public static final class NeverTrigger<T> implements Trigger<T> {
        @Override
        public TriggerResult onElement(T element, long timestamp, Window window, TriggerContext ctx) {
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
        }

        @Override
        public void clear(Window window, TriggerContext ctx) {
        }
    }
}
