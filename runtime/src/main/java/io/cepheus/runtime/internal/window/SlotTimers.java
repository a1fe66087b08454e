package io.cepheus.runtime.internal.window;

import io.cepheus.runtime.internal.shard.TimerNamespace;
import io.cepheus.runtime.internal.timer.TimerService;

/**
 * The shard timers of {@link WindowOperator}'s windows: registered in the namespace of the window's slot index
 * and recorded in the slot, so removing a window deletes exactly its timers (a trigger that forgets one cannot
 * leave a timer that would hit a reused slot). Counts the pending ones. Owned by the shard thread.
 */
final class SlotTimers {

    private final int operatorId;
    private final TimerService timers;
    private long pending;

    SlotTimers(int operatorId, TimerService timers) {
        this.operatorId = operatorId;
        this.timers = timers;
    }

    /** @return timers registered and neither fired nor deleted */
    long pending() {
        return pending;
    }

    private long namespaceOf(WindowSlot w) {
        return TimerNamespace.of(operatorId, w.index);
    }

    void registerEventTimer(WindowSlot w, long t) {
        if (timers.registerEventTimeTimer(w.keyId, namespaceOf(w), t)) {
            w.addEventTimer(t);
            pending++;
        }
    }

    void deleteEventTimer(WindowSlot w, long t) {
        if (timers.deleteEventTimeTimer(w.keyId, namespaceOf(w), t)) {
            w.forgetEventTimer(t);
            pending--;
        }
    }

    void registerProcessingTimer(WindowSlot w, long t) {
        if (timers.registerProcessingTimeTimer(w.keyId, namespaceOf(w), t)) {
            w.addProcessingTimer(t);
            pending++;
        }
    }

    void deleteProcessingTimer(WindowSlot w, long t) {
        if (timers.deleteProcessingTimeTimer(w.keyId, namespaceOf(w), t)) {
            w.forgetProcessingTimer(t);
            pending--;
        }
    }

    /** An event-time timer of the window fired (the service already removed it). */
    void eventTimerFired(WindowSlot w, long t) {
        w.forgetEventTimer(t);
        pending--;
    }

    /** A processing-time timer of the window fired (the service already removed it). */
    void processingTimerFired(WindowSlot w, long t) {
        w.forgetProcessingTimer(t);
        pending--;
    }

    /** Deletes every timer still registered for the window. */
    void deleteAll(WindowSlot w) {
        for (int i = w.eventTimerCount - 1; i >= 0; i--) {
            deleteEventTimer(w, w.eventTimers[i]);
        }
        for (int i = w.processingTimerCount - 1; i >= 0; i--) {
            deleteProcessingTimer(w, w.processingTimers[i]);
        }
    }
}
