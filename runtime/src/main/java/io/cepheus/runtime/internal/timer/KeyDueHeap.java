package io.cepheus.runtime.internal.timer;

import java.util.Arrays;

/**
 * A min-heap of (time, key id) entries, smallest time first, then smallest key id: the order in which the shard's
 * {@link TimerService} fires per-key timers of one namespace. For an operator that keeps each key's due time
 * itself and wants its due keys in that order without one shard timer per key ({@link KeyDueTimes}, behind the
 * session window fast path and the CEP operator's event-time expiry, puts the keys due at a watermark here, after
 * {@link KeyDueWheel} found them).
 *
 * <p>Design: entries are never looked up, moved or deleted, so there is no hash index (unlike {@link TimerQueue});
 * the owner remembers the one entry per key that counts and skips the others ("stale") when they come out. Each
 * entry is two adjacent longs of one array (time, key), so a sift step reads one cache line.
 *
 * <p>Owned by the shard thread, like the operator that holds it.
 */
public final class KeyDueHeap {

    private long[] entries = new long[4];
    private int size;

    /** @return whether no entry is left */
    public boolean isEmpty() {
        return size == 0;
    }

    /** @return the number of entries, stale ones included */
    public int size() {
        return size;
    }

    /** @return the smallest entry's time; only when not {@link #isEmpty()} */
    public long peekTime() {
        return entries[0];
    }

    /** @return the smallest entry's key id; only when not {@link #isEmpty()} */
    public int peekKey() {
        return (int) entries[1];
    }

    /** Adds the entry (time, keyId); an equal entry may already be there. */
    public void push(long time, int keyId) {
        if (2 * size == entries.length) {
            entries = Arrays.copyOf(entries, entries.length * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            long pt = entries[2 * parent];
            if (pt < time || (pt == time && entries[2 * parent + 1] <= keyId)) {
                break;
            }
            entries[2 * i] = pt;
            entries[2 * i + 1] = entries[2 * parent + 1];
            i = parent;
        }
        entries[2 * i] = time;
        entries[2 * i + 1] = keyId;
    }

    /** Removes the smallest entry; only when not {@link #isEmpty()}. */
    public void pop() {
        int last = --size;
        if (last == 0) {
            return;
        }
        long time = entries[2 * last];
        long key = entries[2 * last + 1];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= last) {
                break;
            }
            long ct = entries[2 * child];
            long ck = entries[2 * child + 1];
            if (child + 1 < last) {
                long rt = entries[2 * child + 2];
                long rk = entries[2 * child + 3];
                if (rt < ct || (rt == ct && rk < ck)) {
                    child++;
                    ct = rt;
                    ck = rk;
                }
            }
            if (time < ct || (time == ct && key <= ck)) {
                break;
            }
            entries[2 * i] = ct;
            entries[2 * i + 1] = ck;
            i = child;
        }
        entries[2 * i] = time;
        entries[2 * i + 1] = key;
    }

    /** Removes every entry. */
    public void clear() {
        size = 0;
    }

    /** When empty, gives back the room a burst of entries took (the end-of-stream watermark fires every key). */
    public void trim() {
        if (size == 0 && entries.length > 4096) {
            entries = new long[32];
        }
    }
}
