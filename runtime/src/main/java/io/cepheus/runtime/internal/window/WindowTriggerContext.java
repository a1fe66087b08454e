package io.cepheus.runtime.internal.window;

import io.cepheus.runtime.window.Trigger;
import io.cepheus.runtime.window.TriggerState;
import java.util.List;

/**
 * The trigger context of the window being handled: timers through {@link SlotTimers}, trigger state in the
 * {@link WindowSlot}, and, during {@code onMerge}, the windows being merged. One per operator, re-aimed per call;
 * owned by the shard thread.
 */
final class WindowTriggerContext implements Trigger.OnMergeContext {

    private final WindowTime time;
    private final SlotTimers timers;
    /** With snapshots: the trigger's declared states (all with codecs), the only ones it may set; else null. */
    private final List<TriggerState<?>> declared;
    private WindowSlot w;
    private WindowSlot[] mergedFrom;

    /**
     * @param declared with snapshots, the states the trigger declared ({@code Trigger.states()}, each with a
     *                 codec): setting any other fails; null without snapshots
     */
    WindowTriggerContext(WindowTime time, SlotTimers timers, List<TriggerState<?>> declared) {
        this.time = time;
        this.timers = timers;
        this.declared = declared;
    }

    /** Aims the context at {@code slot}. */
    void on(WindowSlot slot) {
        this.w = slot;
        this.mergedFrom = null;
    }

    /** Aims the context at a merge result and the windows merged into it. */
    void mergeOn(WindowSlot result, WindowSlot[] merged) {
        this.w = result;
        this.mergedFrom = merged;
    }

    @Override
    public long currentWatermark() {
        return time.watermark();
    }

    @Override
    public long currentProcessingTime() {
        return time.processingTime();
    }

    @Override
    public void registerEventTimeTimer(long t) {
        timers.registerEventTimer(w, t);
    }

    @Override
    public void deleteEventTimeTimer(long t) {
        timers.deleteEventTimer(w, t);
    }

    @Override
    public void registerProcessingTimeTimer(long t) {
        timers.registerProcessingTimer(w, t);
    }

    @Override
    public void deleteProcessingTimeTimer(long t) {
        timers.deleteProcessingTimer(w, t);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <X> X getState(TriggerState<X> state) {
        return (X) w.state(state);
    }

    @Override
    public <X> void setState(TriggerState<X> state, X value) {
        if (declared != null && value != null && !isDeclared(state)) {
            throw new IllegalStateException("the trigger sets state '" + state.name() + "', which its states()"
                    + " does not list: on an engine with snapshots a trigger must list every state it keeps, each"
                    + " with a codec (TriggerState.of(name, merge, codec)), so that its windows can be written;"
                    + " states are told apart by identity, so list the very objects the trigger uses (its fields,"
                    + " made once), not new ones");
        }
        w.setState(state, value);
    }

    private boolean isDeclared(TriggerState<?> state) {
        for (int i = 0; i < declared.size(); i++) {
            if (declared.get(i) == state) {
                return true;
            }
        }
        return false;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <X> void mergeState(TriggerState<X> state) {
        if (mergedFrom == null) {
            throw new IllegalStateException("mergeState outside onMerge");
        }
        if (state.merge() == null) {
            throw new IllegalStateException("trigger state '" + state.name() + "' has no merge function");
        }
        for (WindowSlot m : mergedFrom) {
            X v = (X) m.state(state);
            if (v != null) {
                X cur = (X) w.state(state);
                w.setState(state, cur == null ? v : state.merge().apply(cur, v));
            }
        }
    }
}
