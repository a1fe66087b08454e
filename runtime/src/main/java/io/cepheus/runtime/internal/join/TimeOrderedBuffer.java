package io.cepheus.runtime.internal.join;

import java.util.Arrays;

/**
 * One key's elements of one join input, kept sorted by timestamp (equal timestamps in arrival order), with a
 * "found a partner" flag each.
 *
 * <p>Design: parallel arrays (timestamps in a {@code long[]}, flags in a {@code boolean[]}) over a window
 * {@code [head, tail)}. Joins only ever drop the oldest elements (the watermark passes timestamps in order), so
 * removal advances {@code head}; insertion appends in the common in-order case and shifts the few newer
 * elements otherwise; a probe for partners is two binary searches bounding a contiguous range. Nothing is
 * boxed or allocated per element once the arrays have grown to the key's working size.
 *
 * <p>Public, in a package not exported to users, so that the benchmarks module can measure it on its own.
 *
 * <p>Owned by the shard thread of the operator that holds it.
 */
public final class TimeOrderedBuffer {

    private static final int INITIAL_CAPACITY = 4;
    /** A recycled buffer that grew beyond this gives its arrays back, so a burst on one key is not kept. */
    private static final int MAX_RECYCLED_CAPACITY = 64;

    private long[] timestamps = new long[INITIAL_CAPACITY];
    private Object[] values = new Object[INITIAL_CAPACITY];
    private boolean[] matched = new boolean[INITIAL_CAPACITY];
    private int head;
    private int tail;

    int size() {
        return tail - head;
    }

    public boolean isEmpty() {
        return tail == head;
    }

    /** @return the first position; positions run from {@code start()} to {@code end() - 1} */
    int start() {
        return head;
    }

    int end() {
        return tail;
    }

    long timestampAt(int position) {
        return timestamps[position];
    }

    Object valueAt(int position) {
        return values[position];
    }

    boolean isMatched(int position) {
        return matched[position];
    }

    public void markMatched(int position) {
        matched[position] = true;
    }

    /** @return the smallest timestamp held; only when not empty */
    public long earliest() {
        return timestamps[head];
    }

    /**
     * Inserts an element after every element with a timestamp at or before its own.
     *
     * @return its position (valid until the next insertion or removal)
     */
    public int add(long timestamp, Object value, boolean isMatched) {
        if (tail == timestamps.length) {
            makeRoom();
        }
        int pos = tail;
        if (tail > head && timestamps[tail - 1] > timestamp) {
            pos = firstAfter(timestamp);
            System.arraycopy(timestamps, pos, timestamps, pos + 1, tail - pos);
            System.arraycopy(values, pos, values, pos + 1, tail - pos);
            System.arraycopy(matched, pos, matched, pos + 1, tail - pos);
        }
        timestamps[pos] = timestamp;
        values[pos] = value;
        matched[pos] = isMatched;
        tail++;
        return pos;
    }

    /** Removes the oldest element (the caller read it first). */
    public void removeFirst() {
        values[head] = null;
        head++;
        if (head == tail) {
            head = 0;
            tail = 0;
        }
    }

    /** @return the first position whose timestamp is at or after {@code timestamp} ({@code end()} if none) */
    public int firstAtOrAfter(long timestamp) {
        int lo = head;
        int hi = tail;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (timestamps[mid] < timestamp) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** @return the first position whose timestamp is after {@code timestamp} ({@code end()} if none) */
    public int firstAfter(long timestamp) {
        int lo = head;
        int hi = tail;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (timestamps[mid] <= timestamp) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Empties the buffer for reuse by another key; shrinks arrays a burst made large. */
    void recycle() {
        if (timestamps.length > MAX_RECYCLED_CAPACITY) {
            timestamps = new long[INITIAL_CAPACITY];
            values = new Object[INITIAL_CAPACITY];
            matched = new boolean[INITIAL_CAPACITY];
        } else {
            Arrays.fill(values, head, tail, null);
        }
        head = 0;
        tail = 0;
    }

    /** Compacts to the front when at least a quarter is free there, else doubles. */
    private void makeRoom() {
        int n = tail - head;
        if (head > 0 && head >= timestamps.length / 4) {
            System.arraycopy(timestamps, head, timestamps, 0, n);
            System.arraycopy(values, head, values, 0, n);
            System.arraycopy(matched, head, matched, 0, n);
            Arrays.fill(values, n, tail, null);
        } else {
            int capacity = timestamps.length * 2;
            long[] t = new long[capacity];
            Object[] v = new Object[capacity];
            boolean[] m = new boolean[capacity];
            System.arraycopy(timestamps, head, t, 0, n);
            System.arraycopy(values, head, v, 0, n);
            System.arraycopy(matched, head, m, 0, n);
            timestamps = t;
            values = v;
            matched = m;
        }
        head = 0;
        tail = n;
    }

    /**
     * Writes a buffer for a snapshot: its size, then each element's timestamp, flag and value, oldest first.
     *
     * @param buffer the buffer, or null for none (written as empty)
     */
    static void write(TimeOrderedBuffer buffer, java.io.DataOutput out, io.cepheus.nfa.EventCodec<Object> values)
            throws java.io.IOException {
        if (buffer == null) {
            out.writeInt(0);
            return;
        }
        out.writeInt(buffer.size());
        for (int at = buffer.head; at < buffer.tail; at++) {
            out.writeLong(buffer.timestamps[at]);
            out.writeBoolean(buffer.matched[at]);
            values.write(buffer.values[at], out);
        }
    }

    /**
     * Reads what {@link #write} wrote.
     *
     * @param fresh gives the empty buffer to fill
     * @param what  names the buffer in an error (a key and a side)
     * @return the buffer, or null if it was written empty
     * @throws java.io.IOException if the input is not such a buffer
     */
    static TimeOrderedBuffer read(java.io.DataInput in, io.cepheus.nfa.EventCodec<Object> values,
            java.util.function.Supplier<TimeOrderedBuffer> fresh, String what) throws java.io.IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new java.io.IOException(what + " has " + n + " elements");
        }
        if (n == 0) {
            return null;
        }
        TimeOrderedBuffer buffer = fresh.get();
        for (int i = 0; i < n; i++) {
            long ts = in.readLong();
            boolean isMatched = in.readBoolean();
            buffer.add(ts, values.read(in), isMatched);
        }
        return buffer;
    }
}
