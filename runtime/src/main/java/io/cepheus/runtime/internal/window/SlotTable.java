package io.cepheus.runtime.internal.window;

import io.cepheus.runtime.window.Window;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * The live windows of a {@link WindowOperator} by index (reused once freed, so the indexes stay small enough for a
 * timer namespace) and by (key id, start, end).
 *
 * <p>Design: an open-addressing table of slot index + 1 (0 = empty), linear probing, backward-shift deletion (no
 * tombstones), kept at most half full. Owned by the shard thread, like the operator.
 */
final class SlotTable {

    private WindowSlot[] slots = new WindowSlot[64];
    private int[] freeSlots = new int[16];
    private int freeCount;
    private int slotBound;
    private int[] table = new int[128];
    private int tableSize;

    /** @return the slot at {@code index}, or null */
    WindowSlot at(int index) {
        return index >= 0 && index < slots.length ? slots[index] : null;
    }

    /** @return the live window (key id, start, end), or null */
    WindowSlot find(int keyId, long start, long end) {
        int mask = table.length - 1;
        for (int i = hash(keyId, start, end) & mask; ; i = (i + 1) & mask) {
            int s = table[i] - 1;
            if (s < 0) {
                return null;
            }
            WindowSlot w = slots[s];
            if (w.keyId == keyId && w.start == start && w.end == end) {
                return w;
            }
        }
    }

    /** @return a new slot for the window, in a freed index if there is one */
    WindowSlot add(int keyId, long start, long end, Window window) {
        int index;
        if (freeCount > 0) {
            index = freeSlots[--freeCount];
        } else {
            index = slotBound++;
            if (index >= slots.length) {
                slots = Arrays.copyOf(slots, slots.length * 2);
            }
        }
        WindowSlot w = new WindowSlot(index, keyId, start, end, window);
        slots[index] = w;
        insert(w);
        return w;
    }

    /** @return one more than the highest index ever used: every live slot's index is below it */
    int indexBound() {
        return slotBound;
    }

    /**
     * Writes which indexes new slots take next (for snapshots): a slot's index names its timers, and timers due at
     * the same time fire in namespace order, so a restored table must hand out the same indexes.
     */
    void writeIndexes(DataOutput out) throws IOException {
        out.writeInt(slotBound);
        out.writeInt(freeCount);
        for (int i = 0; i < freeCount; i++) {
            out.writeInt(freeSlots[i]);
        }
    }

    /** Reads what {@link #writeIndexes} wrote into this empty table, before the slots are restored. */
    void readIndexes(DataInput in) throws IOException {
        int bound = in.readInt();
        int free = in.readInt();
        checkIndexes(in, bound, free);
        slotBound = bound;
        slots = Arrays.copyOf(slots, Math.max(slots.length, Integer.highestOneBit(Math.max(1, bound)) << 1));
        freeSlots = new int[Math.max(16, free)];
        for (int i = 0; i < free; i++) {
            int index = in.readInt();
            if (index < 0 || index >= bound) {
                throw new IOException("free window slot index " + index + " of " + bound);
            }
            freeSlots[i] = index;
        }
        freeCount = free;
    }

    /**
     * Reads past what {@link #writeIndexes} wrote, checking it: a table restored into another number of shards hands
     * out indexes of its own.
     *
     * @return the written table's index bound
     */
    static int skipIndexes(DataInput in) throws IOException {
        int bound = in.readInt();
        int free = in.readInt();
        checkIndexes(in, bound, free);
        for (int i = 0; i < free; i++) {
            int index = in.readInt();
            if (index < 0 || index >= bound) {
                throw new IOException("free window slot index " + index + " of " + bound);
            }
        }
        return bound;
    }

    /**
     * Refuses an index bound the bytes left cannot hold, before anything is sized by it: every index below the bound
     * is written, free (an int) or live (a slot, which starts with its int index).
     */
    private static void checkIndexes(DataInput in, int bound, int free) throws IOException {
        if (bound < 0 || free < 0 || free > bound) {
            throw new IOException("a window slot table of " + bound + " indexes, " + free + " free");
        }
        if (in instanceof java.io.DataInputStream stream && (long) bound * Integer.BYTES > stream.available()) {
            throw new IOException("a window slot table of " + bound + " indexes, more than the " + stream.available()
                    + " bytes left could hold");
        }
    }

    /** @return a restored slot at the index it had (one {@link #readIndexes} left in use) */
    WindowSlot restore(int index, int keyId, long start, long end, Window window) throws IOException {
        if (index < 0 || index >= slotBound || slots[index] != null) {
            throw new IOException("window slot index " + index + " is out of range or taken twice");
        }
        WindowSlot w = new WindowSlot(index, keyId, start, end, window);
        slots[index] = w;
        insert(w);
        return w;
    }

    /** After the slots are restored: checks that no free index is in use. */
    void checkFreeIndexes() throws IOException {
        for (int i = 0; i < freeCount; i++) {
            if (slots[freeSlots[i]] != null) {
                throw new IOException("window slot index " + freeSlots[i] + " is both free and in use");
            }
        }
    }

    /** Forgets the slot and frees its index. */
    void remove(WindowSlot w) {
        delete(w);
        slots[w.index] = null;
        if (freeCount == freeSlots.length) {
            freeSlots = Arrays.copyOf(freeSlots, freeCount * 2);
        }
        freeSlots[freeCount++] = w.index;
    }

    private static int hash(int keyId, long start, long end) {
        long h = keyId * 0x9E3779B97F4A7C15L + start * 0xC2B2AE3D27D4EB4FL + end * 0x165667B19E3779F9L;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        return (int) (h ^ (h >>> 32));
    }

    private void insert(WindowSlot w) {
        if ((tableSize + 1) * 2 > table.length) {
            int[] old = table;
            table = new int[old.length * 2];
            for (int s : old) {
                if (s != 0) {
                    place(slots[s - 1]);
                }
            }
        }
        place(w);
        tableSize++;
    }

    private void place(WindowSlot w) {
        int mask = table.length - 1;
        int i = hash(w.keyId, w.start, w.end) & mask;
        while (table[i] != 0) {
            i = (i + 1) & mask;
        }
        table[i] = w.index + 1;
    }

    private void delete(WindowSlot w) {
        int mask = table.length - 1;
        int i = hash(w.keyId, w.start, w.end) & mask;
        while (table[i] != w.index + 1) {
            i = (i + 1) & mask;
        }
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            if (table[j] == 0) {
                break;
            }
            WindowSlot moved = slots[table[j] - 1];
            int home = hash(moved.keyId, moved.start, moved.end) & mask;
            boolean between = i <= j ? (i < home && home <= j) : (i < home || home <= j);
            if (!between) {
                table[i] = table[j];
                i = j;
            }
        }
        table[i] = 0;
        tableSize--;
    }
}
