package io.cepheus.runtime.internal.timer;

import com.carrotsearch.hppc.IntArrayList;
import com.carrotsearch.hppc.LongObjectHashMap;
import java.util.Arrays;

/**
 * The event times at which keys fire, for an operator whose keys each wait for one firing time and whose times
 * fall on a shared grid, so that many keys share each time: window ends (slice windows), or due times the owner
 * rounds down to a grid cell and checks exactly when the cell comes (interval join drop times). The owner drains
 * it at the end of each watermark instead of registering one shard timer per key.
 *
 * <p>Design (a calendar of buckets): one bucket of key ids per distinct pending time, in a hash map, and a binary
 * min-heap of those times. Scheduling a key is an append to its time's bucket (the last bucket used is remembered:
 * a key that fires usually goes to the next grid time, where its neighbours go too); the heap only moves once per
 * distinct time, not once per key as with one timer per key. A key whose time changes is not looked for in its old
 * bucket: the entry stays, and the owner skips the ids that are no longer due at the bucket's time when it drains
 * it (so a key may appear twice; the owner's check makes the second a no-op). A drained bucket comes sorted by key
 * id ({@link #keyOrdered()}: the firing order of per-key timers at one time, and a walk over the keys' state in
 * allocation order), or in the order the keys were scheduled ({@link #scheduleOrdered()}, for an owner whose
 * keys' order within a time is not observable: sorting many small buckets costs more than the rest of a drain).
 *
 * <p>Owned by the shard thread, like the operator that holds it.
 */
public final class FiringCalendar {

    private final LongObjectHashMap<IntArrayList> buckets = new LongObjectHashMap<>();
    private long[] heap = new long[16];
    private int heapSize;
    private IntArrayList[] spare = new IntArrayList[8];
    private int spareCount;
    private long lastTime;
    private IntArrayList lastBucket;
    private final boolean sortBuckets;

    private FiringCalendar(boolean sortBuckets) {
        this.sortBuckets = sortBuckets;
    }

    /** @return a calendar whose drained buckets come in ascending key id order */
    public static FiringCalendar keyOrdered() {
        return new FiringCalendar(true);
    }

    /** @return a calendar whose drained buckets come in the order their keys were scheduled */
    public static FiringCalendar scheduleOrdered() {
        return new FiringCalendar(false);
    }

    /** Adds {@code keyId} to the keys due at {@code time}. */
    public void schedule(int keyId, long time) {
        IntArrayList bucket = lastBucket;
        if (bucket == null || lastTime != time) {
            bucket = buckets.get(time);
            if (bucket == null) {
                bucket = spareCount > 0 ? spare[--spareCount] : new IntArrayList();
                buckets.put(time, bucket);
                push(time);
            }
            lastTime = time;
            lastBucket = bucket;
        }
        bucket.add(keyId);
    }

    /** @return whether no time is pending */
    public boolean isEmpty() {
        return heapSize == 0;
    }

    /** @return the earliest pending time; only when not {@link #isEmpty()} */
    public long earliest() {
        return heap[0];
    }

    /**
     * Removes the earliest time. @return the key ids scheduled for it, in ascending order for a
     * {@link #keyOrdered()} calendar (the order of per-key timers; and dense key ids were handed out in first-seen
     * order, as the keys' state was allocated, so the owner walks its state roughly in address order), else in
     * scheduling order; hand the list back through {@link #recycle} once read
     */
    public IntArrayList pollEarliest() {
        long time = heap[0];
        heap[0] = heap[--heapSize];
        siftDown();
        if (lastBucket != null && lastTime == time) {
            lastBucket = null;
        }
        IntArrayList due = buckets.remove(time);
        if (sortBuckets) {
            Arrays.sort(due.buffer, 0, due.elementsCount);
        }
        return due;
    }

    /** Receives the entries of {@link #forEachInDrainOrder}. */
    @FunctionalInterface
    public interface EntryVisitor {
        /** One entry: a key scheduled at a time (stale entries included: the owner tells them apart). */
        void entry(long time, int keyId);
    }

    /**
     * Visits every entry in the order {@link #pollEarliest} would hand them out (times ascending, each bucket in
     * its order), changing nothing: for a snapshot, which must restore the keys in the order they would fire.
     */
    public void forEachInDrainOrder(EntryVisitor visitor) {
        long[] times = Arrays.copyOf(heap, heapSize);
        Arrays.sort(times);
        for (long time : times) {
            IntArrayList bucket = buckets.get(time);
            int[] ids = Arrays.copyOf(bucket.buffer, bucket.elementsCount);
            if (sortBuckets) {
                Arrays.sort(ids);
            }
            for (int id : ids) {
                visitor.entry(time, id);
            }
        }
    }

    /** Takes back a list {@link #pollEarliest} returned, for reuse. */
    public void recycle(IntArrayList bucket) {
        bucket.clear();
        if (spareCount < spare.length) {
            spare[spareCount++] = bucket;
        }
    }

    private void push(long time) {
        if (heapSize == heap.length) {
            heap = Arrays.copyOf(heap, heapSize * 2);
        }
        int i = heapSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (heap[parent] <= time) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = time;
    }

    private void siftDown() {
        if (heapSize == 0) {
            return;
        }
        long t = heap[0];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= heapSize) {
                break;
            }
            if (child + 1 < heapSize && heap[child + 1] < heap[child]) {
                child++;
            }
            if (heap[child] >= t) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = t;
    }
}
