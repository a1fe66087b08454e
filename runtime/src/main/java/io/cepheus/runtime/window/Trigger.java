package io.cepheus.runtime.window;

/**
 * Decides when a window is evaluated (fired) and when its contents are dropped (purged). Triggers are called on
 * the shard thread with the window and a context for per-window state and timers; one trigger instance serves
 * every window of an operator, so it keeps its state in the context ({@link TriggerState}), not in fields.
 *
 * @param <T> the element type
 */
public interface Trigger<T> {

    /**
     * An element was added to {@code window}.
     *
     * @param element   the element
     * @param timestamp its timestamp
     * @param window    the window
     * @param ctx       its state and timers
     * @return what to do with the window
     */
    TriggerResult onElement(T element, long timestamp, Window window, TriggerContext ctx);

    /**
     * An event-time timer this trigger registered for {@code window} fired at {@code time}.
     *
     * @param time   the timer's time
     * @param window the window
     * @param ctx    its state and timers
     * @return what to do with the window
     */
    TriggerResult onEventTime(long time, Window window, TriggerContext ctx);

    /**
     * A processing-time timer this trigger registered for {@code window} fired at {@code time}.
     *
     * @param time   the timer's time
     * @param window the window
     * @param ctx    its state and timers
     * @return what to do with the window
     */
    TriggerResult onProcessingTime(long time, Window window, TriggerContext ctx);

    /** @return whether this trigger supports merging windows (needed by session windows) */
    default boolean canMerge() {
        return false;
    }

    /**
     * Windows merged into {@code window}: merge their state ({@link OnMergeContext#mergeState}) and register
     * the timers the merged window needs.
     *
     * @param window the merged window
     * @param ctx    its state and timers, and the merged windows' states
     */
    default void onMerge(Window window, OnMergeContext ctx) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not support merging windows");
    }

    /**
     * The window is removed: delete its timers and state (the operator deletes leftovers anyway).
     *
     * @param window the window
     * @param ctx    its state and timers
     */
    void clear(Window window, TriggerContext ctx);

    /**
     * The states this trigger keeps, so its windows take part in snapshots ({@code CepEngine.Builder#snapshots}):
     * each with a codec ({@link TriggerState#of(String, java.util.function.BinaryOperator,
     * io.cepheus.nfa.EventCodec)}) and a name no other of them has. Return the very objects the trigger uses (its
     * fields, made once): states are told apart by identity. On an engine with snapshots, setting a state that is
     * not listed here fails as an error of the trigger. None by default: a trigger that keeps state must
     * list it to be snapshotted; the built-in triggers do.
     *
     * @return the trigger's states
     */
    default java.util.List<TriggerState<?>> states() {
        return java.util.List.of();
    }

    /** Per-window state, timers and time for a trigger call. Valid only during the call. */
    interface TriggerContext {
        /** @return the current watermark (event time) */
        long currentWatermark();

        /** @return the current processing time */
        long currentProcessingTime();

        /**
         * Registers an event-time timer for the window (calls {@link Trigger#onEventTime} when due).
         *
         * @param time the timer's time
         */
        void registerEventTimeTimer(long time);

        /**
         * Deletes an event-time timer of the window.
         *
         * @param time the timer's time
         */
        void deleteEventTimeTimer(long time);

        /**
         * Registers a processing-time timer for the window.
         *
         * @param time the timer's time
         */
        void registerProcessingTimeTimer(long time);

        /**
         * Deletes a processing-time timer of the window.
         *
         * @param time the timer's time
         */
        void deleteProcessingTimeTimer(long time);

        /**
         * @param state the state
         * @param <V>   its value type
         * @return the window's value of {@code state}, or null
         */
        <V> V getState(TriggerState<V> state);

        /**
         * Sets the window's value of {@code state} (null clears it).
         *
         * @param state the state
         * @param value its new value
         * @param <V>   its value type
         */
        <V> void setState(TriggerState<V> state, V value);

        /**
         * Clears the window's value of {@code state}.
         *
         * @param state the state
         * @param <V>   its value type
         */
        default <V> void clearState(TriggerState<V> state) {
            setState(state, null);
        }
    }

    /** The context of {@link Trigger#onMerge}. */
    interface OnMergeContext extends TriggerContext {
        /**
         * Combines the merged windows' values of {@code state} into the new window's (with its merge function).
         *
         * @param state the state
         * @param <V>   its value type
         */
        <V> void mergeState(TriggerState<V> state);
    }
}
