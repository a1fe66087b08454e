package io.cepheus.runtime.internal.timer;

import java.util.Arrays;

/**
 * (time, key id) entries in coarse buckets of event time, taken out unordered once the watermark passes their
 * time: for an operator that keeps each key's due time itself, checks it exactly when the entry comes out and
 * orders what is really due on its own ({@link KeyDueHeap}). Most entries of such an operator are re-checks (a key
 * whose due time moved later since the entry was made), and those need no order.
 *
 * <p>Design (a hashed timing wheel over event time): bucket {@code (time >> shift) & mask} holds the entries of
 * its time slice and of the slices one or more laps later. Adding is an append to the bucket's array; taking the
 * entries due at a watermark scans the buckets of the slices the watermark moved through since the previous take
 * (all of them if it moved a whole lap or more), moves out the entries whose time it passed and keeps the others
 * (a later lap, or later in the slice the watermark is in). A slice width well under the operator's horizon keeps
 * the rescans of partly passed slices short, and enough buckets for the horizon keeps later-lap entries rare.
 * Compared with a binary heap of one entry per key, an add or a take touches one bucket's tail, not a path of
 * log n cache lines through the heap.
 *
 * <p>Entries are not looked up or deleted: the owner keeps the entry that counts per key and skips the others.
 *
 * <p>Owned by the shard thread, like the operator that holds it.
 */
public final class KeyDueWheel {

    /** A bucket left empty with more room than this (longs) gives its array back. */
    private static final int TRIM_ABOVE = 2048;
    /** A bucket emptied with an array longer than this gives it back (see {@link #KeyDueWheel(long, int, int)}). */
    private final int trimAbove;

    private final int shift;
    private final int mask;
    /** Per bucket, (time, key id) pairs; null until the bucket is first used. */
    private final long[][] buckets;
    private final int[] sizes;
    private int size;
    /** Every entry with a time at or before this has been taken. */
    private long takenUpTo = Long.MIN_VALUE;

    private long[] taken = new long[8];
    private int takenCount;

    /**
     * @param sliceWidth the width of a bucket's time slice in ms (rounded down to a power of two), at least 1
     * @param bucketCount the number of buckets (rounded up to a power of two), at least 1
     */
    public KeyDueWheel(long sliceWidth, int bucketCount) {
        this(sliceWidth, bucketCount, TRIM_ABOVE);
    }

    /**
     * @param sliceWidth  the width of a bucket's time slice in ms (rounded down to a power of two), at least 1
     * @param bucketCount the number of buckets (rounded up to a power of two), at least 1
     * @param trimAbove   an emptied bucket whose array holds more than this many longs gives it back: a small value
     *                    for many small wheels, whose emptied buckets would otherwise each keep the room of their
     *                    busiest slice
     */
    public KeyDueWheel(long sliceWidth, int bucketCount, int trimAbove) {
        this.trimAbove = trimAbove;
        if (sliceWidth < 1 || bucketCount < 1 || bucketCount > 1 << 20) {
            throw new IllegalArgumentException("slice width " + sliceWidth + " and bucket count " + bucketCount
                    + " must be at least 1 (at most 2^20 buckets)");
        }
        this.shift = 63 - Long.numberOfLeadingZeros(sliceWidth);
        int n = Integer.highestOneBit(bucketCount);
        n = n < bucketCount ? n << 1 : n;
        this.mask = n - 1;
        this.buckets = new long[n][];
        this.sizes = new int[n];
    }

    /**
     * A wheel for an operator whose due times lie about {@code scale} ms ahead and at most {@code horizon} ms: slices
     * of about 1/256 of the scale (rescans of a partly passed slice stay short), buckets for the whole horizon
     * (entries a lap or more ahead stay rare), 64 to 4,096 of them.
     *
     * @param scale   the typical distance of a due time, in ms (a session gap, a pattern window), at least 1
     * @param horizon the farthest due time usually ahead, in ms
     * @return the wheel
     */
    public static KeyDueWheel sizedFor(long scale, long horizon) {
        long width = Math.max(1, Long.highestOneBit(Math.max(1, scale / 256)));
        long buckets = Math.max(64, Math.min(4096, horizon / width));
        return new KeyDueWheel(width, (int) buckets);
    }

    /** @return the number of entries, stale ones included */
    public int size() {
        return size;
    }

    /**
     * Adds the entry (time, keyId).
     *
     * @throws IllegalArgumentException if {@code time} is not after the watermark of the last {@link #takeDue}
     */
    public void add(long time, int keyId) {
        if (time <= takenUpTo) {
            throw new IllegalArgumentException("entry at " + time + " is not after " + takenUpTo
                    + ", where the entries were already taken");
        }
        int b = (int) (time >> shift) & mask;
        long[] entries = buckets[b];
        int n = sizes[b];
        if (entries == null) {
            entries = new long[8];
            buckets[b] = entries;
        } else if (2 * n == entries.length) {
            entries = Arrays.copyOf(entries, entries.length * 2);
            buckets[b] = entries;
        }
        entries[2 * n] = time;
        entries[2 * n + 1] = keyId;
        sizes[b] = n + 1;
        size++;
    }

    /**
     * Takes out every entry with a time at or before {@code watermark}, in no particular order; read them with
     * {@link #takenTime} and {@link #takenKey} until the next call.
     *
     * @return the number of entries taken
     */
    public int takeDue(long watermark) {
        takenCount = 0;
        if (watermark <= takenUpTo) {
            return 0;
        }
        long from = takenUpTo == Long.MIN_VALUE ? Long.MIN_VALUE : (takenUpTo + 1) >> shift;
        long to = watermark >> shift;
        takenUpTo = watermark;
        if (size == 0) {
            return 0;
        }
        if (from == Long.MIN_VALUE || to - from >= mask || to - from < 0) { // a lap or more (< 0: overflow)
            for (int b = 0; b <= mask; b++) {
                takeFrom(b, watermark);
            }
        } else {
            // counted, not "slice <= to": at the end of time to is Long.MAX_VALUE, and slice++ would wrap past it
            for (long n = to - from, slice = from; n >= 0; n--, slice++) {
                takeFrom((int) slice & mask, watermark);
            }
        }
        return takenCount;
    }

    private void takeFrom(int b, long watermark) {
        int n = sizes[b];
        if (n == 0) {
            return;
        }
        long[] entries = buckets[b];
        int kept = 0;
        for (int i = 0; i < n; i++) {
            long time = entries[2 * i];
            long key = entries[2 * i + 1];
            if (time <= watermark) {
                if (2 * takenCount == taken.length) {
                    taken = Arrays.copyOf(taken, taken.length * 2);
                }
                taken[2 * takenCount] = time;
                taken[2 * takenCount + 1] = key;
                takenCount++;
            } else {
                entries[2 * kept] = time;
                entries[2 * kept + 1] = key;
                kept++;
            }
        }
        size -= n - kept;
        sizes[b] = kept;
        if (kept == 0 && entries.length > trimAbove) {
            buckets[b] = null; // a burst of keys is gone: give its memory back
        }
    }

    /** Gives back the room of a large batch of taken entries once they have been read. */
    public void trimTaken() {
        if (taken.length > TRIM_ABOVE) {
            taken = new long[64];
        }
        takenCount = 0;
    }

    /** @return the time of taken entry {@code i} of the last {@link #takeDue} */
    public long takenTime(int i) {
        return taken[2 * i];
    }

    /** @return the key id of taken entry {@code i} of the last {@link #takeDue} */
    public int takenKey(int i) {
        return (int) taken[2 * i + 1];
    }
}
