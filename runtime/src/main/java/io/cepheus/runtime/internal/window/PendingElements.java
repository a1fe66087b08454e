package io.cepheus.runtime.internal.window;

/**
 * Elements an operator accepted but has not added to their keys' state yet, in arrival order: the operator adds
 * them as one batch, so that it can load the state of a whole group of keys at once ({@code GroupPrefetch})
 * instead of one key at a time. A fixed capacity bounds how long an element waits and what the batch holds.
 *
 * <p>Owned by the shard thread, like the operator that holds it.
 */
final class PendingElements {

    private final int[] keyIds;
    private final Object[] events;
    private final long[] timestamps;
    // the element's slice and first window end, worked out on arrival: a long division each, not done again
    private final long[] slices;
    private final long[] ends;
    private int size;

    /** @param capacity the most elements held; {@link #add} reports when it is reached */
    PendingElements(int capacity) {
        keyIds = new int[capacity];
        events = new Object[capacity];
        timestamps = new long[capacity];
        slices = new long[capacity];
        ends = new long[capacity];
    }

    /**
     * @param slice the element's slice number
     * @param end   the end of the first window holding it that has not fired (the owner adds the batch before the
     *              watermark moves, so this stays true until then)
     * @return whether the batch is full now (the owner must take it before adding more)
     */
    boolean add(int keyId, Object event, long timestamp, long slice, long end) {
        int n = size;
        keyIds[n] = keyId;
        events[n] = event;
        timestamps[n] = timestamp;
        slices[n] = slice;
        ends[n] = end;
        size = n + 1;
        return size == keyIds.length;
    }

    int size() {
        return size;
    }

    int keyId(int i) {
        return keyIds[i];
    }

    long timestamp(int i) {
        return timestamps[i];
    }

    long slice(int i) {
        return slices[i];
    }

    long end(int i) {
        return ends[i];
    }

    /** @return element {@code i}, which this batch forgets (it is being added) */
    Object take(int i) {
        Object e = events[i];
        events[i] = null;
        return e;
    }

    /** Forgets elements {@code [0, n)} (taken), keeping the rest in order. */
    void dropFirst(int n) {
        int rest = size - n;
        if (rest > 0) {
            System.arraycopy(keyIds, n, keyIds, 0, rest);
            System.arraycopy(events, n, events, 0, rest);
            System.arraycopy(timestamps, n, timestamps, 0, rest);
            System.arraycopy(slices, n, slices, 0, rest);
            System.arraycopy(ends, n, ends, 0, rest);
            java.util.Arrays.fill(events, rest, size, null);
        }
        size = rest;
    }
}
