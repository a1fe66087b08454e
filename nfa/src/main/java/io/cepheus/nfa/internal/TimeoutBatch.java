package io.cepheus.nfa.internal;

import java.util.Arrays;

/**
 * The partial matches one advance of a key's time timed out, as (last buffer entry, timeout time), with the
 * duplicates marked so that each distinct timed-out partial match is reported once.
 *
 * <p>Why duplicates arise: one partial match can sit in several internal states at once (a looping stage that
 * may also proceed, an optional stage), and Flink reports a timeout per state. Two timeouts are the same partial
 * match when their entries are the same or hold the same events in the same stages all the way back. Such a
 * timeout is reported once, at the earliest time any of its states timed out. Timeouts are bucketed by their last
 * event, so only candidates in the same bucket are compared: linear for the usual case of distinct timeouts.
 *
 * <p>Owned by the thread of the {@link NfaEngine} that holds it; reused for every advance (no allocation once
 * its arrays have grown to the largest batch).
 */
final class TimeoutBatch {

    private static final int NONE = SharedBuffer.NONE;

    private final SharedBuffer buffer;
    private int count;
    private int[] entry = new int[8];
    private long[] time = new long[8];
    /** Whether timeout k repeats an earlier one of the batch. */
    private boolean[] repeats = new boolean[8];
    private int[] bucketHead = new int[8];
    private int[] bucketNext = new int[8];

    TimeoutBatch(SharedBuffer buffer) {
        this.buffer = buffer;
    }

    /** Empties the batch (the entries' references are the caller's to release first). */
    void clear() {
        count = 0;
    }

    /** Adds a timed-out partial match: its last entry and the time it timed out at. */
    void add(int lastEntry, long timeoutTime) {
        if (count == entry.length) {
            entry = Arrays.copyOf(entry, count * 2);
            time = Arrays.copyOf(time, count * 2);
        }
        entry[count] = lastEntry;
        time[count++] = timeoutTime;
    }

    /** @return the number of timeouts added, duplicates included */
    int size() {
        return count;
    }

    /** @return timeout {@code i}'s last buffer entry */
    int entry(int i) {
        return entry[i];
    }

    /** @return the time timeout {@code i} is reported at (after {@link #markRepeats}: the earliest of its copies) */
    long time(int i) {
        return time[i];
    }

    /** @return whether timeout {@code i} repeats an earlier one (valid after {@link #markRepeats}) */
    boolean repeats(int i) {
        return repeats[i];
    }

    /**
     * Marks each timeout that repeats an earlier one of the batch, and gives the first of them the earliest time
     * among its copies (not whichever internal state happens to come first).
     */
    void markRepeats() {
        if (count == 0) {
            return;
        }
        prepareBuckets();
        for (int i = 0; i < count; i++) {
            int earlier = earlierSame(i);
            repeats[i] = earlier >= 0;
            if (earlier >= 0) {
                time[earlier] = Math.min(time[earlier], time[i]);
            }
        }
    }

    private void prepareBuckets() {
        int size = Integer.highestOneBit(Math.max(4, count * 2 - 1) * 2);
        if (bucketHead.length < size) {
            bucketHead = new int[size];
        }
        Arrays.fill(bucketHead, -1);
        if (bucketNext.length < count) {
            bucketNext = new int[entry.length];
        }
        if (repeats.length < count) {
            repeats = new boolean[entry.length];
        }
    }

    /** @return the earlier timeout of the batch that timeout {@code i} repeats, -1 if none */
    private int earlierSame(int i) {
        int e = entry[i];
        int bucket = buffer.eventSlot(e) & (bucketHead.length - 1);
        for (int j = bucketHead[bucket]; j >= 0; j = bucketNext[j]) {
            if (sameChain(e, entry[j])) {
                return j;
            }
        }
        bucketNext[i] = bucketHead[bucket];
        bucketHead[bucket] = i;
        return -1;
    }

    /** @return whether two entries hold the same events in the same stages all the way back */
    private boolean sameChain(int a, int b) {
        while (a != NONE && b != NONE) {
            if (a == b) {
                return true;
            }
            if (buffer.eventSlot(a) != buffer.eventSlot(b) || buffer.stage(a) != buffer.stage(b)) {
                return false;
            }
            a = buffer.prev(a);
            b = buffer.prev(b);
        }
        return a == b;
    }
}
