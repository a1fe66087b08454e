package io.cepheus.runtime.internal.window;

import java.util.Arrays;

/**
 * The elements of one window in arrival order, with their timestamps, in two parallel arrays (no wrapper per
 * element). Owned by the shard thread, like the window holding it.
 */
final class ElementList {

    Object[] values = new Object[4];
    long[] timestamps = new long[4];
    int size;

    void add(Object value, long timestamp) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
            timestamps = Arrays.copyOf(timestamps, size * 2);
        }
        values[size] = value;
        timestamps[size++] = timestamp;
    }

    void addAll(ElementList other) {
        for (int i = 0; i < other.size; i++) {
            add(other.values[i], other.timestamps[i]);
        }
    }

    /** Drops the evicted positions, keeping the order of the others. @return how many were dropped */
    int compact(boolean[] evicted) {
        int w = 0;
        for (int r = 0; r < size; r++) {
            if (!evicted[r]) {
                values[w] = values[r];
                timestamps[w++] = timestamps[r];
            }
        }
        Arrays.fill(values, w, size, null);
        int dropped = size - w;
        size = w;
        return dropped;
    }
}
