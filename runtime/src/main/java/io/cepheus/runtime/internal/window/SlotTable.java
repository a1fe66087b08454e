package io.cepheus.runtime.internal.window;

import io.cepheus.runtime.window.Window;
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
