package io.cepheus.runtime.internal.window;

import java.util.Arrays;

/**
 * The sessions of one key that has several at once ({@link KeySessions}), sorted by start. Sessions of a key never
 * overlap or touch (those that do are merged), so they are sorted by end too. Each has a creation number: merged
 * contents are combined in creation order, the order {@link WindowOperator} keeps its windows in. The merging itself
 * is {@link SessionListPath}'s.
 *
 * <p>Owned by the shard thread, like the operator that holds it.
 */
final class SessionList {

    long[] start = new long[4];
    long[] end = new long[4];
    long[] created = new long[4];
    Object[] acc = new Object[4];
    Object[] last = new Object[4];
    boolean[] pending = new boolean[4];
    int size;
    /** The creation number of the next session. */
    long nextCreated;

    /** @return the first session (index) whose end is at or after {@code ts}, or {@link #size} if none */
    int firstEndingAtOrAfter(long ts) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (end[mid] < ts) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Inserts an empty session at {@code at}, shifting the later ones up. */
    void insert(int at, long s, long e) {
        if (size == start.length) {
            int n = size * 2;
            start = Arrays.copyOf(start, n);
            end = Arrays.copyOf(end, n);
            created = Arrays.copyOf(created, n);
            acc = Arrays.copyOf(acc, n);
            last = Arrays.copyOf(last, n);
            pending = Arrays.copyOf(pending, n);
        }
        int tail = size - at;
        System.arraycopy(start, at, start, at + 1, tail);
        System.arraycopy(end, at, end, at + 1, tail);
        System.arraycopy(created, at, created, at + 1, tail);
        System.arraycopy(acc, at, acc, at + 1, tail);
        System.arraycopy(last, at, last, at + 1, tail);
        System.arraycopy(pending, at, pending, at + 1, tail);
        size++;
        start[at] = s;
        end[at] = e;
        created[at] = nextCreated++;
        acc[at] = null;
        last[at] = null;
        pending[at] = false;
    }

    /** Removes sessions {@code [from, to)}, shifting the later ones down. */
    void remove(int from, int to) {
        int tail = size - to;
        System.arraycopy(start, to, start, from, tail);
        System.arraycopy(end, to, end, from, tail);
        System.arraycopy(created, to, created, from, tail);
        System.arraycopy(acc, to, acc, from, tail);
        System.arraycopy(last, to, last, from, tail);
        System.arraycopy(pending, to, pending, from, tail);
        int newSize = size - (to - from);
        Arrays.fill(acc, newSize, size, null);
        Arrays.fill(last, newSize, size, null);
        size = newSize;
    }

    /** Empties the list for reuse. */
    void clear() {
        Arrays.fill(acc, 0, size, null);
        Arrays.fill(last, 0, size, null);
        size = 0;
        nextCreated = 0;
    }
}
