package io.cepheus.runtime.internal.window;

import com.carrotsearch.hppc.IntArrayList;
import io.cepheus.runtime.window.EventTimeSessionWindows;
import io.cepheus.runtime.window.MergingWindowAssigner;
import io.cepheus.runtime.window.ProcessingTimeSessionWindows;
import io.cepheus.runtime.window.TimeWindow;
import io.cepheus.runtime.window.Trigger;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * Merging windows of {@link WindowOperator}: each key's live windows, and the merges a new window causes, as the
 * assigner's {@link MergingWindowAssigner#mergeWindows} decides (Flink's {@code MergingWindowSet}). A merge result
 * takes the merged windows in, in a new slot (or in the slot of the merged window it equals): contents merge in the
 * order the windows were opened, the trigger merges its state ({@code onMerge}), the merged windows are retracted
 * (accumulating-and-retracting mode), their trigger cleared and their slots removed.
 *
 * <p>Two ways to the same rule for sessions. The built-in session assigners keep the default rule (overlap or
 * touch, then cover; their classes are final), and a key's live session windows never overlap or touch each
 * other, so the windows that merge are exactly those the new window overlaps or touches: {@link #mergeIn} finds
 * them in one pass over the key's windows without allocating (but the array of merged slots, on a merge). Any
 * other merging assigner is asked ({@link #mergeByAssigner}), which allocates its candidates and merges.
 *
 * <p>Owned by the shard thread.
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

        /** Registers the cleanup timer of a merge result no element is added to (elements register it). */
        void scheduleCleanup(WindowSlot w);
    }

    private final Windows windows;
    private final SlotTable slots;
    private final WindowContents<T> contents;
    private final WindowTriggerContext triggerCtx;
    private final Trigger<T> trigger;
    private final WindowEmitter<T, ?, ?> emitter;
    private final boolean eventTime;
    private final boolean retracting;
    /** The assigner's merge rule; null for the built-in sessions, merged in place. */
    private final MergingWindowAssigner<T> rule;
    private IntArrayList[] windowsOfKey = new IntArrayList[64];

    WindowMerger(MergingWindowAssigner<T> assigner, Windows windows, SlotTable slots, WindowContents<T> contents,
            WindowTriggerContext triggerCtx, Trigger<T> trigger, WindowEmitter<T, ?, ?> emitter, boolean eventTime,
            boolean retracting) {
        // final classes that keep the default rule: no subclass can change how their windows merge
        boolean sessions = assigner instanceof EventTimeSessionWindows || assigner instanceof ProcessingTimeSessionWindows;
        this.rule = sessions ? null : assigner;
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

    /**
     * Writes each key's windows in the order they were opened (for snapshots): merged contents combine in that
     * order, so a restored key must keep it. A list is written as its slot indexes, which name the key too.
     */
    void writeOrder(DataOutput out) throws IOException {
        int n = 0;
        for (IntArrayList list : windowsOfKey) {
            n += list == null ? 0 : 1;
        }
        out.writeInt(n);
        for (IntArrayList list : windowsOfKey) {
            if (list != null) {
                out.writeInt(list.size());
                for (int k = 0; k < list.size(); k++) {
                    out.writeInt(list.get(k));
                }
            }
        }
    }

    /**
     * Reads what {@link #writeOrder} wrote, once the slots are restored (without {@link #added}).
     *
     * @param newIndex null when the slots kept their indexes; else the index each written one took, -2 for a window
     *                 of another shard's key, whose list is read and let go
     */
    void readOrder(DataInput in, int[] newIndex) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("merging windows of " + n + " keys");
        }
        for (int i = 0; i < n; i++) {
            int size = in.readInt();
            if (size < 1) {
                throw new IOException("a key with " + size + " merging windows");
            }
            IntArrayList list = new IntArrayList(size);
            int keyId = -1;
            boolean elsewhere = false;
            for (int k = 0; k < size; k++) {
                int index = in.readInt();
                if (newIndex != null) {
                    if (index < 0 || index >= newIndex.length || newIndex[index] == -1) {
                        throw new IOException("merging window slot " + index + " is not a window of the snapshot");
                    }
                    elsewhere |= newIndex[index] == -2;
                    if (elsewhere) {
                        continue;
                    }
                    index = newIndex[index];
                }
                WindowSlot w = slots.at(index);
                if (w == null || (keyId >= 0 && w.keyId != keyId)) {
                    throw new IOException("merging window slot " + index + " is not a window of its key");
                }
                keyId = w.keyId;
                list.add(index);
            }
            if (elsewhere) {
                continue;
            }
            if (keyId >= windowsOfKey.length) {
                windowsOfKey = Arrays.copyOf(windowsOfKey, Math.max(keyId + 1, windowsOfKey.length * 2));
            }
            if (windowsOfKey[keyId] != null) {
                throw new IOException("key id " + keyId + " has two lists of merging windows");
            }
            windowsOfKey[keyId] = list;
        }
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
        if (rule != null) {
            return mergeByAssigner(id, start, end);
        }
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
        merge(result, merged);
        return result;
    }

    /** Moves {@code merged} into {@code result}: trigger state, retractions, contents; then removes them. */
    private void merge(WindowSlot result, WindowSlot[] merged) {
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
    }

    /** One merge the assigner reported: the indexes of its windows among the candidates, and its result. */
    private record Merge(int[] members, TimeWindow result) {
    }

    /**
     * {@link #mergeIn} by the assigner's own rule: the key's live windows and the new one are the candidates; every
     * merge reported is checked before any is applied, so a rule that breaks the contract changes nothing.
     */
    private WindowSlot mergeByAssigner(int id, long start, long end) {
        IntArrayList list = id < windowsOfKey.length ? windowsOfKey[id] : null;
        int live = list == null ? 0 : list.size();
        List<TimeWindow> candidates = new ArrayList<>(live + 1);
        WindowSlot[] slotOf = new WindowSlot[live + 1];
        int fresh = -1;
        for (int k = 0; k < live; k++) {
            WindowSlot w = slots.at(list.get(k));
            slotOf[k] = w;
            candidates.add((TimeWindow) w.window);
            if (w.start == start && w.end == end) {
                fresh = k;
            }
        }
        if (fresh < 0) {
            fresh = live;
            candidates.add(new TimeWindow(start, end));
        }
        List<TimeWindow> view = Collections.unmodifiableList(candidates);
        List<Merge> merges = new ArrayList<>(1);
        rule.mergeWindows(view, (toBeMerged, result) -> merges.add(reported(view, toBeMerged, result)));
        check(merges, candidates, slotOf);
        WindowSlot target = null;
        boolean placed = false;
        for (Merge m : merges) {
            WindowSlot into = null;
            int from = 0;
            for (int i : m.members()) {
                WindowSlot w = slotOf[i];
                if (w == null) {
                    continue; // the new window: nothing to move
                }
                if (w.window.equals(m.result())) {
                    into = w;
                } else {
                    from++;
                }
            }
            boolean takesElement = contains(m.members(), m.members().length, fresh);
            if (into == null) {
                if (from == 0 && windows.isLate(m.result().end())) {
                    placed = true; // only the new window, reshaped, and past cleanup: never created
                    continue;
                }
                into = windows.open(id, m.result().start(), m.result().end());
                if (!takesElement) {
                    windows.scheduleCleanup(into);
                }
            }
            if (from > 0) {
                WindowSlot[] merged = new WindowSlot[from];
                int n = 0;
                for (int i = 0; i < slotOf.length; i++) { // in the order the windows were opened
                    if (slotOf[i] != null && slotOf[i] != into && contains(m.members(), m.members().length, i)) {
                        merged[n++] = slotOf[i];
                    }
                }
                merge(into, merged);
            }
            if (takesElement) {
                target = into;
                placed = true;
            }
        }
        if (placed) {
            return target;
        }
        if (fresh < live) {
            return slotOf[fresh]; // the new window is a live one that nothing merged
        }
        return windows.isLate(end) ? null : windows.open(id, start, end);
    }

    private static boolean contains(int[] members, int n, int i) {
        for (int k = 0; k < n; k++) {
            if (members[k] == i) {
                return true;
            }
        }
        return false;
    }

    /** @return the merge as indexes of {@code candidates}; throws if it names a window that is not one */
    private Merge reported(List<TimeWindow> candidates, Collection<TimeWindow> toBeMerged, TimeWindow result) {
        if (toBeMerged == null || toBeMerged.isEmpty() || result == null) {
            throw broken("reported a merge of " + toBeMerged + " into " + result
                    + "; a merge needs at least one window and a result");
        }
        int[] members = new int[toBeMerged.size()];
        int n = 0;
        for (TimeWindow w : toBeMerged) {
            int i = candidates.indexOf(w);
            if (i < 0) {
                throw broken("merges " + w + ", which is not among the windows it was given: " + candidates);
            }
            if (!contains(members, n, i)) { // a window named twice in one merge counts once
                members[n++] = i;
            }
        }
        return new Merge(Arrays.copyOf(members, n), result);
    }

    /** Checks the merges against each other and against the lateness rule, before any is applied. */
    private void check(List<Merge> merges, List<TimeWindow> candidates, WindowSlot[] slotOf) {
        int[] mergeOf = new int[candidates.size()];
        Arrays.fill(mergeOf, -1);
        for (int g = 0; g < merges.size(); g++) {
            for (int i : merges.get(g).members()) {
                if (mergeOf[i] >= 0) {
                    throw broken("puts " + candidates.get(i) + " into two merges");
                }
                mergeOf[i] = g;
            }
        }
        for (int g = 0; g < merges.size(); g++) {
            Merge m = merges.get(g);
            int same = candidates.indexOf(m.result());
            if (same >= 0 && mergeOf[same] != g) {
                throw broken("merges " + describe(m, candidates) + " into " + m.result()
                        + ", which is another window of the key that this merge does not take in");
            }
            for (int h = 0; h < g; h++) {
                if (merges.get(h).result().equals(m.result())) {
                    throw broken("reports two merges into " + m.result());
                }
            }
            boolean movesLiveWindows = false;
            for (int i : m.members()) {
                movesLiveWindows |= slotOf[i] != null && !candidates.get(i).equals(m.result());
            }
            if (!movesLiveWindows) {
                continue;
            }
            if (eventTime && windows.isLate(m.result().end())) {
                throw new UnsupportedOperationException("The end timestamp of an event-time window cannot become"
                        + " earlier than the current watermark by merging. Current watermark: " + windows.watermark()
                        + " window: " + m.result());
            }
            if (!eventTime && m.result().maxTimestamp() <= triggerCtx.currentProcessingTime()) {
                throw new UnsupportedOperationException("The end timestamp of a processing-time window cannot"
                        + " become earlier than the current processing time by merging. Current processing time: "
                        + triggerCtx.currentProcessingTime() + " window: " + m.result());
            }
        }
    }

    private static String describe(Merge m, List<TimeWindow> candidates) {
        List<TimeWindow> ws = new ArrayList<>(m.members().length);
        for (int i : m.members()) {
            ws.add(candidates.get(i));
        }
        return ws.toString();
    }

    private IllegalStateException broken(String what) {
        return new IllegalStateException(rule + ".mergeWindows " + what);
    }
}
