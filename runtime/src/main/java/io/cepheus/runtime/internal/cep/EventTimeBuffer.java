package io.cepheus.runtime.internal.cep;

import com.carrotsearch.hppc.IntIntHashMap;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Holds a shard's events until the watermark passes them, then releases them in event-time order: by
 * timestamp, ties broken by an optional user comparator and then by arrival order, as Flink's CEP operator
 * sorts each key's buffered events.
 *
 * <p>One binary min-heap for the whole shard over parallel primitive arrays (timestamp, arrival number,
 * key id) plus the event references: no allocation per event once the arrays have grown, and releasing
 * {@code n} events up to a watermark costs {@code O(n log size)} whatever the number of keys. A per-key
 * count says when a key has nothing buffered any more.
 *
 * <p>Owned by the shard's worker thread.
 *
 * @param <T> the event type
 */
public final class EventTimeBuffer<T> {

    /** Receives released events, oldest first. */
    @FunctionalInterface
    public interface Release<T> {
        /**
         * @param keyId     the event's key id
         * @param event     the event
         * @param timestamp its event time
         */
        void accept(int keyId, T event, long timestamp);
    }

    private final Comparator<? super T> tieBreaker;
    private final IntIntHashMap perKey = new IntIntHashMap();
    private long[] time = new long[64];
    private long[] arrival = new long[64];
    private int[] key = new int[64];
    private Object[] events = new Object[64];
    private int size;
    private long arrivals;

    /** @param tieBreaker orders events of equal timestamp before arrival order does; null for arrival only */
    public EventTimeBuffer(Comparator<? super T> tieBreaker) {
        this.tieBreaker = tieBreaker;
    }

    /** Buffers an event of a key. */
    public void add(int keyId, T event, long timestamp) {
        if (size == time.length) {
            int n = size * 2;
            time = Arrays.copyOf(time, n);
            arrival = Arrays.copyOf(arrival, n);
            key = Arrays.copyOf(key, n);
            events = Arrays.copyOf(events, n);
        }
        int at = size++;
        time[at] = timestamp;
        arrival[at] = arrivals++;
        key[at] = keyId;
        events[at] = event;
        siftUp(at);
        perKey.addTo(keyId, 1);
    }

    /**
     * Releases, in order, every buffered event with timestamp {@code <= watermark}.
     *
     * @return the number released
     */
    @SuppressWarnings("unchecked")
    public int releaseUpTo(long watermark, Release<T> release) {
        int released = 0;
        while (size > 0 && time[0] <= watermark) {
            int k = key[0];
            T e = (T) events[0];
            long ts = time[0];
            removeTop();
            if (perKey.addTo(k, -1) == 0) {
                perKey.remove(k);
            }
            released++;
            release.accept(k, e, ts);
        }
        return released;
    }

    /** @return the earliest buffered timestamp, or {@code Long.MAX_VALUE} when empty */
    public long earliest() {
        return size == 0 ? Long.MAX_VALUE : time[0];
    }

    /** @return events buffered for the key */
    public int bufferedFor(int keyId) {
        return perKey.getOrDefault(keyId, 0);
    }

    /** @return events buffered in the shard */
    public int size() {
        return size;
    }

    private void removeTop() {
        size--;
        if (size > 0) {
            move(size, 0);
            siftDown(0);
        }
        events[size] = null;
    }

    private void move(int from, int to) {
        time[to] = time[from];
        arrival[to] = arrival[from];
        key[to] = key[from];
        events[to] = events[from];
    }

    @SuppressWarnings("unchecked")
    private boolean before(int a, int b) {
        if (time[a] != time[b]) {
            return time[a] < time[b];
        }
        if (tieBreaker != null) {
            int c = tieBreaker.compare((T) events[a], (T) events[b]);
            if (c != 0) {
                return c < 0;
            }
        }
        return arrival[a] < arrival[b];
    }

    private void siftUp(int at) {
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (!before(at, parent)) {
                return;
            }
            swap(at, parent);
            at = parent;
        }
    }

    private void siftDown(int at) {
        while (true) {
            int left = 2 * at + 1;
            if (left >= size) {
                return;
            }
            int right = left + 1;
            int smallest = right < size && before(right, left) ? right : left;
            if (!before(smallest, at)) {
                return;
            }
            swap(at, smallest);
            at = smallest;
        }
    }

    private void swap(int a, int b) {
        long t = time[a];
        time[a] = time[b];
        time[b] = t;
        long s = arrival[a];
        arrival[a] = arrival[b];
        arrival[b] = s;
        int k = key[a];
        key[a] = key[b];
        key[b] = k;
        Object e = events[a];
        events[a] = events[b];
        events[b] = e;
    }
}
