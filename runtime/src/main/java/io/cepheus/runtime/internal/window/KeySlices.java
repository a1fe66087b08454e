package io.cepheus.runtime.internal.window;

import io.cepheus.runtime.internal.shard.GroupPrefetch;
import java.util.Arrays;

/**
 * One key's slices for {@link SliceWindowOperator}: the value of each slice (slice number {@code k} covers
 * {@code [k * g, (k + 1) * g)} relative to the assigner's offset) and the aggregation of the windows that fire,
 * each a run of consecutive slices.
 *
 * <p>Design ("two stacks" FIFO aggregation, as in Tangwongsan, Hirzel and Schneider's survey of sliding-window
 * aggregation): windows fire in order and each one's slice range {@code [from, to)} starts and ends later than the
 * previous one's, so the slices in play form a queue: slices leave at the front, arrive at the back. The queue
 * {@code [qLo, qHi)} is split at {@code f}: the <em>front</em> {@code [qLo, f)} keeps, for each slice {@code k},
 * the suffix aggregate {@code value(k) + ... + value(f - 1)}; the <em>back</em> {@code [f, qHi)} keeps one running
 * aggregate. A window is {@code suffix(from) + back}: one combination. Moving to the next window pushes its new
 * slices onto the back (one combination each) and pops slices off the front (nothing to compute); when the front
 * is exhausted ({@code from >= f}) the front is rebuilt over the whole window ("flip": size / g combinations, once
 * per size / slide firings). So a firing costs O(slide / g) combinations amortized, whatever size / slide is,
 * instead of the size / g of combining every slice.
 *
 * <p>Out-of-order elements: an element may still land in a slice already in the queue (its timestamp is behind the
 * watermark but a later window holding it is open). Such a change invalidates what it touches: in the back, the
 * running aggregate (recomputed from the back's slices at the next firing); in the front, the suffixes at and below
 * that slice (recomputed down to the next window's first slice, from the intact suffix above it). In-order elements
 * land behind {@code qHi} and invalidate nothing.
 *
 * <p>Ownership of values: slice values belong to the slices; suffixes and the back are copies owned by this
 * structure (a null slice makes a suffix equal to the one above it: the same object, never changed afterwards).
 * The window's suffix at {@code from} is never needed again once that window fired, so a firing combines the back
 * into it in place and hands it out, unless it is shared with the suffix above.
 *
 * <p>Storage: slot {@code 2p} holds the value and slot {@code 2p + 1} the suffix of the slice at ring position
 * {@code p = k & mask} in one power-of-two array, so a slice and its suffix share a cache line; the ring holds slice
 * numbers {@code [base, base + len)}. Positions outside that range hold nulls.
 *
 * <p>Owned by the shard thread, like the operator that holds it.
 */
final class KeySlices {

    private static final long NONE = Long.MIN_VALUE;
    private static final int MAX_SLICES = 1 << 26;

    private Object[] slots;
    private int mask;
    private long base;
    private int len;
    private int filled;

    /** The key's one pending event-time timer, or {@code Long.MAX_VALUE} for none (kept here by the operator). */
    long timerAt = Long.MAX_VALUE;
    /**
     * With allowed lateness: the time at which the operator next drops the slices past cleanup, set while no
     * firing is pending (a firing drops them too), or {@code Long.MAX_VALUE} for none.
     */
    long cleanupAt = Long.MAX_VALUE;

    // the queue: front [qLo, f) as suffixes, back [f, qHi) as one aggregate; all NONE when empty
    private long qLo = NONE;
    private long f = NONE;
    private long qHi = NONE;
    private Object back;
    private boolean backStale;
    /** The highest front slice changed since the suffixes were computed, or NONE. */
    private long frontStaleAt = NONE;

    /** What {@link #rebuildFront} loaded ahead, kept so the loads are not removed as dead code. */
    private int loadedAhead;

    /** A ring of 8 slices, grown when needed. */
    KeySlices() {
        this(8);
    }

    /**
     * @param expectedSlices how many slices the key usually holds (a window's worth): the ring is made that big at
     *                       once, so it is allocated next to this object instead of regrown elsewhere later (one
     *                       cache line apart rather than anywhere in the heap, when the key's windows fire)
     */
    KeySlices(int expectedSlices) {
        int cap = Integer.highestOneBit(Math.max(8, Math.min(expectedSlices, 1 << 12)) - 1) << 1;
        slots = new Object[2 * cap];
        mask = cap - 1;
    }

    // ------------------------------------------------------------------ loads ahead (GroupPrefetch stages)

    /** Stage 1: brings this object into the cache. @return a value to sum */
    int touchHeader() {
        return mask;
    }

    /**
     * Stage 2 for a firing of slices {@code [from, to)}: brings in the ring's lines that {@link #window} reads
     * first (the suffix at {@code from}, the value at {@code to - 1}). @return a value to sum
     */
    int touchRing(long from, long to) {
        Object[] s = slots;
        int m = mask;
        return (s[2 * (int) (from & m) + 1] == null ? 1 : 0) + (s[2 * (int) ((to - 1) & m)] == null ? 1 : 0);
    }

    /** Stage 3 for a firing of slices {@code [from, to)}: brings in the aggregates it combines. @return a value to sum */
    int touchAggregates(long from, long to) {
        Object[] s = slots;
        int m = mask;
        return GroupPrefetch.touch(s[2 * (int) (from & m) + 1]) + GroupPrefetch.touch(s[2 * (int) ((to - 1) & m)])
                + GroupPrefetch.touch(back);
    }

    /**
     * Stage 2 for an element of slice {@code k}: brings in the ring's line for it, also when the key holds no such
     * slice yet (in order, every slice's first element is one: {@link #put} writes it there, unless the ring must
     * grow). @return a value to sum
     */
    int touchSlice(long k) {
        return slots[2 * (int) (k & mask)] == null ? 1 : 0;
    }

    /** Stage 3 for an element of slice {@code k}: brings in the slice's value. @return a value to sum */
    int touchValue(long k) {
        return k >= base && k - base < len ? GroupPrefetch.touch(slots[2 * (int) (k & mask)]) : 0;
    }

    /** @return whether no slice holds a value */
    boolean isEmpty() {
        return filled == 0;
    }

    /** @return the first slice number held (meaningful when {@link #length()} &gt; 0) */
    long base() {
        return base;
    }

    /** @return how many slice numbers the ring holds, from {@link #base()} */
    int length() {
        return len;
    }

    /** @return slice {@code k}'s value, or null */
    Object value(long k) {
        return k >= base && k - base < len ? slots[2 * (int) (k & mask)] : null;
    }

    private Object suffix(long k) {
        return k < f && k >= base && k - base < len ? slots[2 * (int) (k & mask) + 1] : null;
    }

    /**
     * Sets slice {@code k}'s value (a new one, or the same accumulator changed in place), invalidating what the
     * queue derived from it.
     *
     * @return whether the slice had no value before
     */
    boolean put(long k, Object value) {
        int p = 2 * position(k);
        boolean fresh = slots[p] == null;
        slots[p] = value;
        if (fresh) {
            filled++;
        }
        if (k >= qLo && k < qHi) {
            if (k < f) {
                frontStaleAt = Math.max(frontStaleAt, k);
            } else {
                backStale = true;
            }
        }
        return fresh;
    }

    /**
     * @return whether slice {@code k} can be held along with the slices held now: the ring covers every slice
     *         number between its first and last, at most {@value #MAX_SLICES} of them (computed without overflow,
     *         for slice numbers anywhere in the long range)
     */
    boolean canHold(long k) {
        if (len == 0) {
            return true;
        }
        long lo = Math.min(base, k);
        long hi = Math.max(base + len - 1, k);
        long span = hi - lo; // negative when the true difference overflows a long
        return span >= 0 && span < MAX_SLICES;
    }

    /** @return the most slices a key's ring covers */
    static int maxSlices() {
        return MAX_SLICES;
    }

    /** @return whether the first slice held had a value (it is dropped with its suffix) */
    boolean dropFirst() {
        int p = 2 * (int) (base & mask);
        boolean had = slots[p] != null;
        slots[p] = null;
        slots[p + 1] = null;
        if (had) {
            filled--;
        }
        base++;
        len--;
        return had;
    }

    /** Forgets everything, keeping the arrays for the next key. */
    void reset() {
        Arrays.fill(slots, null);
        len = 0;
        filled = 0;
        timerAt = Long.MAX_VALUE;
        cleanupAt = Long.MAX_VALUE;
        qLo = NONE;
        f = NONE;
        qHi = NONE;
        back = null;
        backStale = false;
        frontStaleAt = NONE;
    }

    /**
     * The aggregate of slices {@code [from, to)}. Calls must come in window order: {@code from} and {@code to}
     * larger than the previous call's. A slice before {@code from} may still change afterwards (a late element
     * within the allowed lateness), but this queue never reads it again: late firings combine their windows
     * from the slices directly.
     *
     * @return a value the caller owns (the structure keeps no reference that it will change), or null if all
     *         those slices are empty
     */
    Object window(long from, long to, SliceCombiner c) {
        long liveEnd = base + len;
        long popEnd = Math.min(Math.min(from, f), liveEnd);
        for (long k = Math.max(qLo, base); k < popEnd; k++) {
            slots[2 * (int) (k & mask) + 1] = null;
        }
        if (from >= f) {
            rebuildFront(from, to, c);
        } else {
            if (backStale) {
                back = fold(f, to, c);
                backStale = false;
            } else {
                for (long k = Math.max(qHi, base); k < Math.min(to, liveEnd); k++) {
                    Object v = slots[2 * (int) (k & mask)];
                    if (v != null) {
                        back = back == null ? c.copy(v) : c.combine(back, v);
                    }
                }
            }
            qHi = to;
            if (frontStaleAt >= from) {
                recomputeSuffixes(from, frontStaleAt, c);
            }
            frontStaleAt = NONE;
        }
        qLo = from;
        long lo = Math.max(from, base);
        Object head = suffix(lo);
        if (head == null) {
            return back == null ? null : c.copy(back);
        }
        boolean owned = lo == from && suffix(from + 1) != head;
        if (owned) {
            slots[2 * (int) (from & mask) + 1] = null; // popped now: its window has fired
            qLo = from + 1;
        } else {
            head = c.copy(head);
        }
        return back == null ? head : c.combine(head, back);
    }

    /** The front becomes the whole window {@code [from, to)} as suffixes; the back is empty. */
    private void rebuildFront(long from, long to, SliceCombiner c) {
        back = null;
        backStale = false;
        frontStaleAt = NONE;
        f = to;
        qHi = to;
        long lo = Math.max(from, base);
        long hi = Math.min(to, base + len) - 1;
        loadedAhead += touchValues(lo, hi);
        writeSuffixes(lo, hi, null, c);
    }

    /**
     * Brings the values of slices {@code [lo, hi]} into the cache before {@link #writeSuffixes} combines them: a
     * window's values were made at different times, so they lie apart in the heap and, with many keys, out of the
     * cache. This loop only loads, so the loads overlap; the combining loop stores each suffix into the ring, and a
     * store of a reference may wait for every load in flight (see {@link GroupPrefetch}), which would take the
     * misses one at a time.
     */
    private int touchValues(long lo, long hi) {
        Object[] s = slots;
        int m = mask;
        int sum = 0;
        for (long k = lo; k <= hi; k++) {
            sum += GroupPrefetch.touch(s[2 * (int) (k & m)]);
        }
        return sum;
    }

    /** Recomputes the front's suffixes from slice {@code top} (changed) down to {@code from}. */
    private void recomputeSuffixes(long from, long top, SliceCombiner c) {
        long hi = Math.min(top, base + len - 1);
        writeSuffixes(Math.max(from, base), hi, suffix(hi + 1), c);
    }

    private void writeSuffixes(long lo, long hi, Object above, SliceCombiner c) {
        Object acc = above;
        for (long k = hi; k >= lo; k--) {
            int p = 2 * (int) (k & mask);
            Object v = slots[p];
            if (v != null) {
                acc = acc == null ? c.copy(v) : c.combine(c.copy(v), acc);
            }
            slots[p + 1] = acc;
        }
    }

    private Object fold(long from, long to, SliceCombiner c) {
        Object acc = null;
        for (long k = Math.max(from, base); k < Math.min(to, base + len); k++) {
            Object v = slots[2 * (int) (k & mask)];
            if (v != null) {
                acc = acc == null ? c.copy(v) : c.combine(acc, v);
            }
        }
        return acc;
    }

    /** @return the ring position of slice {@code k}, widening the held range (and the ring) to include it */
    private int position(long k) {
        if (len == 0) {
            base = k;
            len = 1;
        } else if (k < base) {
            long oldBase = base;
            Object above = suffix(oldBase);
            long newLen = base + len - k;
            grow(newLen);
            base = k;
            len = (int) newLen;
            // the new slices are empty: where they fall in the front, their suffix is the one above them
            for (long j = Math.max(k, qLo); j < Math.min(oldBase, f); j++) {
                slots[2 * (int) (j & mask) + 1] = above;
            }
        } else if (k - base >= len) {
            grow(k - base + 1);
            len = (int) (k - base + 1);
        }
        return (int) (k & mask);
    }

    private void grow(long needed) {
        if (needed <= mask + 1) {
            return;
        }
        if (needed > MAX_SLICES) {
            throw new IllegalStateException("a key holds " + needed + " slices: the stream's timestamps spread"
                    + " too far behind the watermark");
        }
        int cap = Integer.highestOneBit((int) needed - 1) << 1;
        Object[] bigger = new Object[2 * cap];
        for (int i = 0; i < len; i++) {
            long k = base + i;
            int from = 2 * (int) (k & mask);
            int to = 2 * (int) (k & (cap - 1));
            bigger[to] = slots[from];
            bigger[to + 1] = slots[from + 1];
        }
        slots = bigger;
        mask = cap - 1;
    }

    // ------------------------------------------------------------------ snapshots

    private static final int HAS_VALUE = 1;
    private static final int HAS_SUFFIX = 2;
    /** The suffix is the very object of the slice above's suffix (an empty slice repeats the suffix above it). */
    private static final int SUFFIX_AS_ABOVE = 4;

    /**
     * Writes this key's slices with the queue's derived state (suffixes, back, where the front ends), not only the
     * slice values: a window's value depends on how its slices were grouped when combined, and a function need not
     * be associative to the last bit (a floating-point sum), so a restored key must combine exactly as this one
     * would have. Slices are written from the last down, so a suffix shared with the slice above is written once.
     *
     * @param values writes slice values, suffixes and the back (reduced values or accumulators)
     */
    void writeTo(java.io.DataOutput out, io.cepheus.nfa.EventCodec<Object> values) throws java.io.IOException {
        out.writeLong(timerAt);
        out.writeLong(cleanupAt);
        out.writeLong(base);
        out.writeInt(len);
        out.writeLong(qLo);
        out.writeLong(f);
        out.writeLong(qHi);
        out.writeBoolean(backStale);
        out.writeLong(frontStaleAt);
        out.writeBoolean(back != null);
        if (back != null) {
            values.write(back, out);
        }
        Object above = null;
        for (int i = len - 1; i >= 0; i--) {
            int p = 2 * (int) ((base + i) & mask);
            Object value = slots[p];
            Object suffix = slots[p + 1];
            boolean asAbove = suffix != null && suffix == above;
            out.writeByte((value != null ? HAS_VALUE : 0) | (suffix != null ? HAS_SUFFIX : 0)
                    | (asAbove ? SUFFIX_AS_ABOVE : 0));
            if (value != null) {
                values.write(value, out);
            }
            if (suffix != null && !asAbove) {
                values.write(suffix, out);
            }
            above = suffix;
        }
    }

    /**
     * Restores what {@link #writeTo} wrote into this empty (new or {@link #reset}) object.
     *
     * @return how many slices hold a value
     * @throws java.io.IOException if the input is not such state
     */
    int readFrom(java.io.DataInput in, io.cepheus.nfa.EventCodec<Object> values) throws java.io.IOException {
        timerAt = in.readLong();
        cleanupAt = in.readLong();
        long first = in.readLong();
        int length = in.readInt();
        if (length < 0 || length > MAX_SLICES) {
            throw new java.io.IOException("a key's slice ring of " + length + " slices (at most " + MAX_SLICES + ")");
        }
        qLo = in.readLong();
        f = in.readLong();
        qHi = in.readLong();
        backStale = in.readBoolean();
        frontStaleAt = in.readLong();
        back = in.readBoolean() ? values.read(in) : null;
        base = first;
        len = 0;
        grow(length);
        len = length;
        Object above = null;
        for (int i = len - 1; i >= 0; i--) {
            long k = base + i;
            int flags = in.readUnsignedByte();
            if ((flags & ~(HAS_VALUE | HAS_SUFFIX | SUFFIX_AS_ABOVE)) != 0
                    || ((flags & SUFFIX_AS_ABOVE) != 0 && ((flags & HAS_SUFFIX) == 0 || above == null))) {
                throw new java.io.IOException("slice " + k + " has flags " + flags + ", which no key writes");
            }
            int p = 2 * (int) (k & mask);
            if ((flags & HAS_VALUE) != 0) {
                slots[p] = values.read(in);
                filled++;
            }
            Object suffix = null;
            if ((flags & HAS_SUFFIX) != 0) {
                suffix = (flags & SUFFIX_AS_ABOVE) != 0 ? above : values.read(in);
            }
            slots[p + 1] = suffix;
            above = suffix;
        }
        return filled;
    }
}
