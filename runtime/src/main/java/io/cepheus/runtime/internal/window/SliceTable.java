package io.cepheus.runtime.internal.window;

import com.carrotsearch.hppc.IntArrayList;
import com.carrotsearch.hppc.IntObjectHashMap;
import io.cepheus.nfa.EventCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * The slices of every key of one {@link SliceWindowOperator}, stored time-major: one {@link Column} per slice
 * number that any key holds (slice {@code k} covers {@code [k * g, (k + 1) * g)} relative to the assigner's
 * offset), each an array indexed by the key's slot (a dense index of this table's own: the shard's key ids are
 * shared with its other operators and may run far higher); and the aggregation of the windows that fire, each a
 * run of consecutive slices.
 *
 * <p>Design ("two stacks" FIFO aggregation, as in Tangwongsan, Hirzel and Schneider's survey of sliding-window
 * aggregation; stored as columns, as a column store lays out a table): windows fire in order and each one's slice
 * range {@code [from, to)} starts and ends later than the previous one's, so the slices in play form a queue: slices
 * leave at the front, arrive at the back. The queue {@code [qLo, qHi)} is split at {@code f}: the <em>front</em>
 * {@code [qLo, f)} keeps, for each slice {@code k} and key, the suffix aggregate {@code value(k) + ... + value(f - 1)};
 * the <em>back</em> {@code [f, qHi)} keeps one running aggregate per key. A key's window is
 * {@code suffix(from) + back}: one combination. Moving to the next window adds its new slices to the back (one
 * combination each) and pops slices off the front (nothing to compute); when the front is exhausted
 * ({@code from >= f}) it is rebuilt over the whole window ("flip": size / g combinations, once per size / slide
 * firings). So a firing costs O(slide / g) combinations amortized, whatever size / slide is.
 *
 * <p>Why time-major: all keys' windows end on one grid, so the keys that fire at one time share {@code from},
 * {@code to} and {@code f}, and one {@link #advance} does the queue's work for all of them, a slice at a time over
 * the keys in slot order: each column is read (and the suffixes written) front to back, and the suffixes a flip
 * creates lie in memory in the order the next firings read them. Stored per key instead (a ring of slices per
 * key), each firing of each key reached a few objects of its own scattered through a heap
 * far larger than the cache (sliding 10 min / 10 s over 10,000 keys holds ~27 MB), and waited for each in turn.
 * Only the keys that fire at a time take part in its step: a key without contents in the firing window has no
 * value in any of its slices, so its suffixes there are empty and its back, if any, covers only slices the queue
 * has left (a flip clears every key's back).
 *
 * <p>Out-of-order elements: an element may still land in a slice already in the queue (behind the watermark but in
 * a later window that is open). Such a change invalidates what it touches, for its key only: in the back, the
 * running aggregate (recomputed from the back's slices at the key's next firing); in the front, the key's suffixes
 * at and below that slice (recomputed down to the next window's first slice, from the intact suffix above it). A
 * slice that gets its first value inside the front becomes a front column whose suffixes are, for every other key,
 * those of the front column above it (the same objects). In-order elements land behind {@code qHi} and invalidate
 * nothing.
 *
 * <p>Ownership of values: slice values belong to the slices; suffixes and the back are copies owned by this
 * structure (a key's empty slice makes its suffix equal to the one above: the same object, never changed
 * afterwards). The key's suffix at {@code from} is never needed again once that window fired, so a firing combines
 * the back into it in place and hands it out, unless it is shared with the suffix above.
 *
 * <p>Columns: the held slices in ascending order, in an array; elements nearly always go to the last one. A column
 * is dropped once every window holding it is past cleanup ({@link #dropFirst}), which sweeps its values to count
 * down each key's; a key with no value left is reported empty. Timestamps far apart cost one column per slice
 * held, never a range of slices between them.
 *
 * <p>Owned by the shard thread, like the operator that holds it.
 */
final class SliceTable {

    private static final long NONE = Long.MIN_VALUE;
    /** Slots (and key ids) up to which the per-key arrays are kept when no key is held ({@link #clear}). */
    private static final int KEPT_KEY_CAPACITY = 1 << 16;
    /** Held-slice array length kept when no key is held ({@link #clear}). */
    private static final int KEPT_COLUMNS = 1 << 12;

    /** One slice: the value of each key (by slot) and, while the slice is in the front, each key's suffix. */
    static final class Column {
        long slice;
        Object[] values;
        /** Non-null exactly while the slice is in the front {@code [qLo, f)}. */
        Object[] suffixes;
        /** Slots below this may hold a value; the bound of a sweep. */
        int valuesHi;
        int suffixesHi;

        Object value(int id) {
            return id < values.length ? values[id] : null;
        }

        Object suffix(int id) {
            return suffixes != null && id < suffixes.length ? suffixes[id] : null;
        }

        /** The slice leaves the front: its suffixes go (they hold nothing another column needs). */
        void leaveFront() {
            if (suffixes != null) {
                Arrays.fill(suffixes, 0, suffixesHi, null);
                suffixes = null;
                suffixesHi = 0;
            }
        }
    }

    // the held slices, ascending: cols[lo .. hi)
    private Column[] cols = new Column[16];
    private int lo;
    private int hi;
    /** Changes whenever a column is inserted or dropped (a remembered index into cols is stale then). */
    private int layout;
    private Column[] spare = new Column[8];
    private int spareCount;

    // the queue: front [qLo, f) as suffixes, back [f, qHi) as one aggregate per key; NONE when empty
    private long qLo = NONE;
    private long f = NONE;
    private long qHi = NONE;

    // the current firing step: window [stepFrom, stepTo), its head column, the keys whose step failed
    private long stepFrom = NONE;
    private long stepTo = NONE;
    private int stepLayout = -1;
    private int headIndex;
    private final IntObjectHashMap<RuntimeException> stepFailures = new IntObjectHashMap<>();
    // find's last answer below the last column, valid while the layout is unchanged
    private Column found;
    private int foundLayout = -1;
    // nextValueSlice's search start, remembered for the keys of one step
    private long searchSlice = NONE;
    private int searchIndex;
    private int searchLayout = -1;

    // keys: each held key has a slot, a dense index of this table's own, which the columns and the per-key arrays
    // are indexed by (the shard's key ids are shared with its other operators and may run far higher)
    /** By shard key id: 1 + the key's slot, or 0 if the key is not held. */
    private int[] slotOf = new int[0];
    /** By slot: the key id, or -1 if the slot is free. */
    private int[] keyOfSlot = new int[0];
    private int[] freeSlots = new int[0];
    private int freeCount;
    /** 1 + the highest slot in use: the range the per-slot arrays are swept over. */
    private int slotHi;
    private int slotCap;
    // per slot
    private int[] filled = new int[0];
    private long[] lastSlice = new long[0];
    private Object[] back = new Object[0];
    private boolean[] backStale = new boolean[0];
    private long[] frontStaleAt = new long[0];
    /** The key's one pending event-time firing, or {@code Long.MAX_VALUE} for none (kept here for the operator). */
    private long[] timerAt = new long[0];
    /**
     * With allowed lateness: the time at which the operator next drops the key's slices past cleanup, set while no
     * firing is pending, or {@code Long.MAX_VALUE} for none.
     */
    private long[] cleanupAt = new long[0];

    private long values;
    private int keysHeld;

    // ------------------------------------------------------------------ keys

    /**
     * Makes key {@code id} a held key (with no slices, no pending times) if it is not one.
     *
     * @return its slot, by which every other method names it
     */
    int hold(int id) {
        if (id >= slotOf.length) {
            slotOf = Arrays.copyOf(slotOf, Math.max(id + 1, Math.max(64, slotOf.length * 2)));
        }
        if (slotOf[id] == 0) {
            int s = freeCount > 0 ? freeSlots[--freeCount] : slotHi++;
            if (s >= slotCap) {
                growSlots(s + 1);
            }
            slotOf[id] = s + 1;
            keyOfSlot[s] = id;
            keysHeld++;
            lastSlice[s] = NONE;
            frontStaleAt[s] = NONE;
            timerAt[s] = Long.MAX_VALUE;
            cleanupAt[s] = Long.MAX_VALUE;
        }
        return slotOf[id] - 1;
    }

    /** @return whether {@code id} is a held key */
    boolean holds(int id) {
        return id < slotOf.length && slotOf[id] != 0;
    }

    /** @return whether slot {@code s} holds a key (a stale reference to a freed slot does not) */
    boolean held(int s) {
        return s < slotHi && keyOfSlot[s] >= 0;
    }

    /** @return 1 + the highest slot that may be in use ({@link #keyAtSlot}) */
    int slotBound() {
        return slotHi;
    }

    /** @return the key id held in slot {@code s}, or -1 */
    int keyAtSlot(int s) {
        return keyOfSlot[s];
    }

    /** @return how many keys are held */
    int keysHeld() {
        return keysHeld;
    }

    /** @return whether the key in slot {@code s} has no value in any slice */
    boolean isEmpty(int s) {
        return filled[s] == 0;
    }

    /** @return the last slice the key in slot {@code s} took a value in (meaningful while it holds one) */
    long lastSlice(int s) {
        return lastSlice[s];
    }

    /** @return the pending firing time of the key in slot {@code s}, or {@code Long.MAX_VALUE} */
    long timerAt(int s) {
        return timerAt[s];
    }

    void timerAt(int s, long time) {
        timerAt[s] = time;
    }

    /** @return the pending cleanup time of the key in slot {@code s}, or {@code Long.MAX_VALUE} */
    long cleanupAt(int s) {
        return cleanupAt[s];
    }

    void cleanupAt(int s, long time) {
        cleanupAt[s] = time;
    }

    /** @return how many slice values all keys hold */
    long values() {
        return values;
    }

    /**
     * Lets go of the empty key in slot {@code s}: what the queue kept for it goes too, and the slot is free for
     * another key. When no key is held any more, the columns go as well, so an idle operator keeps nothing.
     */
    void release(int s) {
        if (!held(s)) {
            return;
        }
        int id = keyOfSlot[s];
        back[s] = null;
        backStale[s] = false;
        frontStaleAt[s] = NONE;
        if (f != NONE) {
            for (int i = indexAtOrAbove(qLo); i < hi && cols[i].slice < f; i++) { // the front: where suffixes are
                Object[] suffixes = cols[i].suffixes;
                if (suffixes != null && s < suffixes.length) {
                    suffixes[s] = null;
                }
            }
        }
        slotOf[id] = 0;
        keyOfSlot[s] = -1;
        if (freeCount == freeSlots.length) {
            freeSlots = Arrays.copyOf(freeSlots, Math.max(16, freeCount * 2));
        }
        freeSlots[freeCount++] = s;
        keysHeld--;
        if (keysHeld == 0) {
            clear();
        }
    }

    /**
     * Forgets the queue and the columns once no key is held. The slot arrays stay while they are small (a
     * tumbling window whose watermark lands on slice ends empties the table at every firing); past
     * {@link #KEPT_KEY_CAPACITY} slots or key ids they go too, so that a burst of many keys does not pin their
     * size.
     */
    private void clear() {
        for (int i = lo; i < hi; i++) {
            Column c = cols[i];
            Arrays.fill(c.values, 0, c.valuesHi, null);
            c.valuesHi = 0;
            c.leaveFront();
            cols[i] = null;
            if (spareCount < spare.length) {
                spare[spareCount++] = c;
            }
        }
        lo = 0;
        hi = 0;
        layout++;
        qLo = NONE;
        f = NONE;
        qHi = NONE;
        stepFrom = NONE;
        stepTo = NONE;
        values = 0;
        slotHi = 0;
        freeCount = 0; // every slot is free: they are handed out from 0 again
        if (slotOf.length > KEPT_KEY_CAPACITY) {
            slotOf = new int[0];
        }
        if (cols.length > KEPT_COLUMNS) {
            cols = new Column[16]; // a burst of slices far apart (a stalled watermark) does not pin its array
        }
        if (slotCap > KEPT_KEY_CAPACITY) {
            cols = new Column[16];
            spare = new Column[8];
            spareCount = 0;
            slotCap = 0;
            keyOfSlot = new int[0];
            freeSlots = new int[0];
            filled = new int[0];
            lastSlice = new long[0];
            back = new Object[0];
            backStale = new boolean[0];
            frontStaleAt = new long[0];
            timerAt = new long[0];
            cleanupAt = new long[0];
        }
    }

    private void growSlots(int needed) {
        int cap = Math.max(needed, Math.max(64, slotCap * 2));
        keyOfSlot = Arrays.copyOf(keyOfSlot, cap);
        filled = Arrays.copyOf(filled, cap);
        lastSlice = Arrays.copyOf(lastSlice, cap);
        back = Arrays.copyOf(back, cap);
        backStale = Arrays.copyOf(backStale, cap);
        frontStaleAt = Arrays.copyOf(frontStaleAt, cap);
        timerAt = Arrays.copyOf(timerAt, cap);
        cleanupAt = Arrays.copyOf(cleanupAt, cap);
        slotCap = cap;
    }

    // ------------------------------------------------------------------ values

    /** @return the value in slice {@code k} of the key in slot {@code s}, or null */
    Object value(int s, long k) {
        Column c = find(k);
        return c == null ? null : c.value(s);
    }

    /** @return the value in {@code column} ({@link #column}) of the key in slot {@code s}, or null */
    static Object valueIn(Column column, int s) {
        return column == null ? null : column.value(s);
    }

    /**
     * Sets the value of slice {@code k} of the key in slot {@code s} (a new one, or the same accumulator changed in
     * place), invalidating what the queue derived from it.
     *
     * @return whether the slice had no value for the key before
     */
    boolean put(int s, long k, Object value) {
        return put(s, k, find(k), value);
    }

    /** As {@link #put(int, long, Object)}, with slice {@code k}'s column if the caller has it ({@link #column}). */
    boolean put(int s, long k, Column column, Object value) {
        Column c = column != null ? column : insert(k);
        if (s >= c.values.length) {
            c.values = Arrays.copyOf(c.values, Math.max(s + 1, Math.max(slotHi, 2 * c.values.length)));
        }
        boolean fresh = c.values[s] == null;
        c.values[s] = value;
        if (fresh) {
            c.valuesHi = Math.max(c.valuesHi, s + 1);
            filled[s]++;
            values++;
            if (k > lastSlice[s] || lastSlice[s] == NONE) {
                lastSlice[s] = k;
            }
        }
        if (qLo != NONE && k >= qLo && k < qHi) {
            if (k < f) {
                frontStaleAt[s] = Math.max(frontStaleAt[s], k);
            } else {
                backStale[s] = true;
            }
        }
        return fresh;
    }

    /** @return slice {@code k}'s column, or null if no key holds a value or suffix there */
    Column column(long k) {
        return find(k);
    }

    /**
     * @return slice {@code k}'s column, or null: the last one first, where elements in order go, then the one found
     *         last (a firing asks for the same slice for each of its keys)
     */
    private Column find(long k) {
        if (hi > lo) {
            Column last = cols[hi - 1];
            if (last.slice == k) {
                return last;
            }
            if (foundLayout == layout && found.slice == k) {
                return found;
            }
            if (k < last.slice) {
                int i = indexAtOrAbove(k);
                if (i < hi && cols[i].slice == k) {
                    found = cols[i];
                    foundLayout = layout;
                    return found;
                }
            }
        }
        return null;
    }

    /** @return the index of the first held column whose slice is at least {@code k} ({@code hi} if none) */
    private int indexAtOrAbove(long k) {
        int a = lo;
        int b = hi;
        while (a < b) {
            int m = (a + b) >>> 1;
            if (cols[m].slice < k) {
                a = m + 1;
            } else {
                b = m;
            }
        }
        return a;
    }

    private Column insert(long k) {
        Column c = spareCount > 0 ? spare[--spareCount] : new Column();
        c.slice = k;
        if (c.values == null || c.values.length < slotHi) {
            c.values = new Object[Math.max(16, slotHi)];
        }
        int at = indexAtOrAbove(k);
        if (hi == cols.length) {
            if (lo > cols.length / 2) {
                System.arraycopy(cols, lo, cols, 0, hi - lo);
                Arrays.fill(cols, hi - lo, hi, null);
                at -= lo;
                hi -= lo;
                lo = 0;
            } else {
                cols = Arrays.copyOf(cols, cols.length * 2);
            }
        }
        System.arraycopy(cols, at, cols, at + 1, hi - at);
        cols[at] = c;
        hi++;
        layout++;
        if (f != NONE && k >= qLo && k < f) {
            // a new front slice: every key's suffix here is the one of the front slice above it (or none)
            Column above = at + 1 < hi && cols[at + 1].slice < f ? cols[at + 1] : null;
            c.suffixes = above == null ? new Object[Math.max(16, slotHi)] : Arrays.copyOf(above.suffixes,
                    Math.max(above.suffixes.length, slotHi));
            c.suffixesHi = above == null ? 0 : above.suffixesHi;
        }
        return c;
    }

    /** @return whether no slice is held */
    boolean noSlices() {
        return hi == lo;
    }

    /** @return the first slice held (only when not {@link #noSlices()}) */
    long firstSlice() {
        return cols[lo].slice;
    }

    /**
     * Drops the first slice held (no window to come holds it: all are past cleanup).
     *
     * @param emptied gets the keys left without any value
     */
    void dropFirst(IntArrayList emptied) {
        Column c = cols[lo];
        Object[] vs = c.values;
        for (int s = 0, n = c.valuesHi; s < n; s++) {
            if (vs[s] != null) {
                vs[s] = null;
                values--;
                if (--filled[s] == 0) {
                    emptied.add(s);
                }
            }
        }
        c.valuesHi = 0;
        c.leaveFront();
        cols[lo++] = null;
        layout++;
        if (hi == lo) {
            lo = 0;
            hi = 0;
        }
        if (spareCount == spare.length) {
            spare = Arrays.copyOf(spare, spareCount * 2);
        }
        if (spareCount < 256) {
            spare[spareCount++] = c;
        }
    }

    // ------------------------------------------------------------------ firing

    /**
     * The queue's step for the window {@code [from, to)}, which fires for the keys in slots {@code due[0 .. n)}
     * (ascending, distinct, every key with a value in it): pops the front below {@code from}, then rebuilds the front over the
     * window (a flip) or adds the window's new slices to the keys' backs. Calls must come in window order; the same
     * window again (after a user function threw out of the firing) does nothing. A user function that throws here
     * fails only its key's window ({@link #window} throws it) and leaves the key to be recomputed at its next one.
     */
    void advance(long from, long to, int[] due, int n, SliceCombiner c) {
        if (from == stepFrom && to == stepTo) {
            return;
        }
        stepFrom = from;
        stepTo = to;
        stepFailures.clear();
        int[] slots = due;
        // pop: no later window reads the front below from
        long popEnd = Math.min(from, f);
        for (int i = indexAtOrAbove(qLo); i < hi && cols[i].slice < popEnd; i++) {
            cols[i].leaveFront();
        }
        if (f == NONE || from >= f) {
            flip(from, to, slots, n, c);
        } else {
            extendBacks(to, slots, n, c);
        }
        qLo = from;
        qHi = to;
        headIndex = indexAtOrAbove(from);
        stepLayout = layout;
    }

    /** The front becomes the whole window {@code [from, to)}, a slice at a time over the due keys; backs empty. */
    private void flip(long from, long to, int[] due, int n, SliceCombiner c) {
        Arrays.fill(back, 0, slotHi, null);
        Arrays.fill(backStale, 0, slotHi, false);
        Arrays.fill(frontStaleAt, 0, slotHi, NONE);
        f = to;
        int dueHi = 0;
        for (int j = 0; j < n; j++) {
            dueHi = Math.max(dueHi, due[j] + 1);
        }
        Object[] above = null;
        for (int i = indexAtOrAbove(to) - 1; i >= lo && cols[i].slice >= from; i--) {
            Column col = cols[i];
            Object[] vs = col.values;
            Object[] ss = col.suffixes = new Object[Math.max(16, Math.max(dueHi, slotHi))];
            col.suffixesHi = dueHi;
            for (int j = 0; j < n; j++) {
                int id = due[j];
                Object v = id < vs.length ? vs[id] : null;
                Object acc = above == null || id >= above.length ? null : above[id];
                if (v != null) {
                    try {
                        acc = acc == null ? c.copy(v) : c.combine(c.copy(v), acc);
                    } catch (RuntimeException e) {
                        stepFailures.put(id, e);
                        frontStaleAt[id] = to - 1; // all of its front is recomputed at its next window
                        acc = null;
                    }
                }
                ss[id] = acc;
            }
            above = ss;
        }
    }

    /** Adds the new slices {@code [qHi, to)} to the due keys' backs (a key whose back is stale is folded later). */
    private void extendBacks(long to, int[] due, int n, SliceCombiner c) {
        for (int i = indexAtOrAbove(qHi); i < hi && cols[i].slice < to; i++) {
            Object[] vs = cols[i].values;
            for (int j = 0; j < n; j++) {
                int id = due[j];
                Object v = id < vs.length ? vs[id] : null;
                if (v != null && !backStale[id]) {
                    try {
                        Object b = back[id];
                        back[id] = b == null ? c.copy(v) : c.combine(b, v);
                    } catch (RuntimeException e) {
                        stepFailures.put(id, e);
                        backStale[id] = true; // recomputed from the slices at its next window
                    }
                }
            }
        }
    }

    /**
     * The aggregate of the key in slot {@code id} over the window of the last {@link #advance}, for a key that was
     * due in it. A slice before the window may still change afterwards (a late element within the allowed
     * lateness), but the queue never reads it again: late firings combine their windows from the slices directly.
     *
     * @return a value the caller owns (the structure keeps no reference that it will change), or null if all the
     *         window's slices are empty for the key
     * @throws RuntimeException what a user function threw for this key in the step
     */
    Object window(int id, SliceCombiner c) {
        RuntimeException failed = stepFailures.isEmpty() ? null : stepFailures.remove(id);
        if (failed != null) {
            throw failed;
        }
        long from = stepFrom;
        if (backStale[id]) {
            back[id] = fold(id, f, stepTo, c);
            backStale[id] = false;
        }
        if (frontStaleAt[id] >= from) {
            recomputeSuffixes(id, from, frontStaleAt[id], c);
        }
        frontStaleAt[id] = NONE;
        if (stepLayout != layout) {
            headIndex = indexAtOrAbove(from);
            stepLayout = layout;
        }
        int h = headIndex;
        Column headColumn = h < hi && cols[h].slice < f ? cols[h] : null;
        Object head = headColumn == null ? null : headColumn.suffix(id);
        Object b = back[id];
        if (head == null) {
            return b == null ? null : c.copy(b);
        }
        Column next = h + 1 < hi && cols[h + 1].slice < f ? cols[h + 1] : null;
        boolean owned = headColumn.slice == from && (next == null || next.suffix(id) != head);
        if (owned) {
            headColumn.suffixes[id] = null; // its window has fired: no later one starts here
        } else {
            head = c.copy(head);
        }
        return b == null ? head : c.combine(head, b);
    }

    /** Recomputes the suffixes of the key in slot {@code id} from slice {@code top} (changed) down to {@code from}. */
    private void recomputeSuffixes(int id, long from, long top, SliceCombiner c) {
        int i = indexAtOrAbove(Math.min(top, f - 1) + 1) - 1;
        Column above = i + 1 < hi && cols[i + 1].slice < f ? cols[i + 1] : null;
        Object acc = above == null ? null : above.suffix(id);
        for (; i >= lo && cols[i].slice >= from; i--) {
            Column col = cols[i];
            Object v = col.value(id);
            if (v != null) {
                acc = acc == null ? c.copy(v) : c.combine(c.copy(v), acc);
            }
            if (id >= col.suffixes.length) {
                col.suffixes = Arrays.copyOf(col.suffixes, Math.max(id + 1, slotHi));
            }
            col.suffixes[id] = acc;
            col.suffixesHi = Math.max(col.suffixesHi, id + 1);
        }
    }

    private Object fold(int id, long from, long to, SliceCombiner c) {
        Object acc = null;
        for (int i = indexAtOrAbove(from); i < hi && cols[i].slice < to; i++) {
            Object v = cols[i].value(id);
            if (v != null) {
                acc = acc == null ? c.copy(v) : c.combine(acc, v);
            }
        }
        return acc;
    }

    /**
     * @return the first slice at or after {@code k} in which the key in slot {@code id} holds a value, or NONE: where
     *         the key's
     *         next window with contents starts
     */
    long nextValueSlice(int id, long k) {
        long last = lastSlice[id];
        if (last == NONE || last < k) {
            return NONE;
        }
        if (k != searchSlice || searchLayout != layout) {
            searchIndex = indexAtOrAbove(k); // the same for every key of a step
            searchSlice = k;
            searchLayout = layout;
        }
        for (int i = searchIndex; i < hi && cols[i].slice <= last; i++) {
            if (cols[i].value(id) != null) {
                return cols[i].slice;
            }
        }
        return NONE;
    }

    // ------------------------------------------------------------------ snapshots

    private static final int HAS_VALUE = 1;
    private static final int HAS_SUFFIX = 2;
    /** The suffix is the very object of the front slice above's suffix (an empty slice repeats it). */
    private static final int SUFFIX_AS_ABOVE = 4;

    /** Writes the queue's bounds and which slices are in the front (before the keys: their suffixes go there). */
    void writeQueue(DataOutput out) throws IOException {
        out.writeLong(qLo);
        out.writeLong(f);
        out.writeLong(qHi);
        int front = 0;
        for (int i = lo; i < hi; i++) {
            front += cols[i].suffixes != null ? 1 : 0;
        }
        out.writeInt(front);
        for (int i = lo; i < hi; i++) {
            if (cols[i].suffixes != null) {
                out.writeLong(cols[i].slice);
            }
        }
        // the slots as they are handed out (keys fire in slot order at each time: a restored table must too)
        out.writeInt(slotHi);
        out.writeInt(freeCount);
        for (int i = 0; i < freeCount; i++) {
            out.writeInt(freeSlots[i]);
        }
    }

    /** Restores what {@link #writeQueue} wrote into this empty table. */
    void readQueue(DataInput in) throws IOException {
        WrittenQueue written = WrittenQueue.read(in);
        qLo = written.qLo();
        f = written.f();
        qHi = written.qHi();
        for (long k : written.front()) {
            insert(k).suffixes = new Object[16];
        }
        growSlots(written.slots());
        slotHi = written.slots();
        Arrays.fill(keyOfSlot, 0, written.slots(), -1);
        freeSlots = Arrays.copyOf(written.free(), Math.max(16, written.free().length));
        freeCount = written.free().length;
    }

    /**
     * What {@link #writeQueue} wrote, checked: the queue's bounds, its front slices in order within them, and the slots
     * with the free ones, each count refused before anything is sized by it if the bytes left cannot hold it.
     */
    private record WrittenQueue(long qLo, long f, long qHi, long[] front, int slots, int[] free) {

        static WrittenQueue read(DataInput in) throws IOException {
            long qLo = in.readLong();
            long f = in.readLong();
            long qHi = in.readLong();
            int fronts = in.readInt();
            if (fronts < 0 || fronts > (1 << 26) || (long) fronts * Long.BYTES > bytesLeft(in)) {
                throw new IOException("a slice table whose front holds " + fronts + " slices");
            }
            long[] front = new long[fronts];
            for (int i = 0; i < fronts; i++) {
                long k = in.readLong();
                if (i > 0 && k <= front[i - 1] || k < qLo || k >= f) {
                    throw new IOException("front slice " + k + " out of order or outside the front [" + qLo + ", " + f
                            + ")");
                }
                front[i] = k;
            }
            int slots = in.readInt();
            int frees = in.readInt();
            if (slots < 0 || slots > (1 << 26) || frees < 0 || frees > slots) {
                throw new IOException("a slice table with " + slots + " slots, " + frees + " of them free");
            }
            if ((long) slots * Integer.BYTES > bytesLeft(in)) {
                // every slot is written, free (an int) or held (a key, whose state starts with its int slot)
                throw new IOException("a slice table with " + slots + " slots, more than the " + bytesLeft(in)
                        + " bytes left could hold");
            }
            int[] free = new int[frees];
            for (int i = 0; i < frees; i++) {
                int slot = in.readInt();
                if (slot < 0 || slot >= slots) {
                    throw new IOException("free slot " + slot + " outside the " + slots + " slots");
                }
                free[i] = slot;
            }
            return new WrittenQueue(qLo, f, qHi, front, slots, free);
        }

        private static long bytesLeft(DataInput in) throws IOException {
            return in instanceof java.io.DataInputStream stream ? stream.available() : Long.MAX_VALUE;
        }
    }

    /**
     * Reads past what {@link #writeQueue} wrote, checking it, for a table restored into an engine with another number
     * of shards: its keys come from several written tables, whose queues need not agree, so this table's queue starts
     * empty and its next firing rebuilds it from the slice values ({@link #readKeyValues}).
     */
    static void skipQueue(DataInput in) throws IOException {
        WrittenQueue.read(in);
    }

    /**
     * Restores what {@link #writeKey} wrote into a table whose queue starts empty ({@link #skipQueue}): the key's slice
     * values and pending times; its suffixes and back, which belong to the written table's queue, are read and let
     * go, and its next firing combines its window from the slice values. For a function associative to the last bit
     * that is the value it would have had; a floating-point sum may differ in its last bits, as it may between
     * engines of different shard counts.
     *
     * @param key the key's id here, or -1 for another shard's key, which is read and let go
     * @return the key's slot, or -1
     */
    int readKeyValues(int key, DataInput in, EventCodec<Object> codec) throws IOException {
        if (key >= 0 && holds(key)) {
            throw new IOException("key id " + key + " appears twice in the slice window operator's state");
        }
        in.readInt(); // its slot in the written table
        long timer = in.readLong();
        long cleanup = in.readLong();
        long last = in.readLong();
        in.readBoolean();
        in.readLong();
        if (in.readBoolean()) {
            codec.read(in); // the back
        }
        int entries = in.readInt();
        if (entries < 0) {
            throw new IOException("a key with " + entries + " slices");
        }
        int slot = key >= 0 ? hold(key) : -1;
        long previous = Long.MAX_VALUE;
        long highestValue = NONE;
        boolean suffixAbove = false;
        for (int e = 0; e < entries; e++) {
            long k = in.readLong();
            int flags = in.readUnsignedByte();
            if (e > 0 && k >= previous || (flags & ~(HAS_VALUE | HAS_SUFFIX | SUFFIX_AS_ABOVE)) != 0
                    || flags == 0 || ((flags & SUFFIX_AS_ABOVE) != 0 && ((flags & HAS_SUFFIX) == 0 || !suffixAbove))) {
                throw new IOException("slice " + k + " has flags " + flags + ", which no key writes");
            }
            previous = k;
            if ((flags & HAS_VALUE) != 0) {
                Object value = codec.read(in);
                if (slot >= 0) {
                    put(slot, k, value);
                }
                highestValue = highestValue == NONE ? k : highestValue; // written from the last slice down
            }
            if ((flags & HAS_SUFFIX) != 0 && (flags & SUFFIX_AS_ABOVE) == 0) {
                codec.read(in);
            }
            suffixAbove = (flags & HAS_SUFFIX) != 0;
        }
        checkLastSlice(key, last, highestValue);
        if (slot >= 0) {
            timerAt[slot] = timer;
            cleanupAt[slot] = cleanup;
            lastSlice[slot] = last;
            back[slot] = null;
            backStale[slot] = false;
            frontStaleAt[slot] = NONE;
        }
        return slot;
    }

    /**
     * Writes the slices of the key in slot {@code id} with the queue's derived state (suffixes, back), not only the slice
     * values: a window's value depends on how its slices were grouped when combined, and a function need not be
     * associative to the last bit (a floating-point sum), so a restored key must combine exactly as this one
     * would have. Slices are written from the last down, so a suffix shared with the front slice above is written
     * once.
     *
     * @param codec writes slice values, suffixes and the back (reduced values or accumulators)
     */
    void writeKey(int id, DataOutput out, EventCodec<Object> codec) throws IOException {
        out.writeInt(id);
        out.writeLong(timerAt[id]);
        out.writeLong(cleanupAt[id]);
        out.writeLong(lastSlice[id]);
        out.writeBoolean(backStale[id]);
        out.writeLong(frontStaleAt[id]);
        out.writeBoolean(back[id] != null);
        if (back[id] != null) {
            codec.write(back[id], out);
        }
        int entries = 0;
        for (int i = lo; i < hi; i++) {
            entries += cols[i].value(id) != null || cols[i].suffix(id) != null ? 1 : 0;
        }
        out.writeInt(entries);
        Object above = null;
        for (int i = hi - 1; i >= lo; i--) {
            Column col = cols[i];
            Object value = col.value(id);
            Object suffix = col.suffix(id);
            if (value != null || suffix != null) {
                boolean asAbove = suffix != null && suffix == above;
                out.writeLong(col.slice);
                out.writeByte((value != null ? HAS_VALUE : 0) | (suffix != null ? HAS_SUFFIX : 0)
                        | (asAbove ? SUFFIX_AS_ABOVE : 0));
                if (value != null) {
                    codec.write(value, out);
                }
                if (suffix != null && !asAbove) {
                    codec.write(suffix, out);
                }
            }
            if (col.suffixes != null) {
                above = suffix;
            }
        }
    }

    /**
     * Restores what {@link #writeKey} wrote for a key now numbered {@code key} (not held yet), after
     * {@link #readQueue}.
     *
     * @return the key's slot
     * @throws IOException if the input is not such state
     */
    int readKey(int key, DataInput in, EventCodec<Object> codec) throws IOException {
        if (holds(key)) {
            throw new IOException("key id " + key + " appears twice in the slice window operator's state");
        }
        int id = in.readInt();
        if (id < 0 || id >= slotHi || keyOfSlot[id] >= 0) {
            throw new IOException("key id " + key + " in slot " + id + ", outside the " + slotHi
                    + " slots or taken");
        }
        if (key >= slotOf.length) {
            slotOf = Arrays.copyOf(slotOf, Math.max(key + 1, Math.max(64, slotOf.length * 2)));
        }
        slotOf[key] = id + 1;
        keyOfSlot[id] = key;
        keysHeld++;
        timerAt[id] = in.readLong();
        cleanupAt[id] = in.readLong();
        lastSlice[id] = in.readLong();
        boolean backStaleRead = in.readBoolean();
        long frontStaleRead = in.readLong();
        back[id] = in.readBoolean() ? codec.read(in) : null;
        int entries = in.readInt();
        if (entries < 0) {
            throw new IOException("a key with " + entries + " slices");
        }
        long previous = Long.MAX_VALUE;
        long highestValue = NONE;
        Object above = null;
        for (int e = 0; e < entries; e++) {
            long k = in.readLong();
            int flags = in.readUnsignedByte();
            if (e > 0 && k >= previous || (flags & ~(HAS_VALUE | HAS_SUFFIX | SUFFIX_AS_ABOVE)) != 0
                    || flags == 0 || ((flags & SUFFIX_AS_ABOVE) != 0 && ((flags & HAS_SUFFIX) == 0 || above == null))) {
                throw new IOException("slice " + k + " has flags " + flags + ", which no key writes");
            }
            previous = k;
            Column col = find(k);
            if ((flags & HAS_SUFFIX) != 0 && (col == null || col.suffixes == null)) {
                throw new IOException("slice " + k + " has a suffix but is not in the front");
            }
            if ((flags & HAS_VALUE) != 0) {
                Object value = codec.read(in);
                long last = lastSlice[id];
                put(id, k, value);
                lastSlice[id] = last;
                col = find(k);
                highestValue = highestValue == NONE ? k : highestValue; // written from the last slice down
            }
            if ((flags & HAS_SUFFIX) != 0) {
                Object suffix = (flags & SUFFIX_AS_ABOVE) != 0 ? above : codec.read(in);
                if (id >= col.suffixes.length) {
                    col.suffixes = Arrays.copyOf(col.suffixes, Math.max(id + 1, 2 * col.suffixes.length));
                }
                col.suffixes[id] = suffix;
                col.suffixesHi = Math.max(col.suffixesHi, id + 1);
                above = suffix;
            } else if (col != null && col.suffixes != null) {
                above = null;
            }
        }
        checkLastSlice(key, lastSlice[id], highestValue);
        // put() marked the slices it filled as stale where they fell in the queue: the snapshot's own marks hold
        backStale[id] = backStaleRead;
        frontStaleAt[id] = frontStaleRead;
        return id;
    }

    /**
     * A key's last slice is the highest it put a value in, and its slices leave only from the front: a restored key
     * whose last slice is another than its highest slice with a value was damaged (with a last slice far ahead it
     * would fire every slide up to it).
     */
    private static void checkLastSlice(int key, long last, long highestValue) throws IOException {
        if (last != highestValue) {
            throw new IOException("key id " + key + " has its last slice at " + last + ", but its highest slice with a"
                    + " value is " + (highestValue == NONE ? "none" : Long.toString(highestValue)));
        }
    }
}
