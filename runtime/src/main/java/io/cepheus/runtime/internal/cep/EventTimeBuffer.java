package io.cepheus.runtime.internal.cep;

import io.cepheus.runtime.internal.shard.GroupPrefetch;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Holds a shard's events until the watermark passes them, then releases them in event-time order: by
 * timestamp, ties broken by an optional user comparator and then by arrival order, as Flink's CEP operator
 * sorts each key's buffered events.
 *
 * <p>Two structures over parallel primitive arrays (timestamp, arrival number, key id) plus the event
 * references: a FIFO run for events that arrive in timestamp order (the common case: appending and releasing
 * cost O(1)), and a binary min-heap for the ones that arrive out of order (O(log n)). Releasing up to a
 * watermark merges the two by (timestamp, comparator, arrival). A per-key count, in an array indexed by the
 * shard's dense key ids, says when a key has nothing buffered any more. No allocation per event once the
 * arrays have grown.
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

    /**
     * Is told ahead which events a release is about to hand out, so it can read what processing them will need
     * before the first of them is processed (see {@link #releaseUpTo(long, Release, Lookahead)}).
     */
    @FunctionalInterface
    public interface Lookahead<T> {
        /**
         * The next {@code n} events of the in-order run ({@code 2 <= n <= LOOKAHEAD}) are
         * {@link #upcomingKey(int)} and {@link #upcomingEvent(int)} 0 .. n-1, in release order. Must not change
         * the buffer.
         */
        void upcoming(EventTimeBuffer<T> buffer, int n);
    }

    /** How many events a {@link Lookahead} is told about at once. */
    public static final int LOOKAHEAD = GroupPrefetch.GROUP;

    private final Comparator<? super T> tieBreaker;
    private int[] perKey = new int[64];
    private long arrivals;
    /** The arrival number of the event being handed to a {@link Release} right now. */
    private long releasing = -1;

    // the heap (out-of-order arrivals)
    private long[] time = new long[16];
    private long[] arrival = new long[16];
    private int[] key = new int[16];
    private Object[] events = new Object[16];
    private int size;

    // the FIFO run (in-order arrivals): a ring buffer
    private long[] runTime = new long[64];
    private long[] runArrival = new long[64];
    private int[] runKey = new int[64];
    private Object[] runEvents = new Object[64];
    private int runHead;
    private int runSize;
    private long runLast = Long.MIN_VALUE;

    /** @param tieBreaker orders events of equal timestamp before arrival order does; null for arrival only */
    public EventTimeBuffer(Comparator<? super T> tieBreaker) {
        this.tieBreaker = tieBreaker;
    }

    /** Buffers an event of a key. */
    public void add(int keyId, T event, long timestamp) {
        add(keyId, event, timestamp, arrivals);
    }

    /**
     * Buffers an event of a key under a given arrival number, for a restore that puts back events (in release order)
     * whose arrival numbers others depend on (a rule set's versions see events by arrival). Later arrivals are
     * numbered after it.
     *
     * @param arrival the event's arrival number, at least {@link #arrivals()} of the events added before it
     */
    public void add(int keyId, T event, long timestamp, long arrival) {
        if (keyId >= perKey.length) {
            perKey = Arrays.copyOf(perKey, Math.max(keyId + 1, perKey.length * 2));
        }
        perKey[keyId]++;
        long n = arrival;
        arrivals = Math.max(arrivals, arrival + 1);
        // equal timestamps may join the run only when arrival order alone decides ties
        if (runSize == 0 || timestamp > runLast || (timestamp == runLast && tieBreaker == null)) {
            appendToRun(keyId, event, timestamp, n);
        } else {
            pushToHeap(keyId, event, timestamp, n);
        }
    }

    /**
     * Releases, in order, every buffered event with timestamp {@code <= watermark}.
     *
     * @return the number released
     */
    public int releaseUpTo(long watermark, Release<T> release) {
        return releaseUpTo(watermark, release, null);
    }

    /**
     * Releases as {@link #releaseUpTo(long, Release)} does, in exactly the same order, telling {@code lookahead}
     * before every group of up to {@link #LOOKAHEAD} events of the in-order run which ones come next. Events from
     * the out-of-order heap are released where they belong without being announced: the lookahead is a hint
     * for reading ahead, never a change of order.
     *
     * @param lookahead told about the coming events; null for none
     * @return the number released
     */
    @SuppressWarnings("unchecked")
    public int releaseUpTo(long watermark, Release<T> release, Lookahead<T> lookahead) {
        int released = 0;
        int announced = 0; // run events announced and not released yet (events taken from the heap count too)
        while (true) {
            boolean fromRun;
            if (runSize > 0 && runTime[runHead] <= watermark) {
                fromRun = size == 0 || time[0] > watermark || runBeforeHeapTop();
            } else if (size > 0 && time[0] <= watermark) {
                fromRun = false;
            } else {
                return released;
            }
            if (lookahead != null && announced == 0) {
                int n = runEventsUpTo(watermark);
                if (n > 1) {
                    lookahead.upcoming(this, n);
                }
                announced = Math.max(n, 1);
            }
            announced--;
            int k;
            T e;
            long ts;
            if (fromRun) {
                k = runKey[runHead];
                e = (T) runEvents[runHead];
                ts = runTime[runHead];
                releasing = runArrival[runHead];
                runEvents[runHead] = null;
                runHead = (runHead + 1) & (runTime.length - 1);
                runSize--;
            } else {
                k = key[0];
                e = (T) events[0];
                ts = time[0];
                releasing = arrival[0];
                removeTop();
            }
            perKey[k]--;
            released++;
            release.accept(k, e, ts);
        }
    }

    /**
     * @return the arrival number of the event a {@link Release} is being handed (valid during its {@code accept}):
     *         events are numbered 0, 1, 2 ... as they are added
     */
    public long releasingArrival() {
        return releasing;
    }

    /** @return the number the next event added will get: every event added so far arrived before it */
    public long arrivals() {
        return arrivals;
    }

    /** Starts numbering arrivals at {@code next} (a restore, before any event is added). */
    public void arrivals(long next) {
        this.arrivals = next;
    }

    /** Receives the buffered events with their arrival numbers ({@link #forEachInOrder(Visitor)}). */
    @FunctionalInterface
    public interface Visitor<T> {
        /**
         * @param keyId     the event's key id
         * @param event     the event
         * @param timestamp its event time
         * @param arrival   its arrival number
         */
        void accept(int keyId, T event, long timestamp, long arrival);
    }

    /** @return the key id of the {@code i}-th next event of the in-order run (for a {@link Lookahead}) */
    public int upcomingKey(int i) {
        return runKey[(runHead + i) & (runTime.length - 1)];
    }

    /** @return the {@code i}-th next event of the in-order run (for a {@link Lookahead}) */
    @SuppressWarnings("unchecked")
    public T upcomingEvent(int i) {
        return (T) runEvents[(runHead + i) & (runTime.length - 1)];
    }

    /** @return how many of the next run events, at most {@link #LOOKAHEAD}, a release up to the watermark takes */
    private int runEventsUpTo(long watermark) {
        int mask = runTime.length - 1;
        int n = 0;
        while (n < LOOKAHEAD && n < runSize && runTime[(runHead + n) & mask] <= watermark) {
            n++;
        }
        return n;
    }

    /**
     * Visits every buffered event in release order, without releasing anything (for snapshots; allocates).
     *
     * @param visitor receives key id, event and timestamp
     */
    public void forEachInOrder(Release<T> visitor) {
        forEachInOrder((k, e, ts, arrival) -> visitor.accept(k, e, ts));
    }

    /**
     * Visits every buffered event in release order with its arrival number, without releasing anything (for
     * snapshots; allocates).
     *
     * @param visitor receives key id, event, timestamp and arrival number
     */
    @SuppressWarnings("unchecked")
    public void forEachInOrder(Visitor<T> visitor) {
        int n = size + runSize;
        Integer[] order = new Integer[n];
        long[] ts = new long[n];
        long[] arr = new long[n];
        int[] keys = new int[n];
        Object[] evs = new Object[n];
        for (int i = 0; i < size; i++) {
            ts[i] = time[i];
            arr[i] = arrival[i];
            keys[i] = key[i];
            evs[i] = events[i];
        }
        for (int i = 0; i < runSize; i++) {
            int from = (runHead + i) & (runTime.length - 1);
            ts[size + i] = runTime[from];
            arr[size + i] = runArrival[from];
            keys[size + i] = runKey[from];
            evs[size + i] = runEvents[from];
        }
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            if (ts[a] != ts[b]) {
                return Long.compare(ts[a], ts[b]);
            }
            if (tieBreaker != null) {
                int c = tieBreaker.compare((T) evs[a], (T) evs[b]);
                if (c != 0) {
                    return c;
                }
            }
            return Long.compare(arr[a], arr[b]);
        });
        for (int i : order) {
            visitor.accept(keys[i], (T) evs[i], ts[i], arr[i]);
        }
    }

    /** @return the earliest buffered timestamp, or {@code Long.MAX_VALUE} when empty */
    public long earliest() {
        long earliest = Long.MAX_VALUE;
        if (runSize > 0) {
            earliest = runTime[runHead];
        }
        if (size > 0) {
            earliest = Math.min(earliest, time[0]);
        }
        return earliest;
    }

    /** @return events buffered for the key */
    public int bufferedFor(int keyId) {
        return keyId < perKey.length ? perKey[keyId] : 0;
    }

    /** @return events buffered in the shard */
    public int size() {
        return size + runSize;
    }

    // ------------------------------------------------------------------ the run

    private void appendToRun(int keyId, T event, long timestamp, long n) {
        if (runSize == runTime.length) {
            growRun();
        }
        int at = (runHead + runSize) & (runTime.length - 1);
        runTime[at] = timestamp;
        runArrival[at] = n;
        runKey[at] = keyId;
        runEvents[at] = event;
        runSize++;
        runLast = timestamp;
    }

    private void growRun() {
        int capacity = runTime.length * 2;
        long[] t = new long[capacity];
        long[] a = new long[capacity];
        int[] k = new int[capacity];
        Object[] e = new Object[capacity];
        for (int i = 0; i < runSize; i++) {
            int from = (runHead + i) & (runTime.length - 1);
            t[i] = runTime[from];
            a[i] = runArrival[from];
            k[i] = runKey[from];
            e[i] = runEvents[from];
        }
        runTime = t;
        runArrival = a;
        runKey = k;
        runEvents = e;
        runHead = 0;
    }

    @SuppressWarnings("unchecked")
    private boolean runBeforeHeapTop() {
        long rt = runTime[runHead];
        if (rt != time[0]) {
            return rt < time[0];
        }
        if (tieBreaker != null) {
            int c = tieBreaker.compare((T) runEvents[runHead], (T) events[0]);
            if (c != 0) {
                return c < 0;
            }
        }
        return runArrival[runHead] < arrival[0];
    }

    // ------------------------------------------------------------------ the heap

    private void pushToHeap(int keyId, T event, long timestamp, long n) {
        if (size == time.length) {
            int c = size * 2;
            time = Arrays.copyOf(time, c);
            arrival = Arrays.copyOf(arrival, c);
            key = Arrays.copyOf(key, c);
            events = Arrays.copyOf(events, c);
        }
        int at = size++;
        time[at] = timestamp;
        arrival[at] = n;
        key[at] = keyId;
        events[at] = event;
        siftUp(at);
    }

    private void removeTop() {
        size--;
        if (size > 0) {
            time[0] = time[size];
            arrival[0] = arrival[size];
            key[0] = key[size];
            events[0] = events[size];
            siftDown(0);
        }
        events[size] = null;
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
