package io.cepheus.runtime.internal.cep;

import com.carrotsearch.hppc.IntIntHashMap;
import com.carrotsearch.hppc.LongIntHashMap;
import com.carrotsearch.hppc.ObjectIntHashMap;
import java.util.Arrays;
import java.util.Objects;

/**
 * Maps a shard's keys to dense int ids, so per-key state lives in primitive-indexed arrays and maps, and
 * gives ids back for reuse when a key has nothing pending (no partial matches, buffered events or timers):
 * with a million keys that each complete, live state returns to near zero.
 *
 * <p>Integer and Long keys (the most common) are looked up in primitive maps: an object map compares a probed
 * slot with {@code equals}, which loads the stored key object, a cache miss per lookup once there are many keys
 * (13% of a shard's time on W2 before this); the primitive maps compare values held in their own arrays.
 *
 * <p>Owned by the shard's worker thread.
 */
public final class KeyDictionary {

    private final ObjectIntHashMap<Object> ids = new ObjectIntHashMap<>();
    private final IntIntHashMap intIds = new IntIntHashMap();
    private final LongIntHashMap longIds = new LongIntHashMap();
    private Object[] keys = new Object[64];
    private int[] freeIds = new int[16];
    private int freeCount;
    private int nextId;

    /**
     * @param key a key, not null
     * @return its id, assigning the smallest free id to a new key
     */
    public int idOf(Object key) {
        if (key instanceof Integer i) {
            int value = i;
            int slot = intIds.indexOf(value);
            if (intIds.indexExists(slot)) {
                return intIds.indexGet(slot);
            }
            int id = newId(key);
            intIds.indexInsert(slot, value, id);
            return id;
        }
        if (key instanceof Long l) {
            long value = l;
            int slot = longIds.indexOf(value);
            if (longIds.indexExists(slot)) {
                return longIds.indexGet(slot);
            }
            int id = newId(key);
            longIds.indexInsert(slot, value, id);
            return id;
        }
        Objects.requireNonNull(key, "key (the key selector returned null)");
        int slot = ids.indexOf(key);
        if (ids.indexExists(slot)) {
            return ids.indexGet(slot);
        }
        int id = newId(key);
        ids.indexInsert(slot, key, id);
        return id;
    }

    private int newId(Object key) {
        int id = freeCount > 0 ? freeIds[--freeCount] : nextId++;
        if (id >= keys.length) {
            keys = Arrays.copyOf(keys, Math.max(keys.length * 2, id + 1));
        }
        keys[id] = key;
        return id;
    }

    /** @param id an id in use @return its key */
    public Object keyOf(int id) {
        Object key = id < keys.length ? keys[id] : null;
        if (key == null) {
            throw new IllegalArgumentException("key id " + id + " is not in use");
        }
        return key;
    }

    /** Forgets a key whose state is empty; its id may be handed to another key. */
    public void release(int id) {
        Object key = keyOf(id);
        if (key instanceof Integer i) {
            intIds.remove(i.intValue());
        } else if (key instanceof Long l) {
            longIds.remove(l.longValue());
        } else {
            ids.remove(key);
        }
        keys[id] = null;
        if (freeCount == freeIds.length) {
            freeIds = Arrays.copyOf(freeIds, freeCount * 2);
        }
        freeIds[freeCount++] = id;
    }

    /** @return keys currently known */
    public int size() {
        return ids.size() + intIds.size() + longIds.size();
    }

    /** @return one more than the largest id ever handed out: the size per-key arrays need */
    public int idBound() {
        return nextId;
    }
}
