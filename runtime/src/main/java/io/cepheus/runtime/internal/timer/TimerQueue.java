package io.cepheus.runtime.internal.timer;

import java.util.Arrays;

/**
 * The timers of one time domain: a set of distinct (key, namespace, timestamp) triples that gives up its smallest
 * element first, ordered by timestamp, then key, then namespace.
 *
 * <p>Design: an array-backed binary min-heap with an index for O(log n) deletion and O(1) de-duplication, as
 * Flink's {@code HeapPriorityQueueSet} (a heap plus a hash set of its elements, each element knowing its heap
 * position), but without objects. The heap lives in parallel primitive arrays ({@code timestamps}, {@code keys},
 * {@code namespaces}). The index is an open-addressing hash table with linear probing whose slots hold heap
 * positions (plus one; 0 is a free slot) and whose hashing and equality read the triple from the heap arrays, so
 * a triple is stored once. The two point at each other: {@code indexSlots[pos]} is the slot that holds heap
 * position {@code pos}, so every heap move updates its slot in O(1), and every slot move in the table's
 * backward-shift deletion updates its heap element in O(1). No tombstones: deletion shifts the probe chain back
 * (Knuth vol. 3, 6.4, algorithm R), so the table never degrades under churn.
 *
 * <p>The order is total over distinct timers (a refinement of Flink's timestamp-only order, whose ties are
 * arbitrary), so the firing sequence depends only on which timers are pending, never on the order they were
 * registered in: a snapshot restored by re-adding its timers in any order fires exactly as the original would.
 *
 * <p>Allocation: the arrays double when full (amortised O(1)) and are never shrunk, so a queue holding a steady
 * population allocates nothing; its footprint is that of its peak, 24 bytes per heap entry plus 8 per entry for
 * the index at its maximum load of one half.
 *
 * <p>Not thread-safe: owned by the shard thread that owns the enclosing {@link TimerService}.
 */
final class TimerQueue {

    /** Largest number of timers: the index needs twice as many slots and a Java array holds fewer than 2^31. */
    static final int MAX_CAPACITY = 1 << 29;

    private static final int MIN_CAPACITY = 8;

    /** Heap, in parallel arrays: the element at position p is (keys[p], namespaces[p], timestamps[p]). */
    private long[] timestamps;
    private int[] keys;
    private long[] namespaces;
    /** For each heap position, the index slot that points at it. */
    private int[] indexSlots;
    private int size;

    /** Open-addressing table of heap positions + 1 (0 marks a free slot); its length is twice the heap's. */
    private int[] index;
    private int indexMask;

    TimerQueue(int initialCapacity) {
        if (initialCapacity < 0 || initialCapacity > MAX_CAPACITY) {
            throw new IllegalArgumentException("initial timer capacity must be in [0, " + MAX_CAPACITY + "], was "
                    + initialCapacity);
        }
        allocate(Math.max(MIN_CAPACITY, Integer.highestOneBit(Math.max(1, initialCapacity - 1)) << 1));
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Timestamp of the smallest timer; only valid when not {@link #isEmpty()}. */
    long headTimestamp() {
        return timestamps[0];
    }

    /** Key of the smallest timer; only valid when not {@link #isEmpty()}. */
    int headKey() {
        return keys[0];
    }

    /** Namespace of the smallest timer; only valid when not {@link #isEmpty()}. */
    long headNamespace() {
        return namespaces[0];
    }

    boolean contains(int key, long namespace, long timestamp) {
        return index[probe(key, namespace, timestamp)] != 0;
    }

    /** Adds the timer; returns false, changing nothing, if it is already present. */
    boolean add(int key, long namespace, long timestamp) {
        int slot = probe(key, namespace, timestamp);
        if (index[slot] != 0) {
            return false;
        }
        if (size == timestamps.length) {
            grow();
            slot = probe(key, namespace, timestamp);
        }
        siftUp(size++, key, namespace, timestamp, slot);
        return true;
    }

    /** Removes the timer; returns false if it was not present. */
    boolean remove(int key, long namespace, long timestamp) {
        int position = index[probe(key, namespace, timestamp)] - 1;
        if (position < 0) {
            return false;
        }
        removeAt(position);
        return true;
    }

    /** Removes the smallest timer; only valid when not {@link #isEmpty()}. */
    void removeHead() {
        removeAt(0);
    }

    /** Passes every timer to the visitor, in heap (not firing) order. The visitor must not modify this queue. */
    void forEach(TimerHandler visitor) {
        for (int position = 0; position < size; position++) {
            visitor.onTimer(keys[position], namespaces[position], timestamps[position]);
        }
    }

    // ---------------------------------------------------------------- heap

    private void removeAt(int position) {
        unindex(indexSlots[position]);
        int last = --size;
        if (position == last) {
            return;
        }
        // Refill the hole with the last element, which may belong above or below it.
        long timestamp = timestamps[last];
        int key = keys[last];
        long namespace = namespaces[last];
        int slot = indexSlots[last];
        if (position > 0 && less(timestamp, key, namespace, (position - 1) >>> 1)) {
            siftUp(position, key, namespace, timestamp, slot);
        } else {
            siftDown(position, key, namespace, timestamp, slot);
        }
    }

    /** Places the given element at {@code position} or above it, moving larger parents down into the hole. */
    private void siftUp(int position, int key, long namespace, long timestamp, int slot) {
        while (position > 0) {
            int parent = (position - 1) >>> 1;
            if (!less(timestamp, key, namespace, parent)) {
                break;
            }
            move(parent, position);
            position = parent;
        }
        write(position, key, namespace, timestamp, slot);
    }

    /** Places the given element at {@code position} or below it, moving smaller children up into the hole. */
    private void siftDown(int position, int key, long namespace, long timestamp, int slot) {
        int half = size >>> 1;
        while (position < half) {
            int child = 2 * position + 1;
            int right = child + 1;
            if (right < size && less(timestamps[right], keys[right], namespaces[right], child)) {
                child = right;
            }
            if (!less(timestamps[child], keys[child], namespaces[child], timestamp, key, namespace)) {
                break;
            }
            move(child, position);
            position = child;
        }
        write(position, key, namespace, timestamp, slot);
    }

    /** Whether the given element sorts before the one at heap position {@code other}. */
    private boolean less(long timestamp, int key, long namespace, int other) {
        return less(timestamp, key, namespace, timestamps[other], keys[other], namespaces[other]);
    }

    private static boolean less(long timestampA, int keyA, long namespaceA,
                                long timestampB, int keyB, long namespaceB) {
        if (timestampA != timestampB) {
            return timestampA < timestampB;
        }
        if (keyA != keyB) {
            return keyA < keyB;
        }
        return namespaceA < namespaceB;
    }

    private void move(int from, int to) {
        timestamps[to] = timestamps[from];
        keys[to] = keys[from];
        namespaces[to] = namespaces[from];
        int slot = indexSlots[from];
        indexSlots[to] = slot;
        index[slot] = to + 1;
    }

    private void write(int position, int key, long namespace, long timestamp, int slot) {
        timestamps[position] = timestamp;
        keys[position] = key;
        namespaces[position] = namespace;
        indexSlots[position] = slot;
        index[slot] = position + 1;
    }

    // ---------------------------------------------------------------- index

    /** The slot holding this timer, or else the free slot where its probe chain ends. */
    private int probe(int key, long namespace, long timestamp) {
        int slot = hash(key, namespace, timestamp) & indexMask;
        int entry;
        while ((entry = index[slot]) != 0) {
            int position = entry - 1;
            if (timestamps[position] == timestamp && keys[position] == key && namespaces[position] == namespace) {
                return slot;
            }
            slot = (slot + 1) & indexMask;
        }
        return slot;
    }

    /**
     * Frees {@code gap}, then walks its probe chain and moves back every entry whose home slot is at or before
     * the gap (cyclically), so that lookups never meet a hole before their entry.
     */
    private void unindex(int gap) {
        int slot = gap;
        while (true) {
            slot = (slot + 1) & indexMask;
            int entry = index[slot];
            if (entry == 0) {
                break;
            }
            int position = entry - 1;
            int home = hash(keys[position], namespaces[position], timestamps[position]) & indexMask;
            if (((slot - home) & indexMask) >= ((slot - gap) & indexMask)) {
                index[gap] = entry;
                indexSlots[position] = gap;
                gap = slot;
            }
        }
        index[gap] = 0;
    }

    /** Mixes all 160 bits of the triple (murmur3's 64-bit finaliser), so that nearby triples spread out. */
    private static int hash(int key, long namespace, long timestamp) {
        long h = timestamp * 0x9E3779B97F4A7C15L + namespace;
        h = h * 0x9E3779B97F4A7C15L + key;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return (int) h;
    }

    // ---------------------------------------------------------------- capacity

    private void grow() {
        int capacity = timestamps.length;
        if (capacity >= MAX_CAPACITY) {
            throw new IllegalStateException("timer queue is full: it holds the maximum of " + MAX_CAPACITY
                    + " timers of one time domain");
        }
        int newCapacity = capacity << 1;
        timestamps = Arrays.copyOf(timestamps, newCapacity);
        keys = Arrays.copyOf(keys, newCapacity);
        namespaces = Arrays.copyOf(namespaces, newCapacity);
        indexSlots = Arrays.copyOf(indexSlots, newCapacity);
        index = new int[newCapacity << 1];
        indexMask = index.length - 1;
        for (int position = 0; position < size; position++) {
            int slot = probe(keys[position], namespaces[position], timestamps[position]);
            index[slot] = position + 1;
            indexSlots[position] = slot;
        }
    }

    private void allocate(int capacity) {
        timestamps = new long[capacity];
        keys = new int[capacity];
        namespaces = new long[capacity];
        indexSlots = new int[capacity];
        index = new int[capacity << 1];
        indexMask = index.length - 1;
    }
}
