package io.cepheus.runtime.internal.shard;

import java.util.Arrays;

/**
 * Ids of numeric keys whose values are small non-negative integers, in an array indexed by the value, for
 * {@link KeyDictionary}. Finding a key is one array read and forgetting it one write, where a hash map mixes the
 * value, probes, and on removal shifts the entries after it back. Keys that are dense ids (account numbers, user
 * ids from a sequence) are common, and a shard with many short-lived keys forgets and re-learns them all the time
 * (on W1 two events in three create a key that was released before).
 *
 * <p>The table covers the values {@code [0, span())}. It grows (to the next power of two) to take a value only
 * while it stays dense: up to {@code max(2^16, 8 × the keys it holds)} values (and at most 2^26), so its memory
 * follows the number of keys in it rather than their largest value (keys drawn from all of {@code int} leave it at
 * 2^16 values, 256 KB); larger or negative values stay in the dictionary's hash map until the table, grown by
 * denser keys, comes to cover them. It never shrinks, like the hash maps beside it.
 *
 * <p>Owned by the shard's worker thread, like the dictionary.
 */
final class DirectIds {

    /** How many values the table may always cover, whatever the number of keys. */
    static final int ALWAYS_DIRECT = 1 << 16;
    private static final int NONE = -1;
    private static final int VALUES_PER_HELD_KEY = 8;
    private static final int MAX_SPAN = 1 << 26;

    private final int alwaysDirect;
    private int[] ids = new int[0];
    private int size;

    /** @param alwaysDirect how many values the table may always cover ({@link #ALWAYS_DIRECT}; tests use fewer) */
    DirectIds(int alwaysDirect) {
        this.alwaysDirect = alwaysDirect;
    }

    /** @return how many values from 0 the table covers */
    int span() {
        return ids.length;
    }

    /** @return whether {@code value} has a place in the table */
    boolean covers(long value) {
        return value >= 0 && value < ids.length;
    }

    /** @return the id held for a covered value, or -1 */
    int get(long value) {
        return ids[(int) value];
    }

    /**
     * @param held how many keys the table holds now ({@link #size()})
     * @return whether the table may grow to cover {@code value} (a non-negative value within the density bound)
     */
    boolean mayGrowTo(long value, int held) {
        return value >= 0 && value < MAX_SPAN
                && value < Math.max(alwaysDirect, (long) VALUES_PER_HELD_KEY * (held + 1));
    }

    /** Grows the table to cover {@code value} (which {@link #mayGrowTo} allowed). */
    void growTo(long value) {
        int span = Math.max(16, Integer.highestOneBit((int) value) << 1);
        int old = ids.length;
        ids = Arrays.copyOf(ids, span);
        Arrays.fill(ids, old, span, NONE);
    }

    /** Holds {@code id} for a covered value that holds none. */
    void put(long value, int id) {
        ids[(int) value] = id;
        size++;
    }

    /** Forgets the id of a covered value. */
    void remove(long value) {
        ids[(int) value] = NONE;
        size--;
    }

    /** @return how many values hold an id */
    int size() {
        return size;
    }
}
