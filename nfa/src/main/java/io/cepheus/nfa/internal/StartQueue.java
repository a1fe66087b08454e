package io.cepheus.nfa.internal;

/**
 * The array layout of Flink CEP's queues of partial and of completed matches, reproduced because it decides
 * which of several held matches with the same start event a skip strategy releases first (and so which ones
 * it prunes), and in which order partial matches are stepped.
 *
 * <p>Flink 2.3 keeps both in a {@code java.util.PriorityQueue} ordered by start event only (timestamp, then
 * arrival among equal timestamps: Cepheus's start sequence number). A priority queue is a binary min-heap in an
 * array; equal keys end up in whatever positions its insertions and removals leave them, and Flink iterates the
 * array in that order. The operations here move elements exactly as that queue does, so the same sequence of
 * operations gives the same array:
 * <ul>
 *   <li>insert ({@code add}): append, then move up while strictly smaller than the parent;</li>
 *   <li>remove the head ({@code poll}): the last element goes to the head, then moves down past the smaller
 *       child (the left one on a tie) while strictly larger than it;</li>
 *   <li>remove several ({@code removeAll}, used by pruning): survivors close up in array order and, if any
 *       element went, the array is re-heaped bottom-up (each parent from the last one down to the head moved
 *       down as above); nothing changes if none went.</li>
 * </ul>
 * Partial matches are records of {@link KeyState#STRIDE} longs keyed by {@link KeyState#START_SEQ}; completed
 * matches are (entry, start sequence) pairs. Flink's queue of partial matches also holds its start state, keyed
 * after every partial match; it is added last at every step and rebuild, so it always sits at the end of the
 * array, a leaf no operation moves and none of the others' moves depends on: it is left out here.
 */
final class StartQueue {

    private static final int S = KeyState.STRIDE;
    private static final int KEY = KeyState.START_SEQ;

    private StartQueue() {
    }

    // ------------------------------------------------------------------ records (partial matches)

    /** Moves record {@code k} of {@code a} up to its place (insertion of the k-th record). */
    static void siftUp(long[] a, int k) {
        long key = a[k * S + KEY];
        while (k > 0) {
            int parent = (k - 1) >>> 1;
            if (key >= a[parent * S + KEY]) {
                break;
            }
            swap(a, k, parent);
            k = parent;
        }
    }

    /** Moves record {@code k} of the first {@code n} down to its place. */
    static void siftDown(long[] a, int k, int n) {
        long key = a[k * S + KEY];
        int half = n >>> 1;
        while (k < half) {
            int child = 2 * k + 1;
            int right = child + 1;
            if (right < n && a[child * S + KEY] > a[right * S + KEY]) {
                child = right;
            }
            if (key <= a[child * S + KEY]) {
                break;
            }
            swap(a, k, child);
            k = child;
        }
    }

    /** Re-heaps the first {@code n} records bottom-up (after a removal of several). */
    static void heapify(long[] a, int n) {
        for (int k = (n >>> 1) - 1; k >= 0; k--) {
            siftDown(a, k, n);
        }
    }

    private static void swap(long[] a, int i, int j) {
        int x = i * S;
        int y = j * S;
        for (int f = 0; f < S; f++) {
            long t = a[x + f];
            a[x + f] = a[y + f];
            a[y + f] = t;
        }
    }

    // ------------------------------------------------------------------ pairs (completed matches)

    /** Moves pair {@code k} up to its place (insertion of the k-th pair). */
    static void siftUp(int[] entry, long[] key, int k) {
        int e = entry[k];
        long x = key[k];
        while (k > 0) {
            int parent = (k - 1) >>> 1;
            if (x >= key[parent]) {
                break;
            }
            entry[k] = entry[parent];
            key[k] = key[parent];
            k = parent;
        }
        entry[k] = e;
        key[k] = x;
    }

    /** Moves pair {@code k} of the first {@code n} down to its place. */
    static void siftDown(int[] entry, long[] key, int k, int n) {
        int e = entry[k];
        long x = key[k];
        int half = n >>> 1;
        while (k < half) {
            int child = 2 * k + 1;
            int right = child + 1;
            if (right < n && key[child] > key[right]) {
                child = right;
            }
            if (x <= key[child]) {
                break;
            }
            entry[k] = entry[child];
            key[k] = key[child];
            k = child;
        }
        entry[k] = e;
        key[k] = x;
    }

    /** Re-heaps the first {@code n} pairs bottom-up (after a removal of several). */
    static void heapify(int[] entry, long[] key, int n) {
        for (int k = (n >>> 1) - 1; k >= 0; k--) {
            siftDown(entry, key, k, n);
        }
    }

    /**
     * Turns the first {@code n} pairs, in the order they were created, into the queue those insertions give.
     */
    static void insertAll(int[] entry, long[] key, int n) {
        for (int k = 1; k < n; k++) {
            siftUp(entry, key, k);
        }
    }

    /** Removes the head of the first {@code n} pairs; the queue then holds {@code n - 1}. */
    static void poll(int[] entry, long[] key, int n) {
        int last = n - 1;
        if (last > 0) {
            entry[0] = entry[last];
            key[0] = key[last];
            siftDown(entry, key, 0, last);
        }
    }
}
