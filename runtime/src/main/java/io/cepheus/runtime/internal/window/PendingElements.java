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
    private int size;

    /** @param capacity the most elements held; {@link #add} reports when it is reached */
    PendingElements(int capacity) {
        keyIds = new int[capacity];
        events = new Object[capacity];
        timestamps = new long[capacity];
    }

    /** @return whether the batch is full now (the owner must take it before adding more) */
    boolean add(int keyId, Object event, long timestamp) {
        int n = size;
        keyIds[n] = keyId;
        events[n] = event;
        timestamps[n] = timestamp;
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
            java.util.Arrays.fill(events, rest, size, null);
        }
        size = rest;
    }
}
