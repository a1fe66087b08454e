package io.cepheus.runtime.internal.window;

import com.carrotsearch.hppc.IntArrayList;
import io.cepheus.runtime.window.Trigger;
import java.util.Arrays;

/**
 * Merging windows (sessions) of {@link WindowOperator}: each key's live windows, and the merge of a new window
 * into those it overlaps or touches. The cover of them all replaces them in a new slot: contents merge, the
 * trigger merges its state ({@code onMerge}), the old windows are retracted (accumulating-and-retracting mode),
 * their trigger cleared and their slots removed. Owned by the shard thread.
 *
 * @param <T> the element type
 */
final class WindowMerger<T> {

    /** What the merger needs from the operator: opening and removing windows, and its lateness rule. */
    interface Windows {
        /** @return a new window of the key */
        WindowSlot open(int keyId, long start, long end);

        /** Removes a merged-away window (its contents already moved, its trigger already cleared). */
        void removeMerged(WindowSlot w);

        /** @return whether a window with this end is past cleanup at the current watermark */
        boolean isLate(long end);

        /** @return the current watermark, for the error message */
        long watermark();
    }

    private final Windows windows;
    private final SlotTable slots;
    private final WindowContents<T> contents;
    private final WindowTriggerContext triggerCtx;
    private final Trigger<T> trigger;
    private final WindowEmitter<T, ?, ?> emitter;
    private final boolean eventTime;
    private final boolean retracting;
    private IntArrayList[] windowsOfKey = new IntArrayList[64];

    WindowMerger(Windows windows, SlotTable slots, WindowContents<T> contents, WindowTriggerContext triggerCtx,
            Trigger<T> trigger, WindowEmitter<T, ?, ?> emitter, boolean eventTime, boolean retracting) {
        this.windows = windows;
        this.slots = slots;
        this.contents = contents;
        this.triggerCtx = triggerCtx;
        this.trigger = trigger;
        this.emitter = emitter;
        this.eventTime = eventTime;
        this.retracting = retracting;
    }

    /** Records a new window of its key. */
    void added(WindowSlot w) {
        if (w.keyId >= windowsOfKey.length) {
            windowsOfKey = Arrays.copyOf(windowsOfKey, Math.max(w.keyId + 1, windowsOfKey.length * 2));
        }
        IntArrayList list = windowsOfKey[w.keyId];
        if (list == null) {
            list = new IntArrayList(2);
            windowsOfKey[w.keyId] = list;
        }
        list.add(w.index);
    }

    /** Forgets a removed window of its key. */
    void removed(WindowSlot w) {
        IntArrayList list = windowsOfKey[w.keyId];
        list.removeElement(w.index);
        if (list.isEmpty()) {
            windowsOfKey[w.keyId] = null;
        }
    }

    /**
     * Adds {@code [start, end)} to the key's merging windows. @return the window the element goes to, or null if
     * the new window stands alone and is already past cleanup
     */
    WindowSlot mergeIn(int id, long start, long end) {
        IntArrayList list = id < windowsOfKey.length ? windowsOfKey[id] : null;
        int touching = 0;
        long coverStart = start;
        long coverEnd = end;
        WindowSlot only = null;
        if (list != null) {
            for (int k = 0; k < list.size(); k++) {
                WindowSlot w = slots.at(list.get(k));
                if (w.start <= end && w.end >= start) {
                    touching++;
                    only = w;
                    coverStart = Math.min(coverStart, w.start);
                    coverEnd = Math.max(coverEnd, w.end);
                }
            }
        }
        if (touching == 0) {
            return windows.isLate(end) ? null : windows.open(id, start, end);
        }
        if (touching == 1 && only.start <= start && only.end >= end) {
            return only; // inside a live window: nothing merges
        }
        if (eventTime && windows.isLate(coverEnd)) {
            throw new UnsupportedOperationException("The end timestamp of an event-time window cannot become earlier"
                    + " than the current watermark by merging. Current watermark: " + windows.watermark()
                    + " window: [" + coverStart + "," + coverEnd + ")");
        }
        WindowSlot[] merged = new WindowSlot[touching];
        int m = 0;
        for (int k = 0; k < list.size(); k++) {
            WindowSlot w = slots.at(list.get(k));
            if (w.start <= end && w.end >= start) {
                merged[m++] = w;
            }
        }
        WindowSlot result = windows.open(id, coverStart, coverEnd);
        triggerCtx.mergeOn(result, merged);
        trigger.onMerge(result.window, triggerCtx);
        triggerCtx.mergeOn(result, null);
        for (WindowSlot w : merged) {
            if (retracting) {
                emitter.retractPrevious(w);
            }
            triggerCtx.on(w);
            trigger.clear(w.window, triggerCtx);
            contents.moveInto(result, w);
            windows.removeMerged(w);
        }
        return result;
    }
}
