package io.cepheus.runtime.internal.window;

import io.cepheus.runtime.window.Evictor;
import java.util.Arrays;

/**
 * A window's element list as evictors see it: evicted positions are marked, and the list is compacted after the
 * firing. One per operator, reused; owned by the shard thread.
 */
final class EvictionView implements Evictor.Elements<Object> {
    private ElementList list;
    boolean[] evicted = new boolean[16];
    private int remaining;

    void reset(ElementList l) {
        this.list = l;
        if (evicted.length < l.size) {
            evicted = new boolean[Math.max(l.size, evicted.length * 2)];
        } else {
            Arrays.fill(evicted, 0, l.size, false);
        }
        remaining = l.size;
    }

    @Override
    public int size() {
        return list.size;
    }

    @Override
    public Object value(int i) {
        return list.values[check(i)];
    }

    @Override
    public long timestamp(int i) {
        return list.timestamps[check(i)];
    }

    @Override
    public boolean isEvicted(int i) {
        return evicted[check(i)];
    }

    @Override
    public void evict(int i) {
        if (!evicted[check(i)]) {
            evicted[i] = true;
            remaining--;
        }
    }

    @Override
    public int remaining() {
        return remaining;
    }

    private int check(int i) {
        if (i < 0 || i >= list.size) {
            throw new IndexOutOfBoundsException("element " + i + " of " + list.size);
        }
        return i;
    }
}
