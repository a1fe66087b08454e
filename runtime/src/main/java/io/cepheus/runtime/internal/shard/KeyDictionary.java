package io.cepheus.runtime.internal.shard;

import com.carrotsearch.hppc.IntIntHashMap;
import com.carrotsearch.hppc.LongIntHashMap;
import com.carrotsearch.hppc.ObjectIntHashMap;
import io.cepheus.nfa.EventCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;

/**
 * Maps a shard's keys to dense int ids, so per-key state lives in primitive-indexed arrays and maps, and
 * gives ids back for reuse when a key has nothing pending (no partial matches, buffered events or timers):
 * with a million keys that each complete, live state returns to near zero.
 *
 * <p>Integer and Long keys (the most common) are looked up in primitive maps: an object map compares a probed
 * slot with {@code equals}, which loads the stored key object, a cache miss per lookup once there are many keys
 * (13% of a shard's time on W2 before this); the primitive maps compare values held in their own arrays. Those
 * whose values are small non-negative integers go, while they are dense, to a table indexed by the value
 * ({@link DirectIds}; an Integer and a Long table, as {@code 1} and {@code 1L} are different keys): no hashing,
 * probing or shifting on release. W1 pays for those on two events in three: a key released when its partial
 * matches died, seen again.
 *
 * <p>Ids are reused last freed, first out. So ids, and with them the order of equal-time results across keys
 * (timers and due keys are ordered by time, then key id), depend on the order in which a shard's operators released
 * keys: two engines with the same keys but different operators beside them may order such results differently.
 * Handing out the smallest free id instead would make that order depend on the live keys only, but measured 20-30%
 * slower on W1, whose keys are released and recreated on most events (a cold id's slots in every per-key array).
 *
 * <p>Owned by the shard's worker thread.
 */
public final class KeyDictionary {

    private final ObjectIntHashMap<Object> ids = new ObjectIntHashMap<>();
    private final IntIntHashMap intIds = new IntIntHashMap();
    private final LongIntHashMap longIds = new LongIntHashMap();
    private final DirectIds directInts;
    private final DirectIds directLongs;
    private Object[] keys = new Object[64];
    /** Per id, which map holds the key, so a release need not load the key object (a cache miss). */
    private byte[] kinds = new byte[64];
    /** Per id, the value of an Integer or Long key. */
    private long[] values = new long[64];
    private static final byte OBJECT = 0;
    private static final byte INT = 1;
    private static final byte LONG = 2;
    private static final byte DIRECT_INT = 3;
    private static final byte DIRECT_LONG = 4;
    private int[] freeIds = new int[16];
    private int freeCount;
    private int nextId;

    /** An empty dictionary. */
    public KeyDictionary() {
        this(DirectIds.ALWAYS_DIRECT);
    }

    /** @param alwaysDirect how many small values the direct tables may always cover (tests use few) */
    KeyDictionary(int alwaysDirect) {
        directInts = new DirectIds(alwaysDirect);
        directLongs = new DirectIds(alwaysDirect);
    }

    /**
     * @param key a key, not null
     * @return its id; a new key gets the most recently freed id (its slots in per-key arrays are the ones still in
     *         cache), else the next never-used one
     */
    public int idOf(Object key) {
        if (key instanceof Integer i) {
            int value = i;
            if (directInts.covers(value)) {
                return directId(directInts, key, DIRECT_INT, value);
            }
            if (directInts.mayGrowTo(value, directInts.size())) {
                grow(directInts, value, INT, DIRECT_INT);
                return directId(directInts, key, DIRECT_INT, value);
            }
            int slot = intIds.indexOf(value);
            if (intIds.indexExists(slot)) {
                return intIds.indexGet(slot);
            }
            int id = newId(key, INT, value);
            intIds.indexInsert(slot, value, id);
            return id;
        }
        if (key instanceof Long l) {
            long value = l;
            if (directLongs.covers(value)) {
                return directId(directLongs, key, DIRECT_LONG, value);
            }
            if (directLongs.mayGrowTo(value, directLongs.size())) {
                grow(directLongs, value, LONG, DIRECT_LONG);
                return directId(directLongs, key, DIRECT_LONG, value);
            }
            int slot = longIds.indexOf(value);
            if (longIds.indexExists(slot)) {
                return longIds.indexGet(slot);
            }
            int id = newId(key, LONG, value);
            longIds.indexInsert(slot, value, id);
            return id;
        }
        Objects.requireNonNull(key, "key (the key selector returned null)");
        int slot = ids.indexOf(key);
        if (ids.indexExists(slot)) {
            return ids.indexGet(slot);
        }
        int id = newId(key, OBJECT, 0);
        ids.indexInsert(slot, key, id);
        return id;
    }

    /**
     * @param key a key, not null
     * @return its id if the key has one, else -1 (no id is given out: an inspection must not make keys)
     */
    public int existingId(Object key) {
        if (key instanceof Integer i) {
            int value = i;
            if (directInts.covers(value)) {
                return directInts.get(value);
            }
            int slot = intIds.indexOf(value);
            return intIds.indexExists(slot) ? intIds.indexGet(slot) : -1;
        }
        if (key instanceof Long l) {
            long value = l;
            if (directLongs.covers(value)) {
                return directLongs.get(value);
            }
            int slot = longIds.indexOf(value);
            return longIds.indexExists(slot) ? longIds.indexGet(slot) : -1;
        }
        int slot = ids.indexOf(Objects.requireNonNull(key, "key"));
        return ids.indexExists(slot) ? ids.indexGet(slot) : -1;
    }

    private int directId(DirectIds table, Object key, byte kind, long value) {
        int id = table.get(value);
        if (id < 0) {
            id = newId(key, kind, value);
            table.put(value, id);
        }
        return id;
    }

    /**
     * Grows a direct table to cover {@code value} and moves there the keys of kind {@code hashed} it now covers
     * (they were in that kind's hash map), so a value is always in exactly one of the two. Rare (the table doubles
     * each time), so a walk over the ids will do.
     */
    private void grow(DirectIds table, long value, byte hashed, byte direct) {
        table.growTo(value);
        for (int id = 0; id < nextId; id++) {
            if (keys[id] != null && kinds[id] == hashed && table.covers(values[id])) {
                table.put(values[id], id);
                kinds[id] = direct;
                if (hashed == INT) {
                    intIds.remove((int) values[id]);
                } else {
                    longIds.remove(values[id]);
                }
            }
        }
    }

    private int newId(Object key, byte kind, long value) {
        int id = freeCount > 0 ? freeIds[--freeCount] : nextId++;
        ensureIds(id + 1);
        keys[id] = key;
        kinds[id] = kind;
        values[id] = value;
        return id;
    }

    /** Makes the per-id arrays hold ids below {@code bound}. */
    private void ensureIds(int bound) {
        if (bound > keys.length) {
            int n = Math.max(keys.length * 2, bound);
            keys = Arrays.copyOf(keys, n);
            kinds = Arrays.copyOf(kinds, n);
            values = Arrays.copyOf(values, n);
        }
    }

    /** @param id an id in use @return its key */
    public Object keyOf(int id) {
        Object key = id < keys.length ? keys[id] : null;
        if (key == null) {
            throw new IllegalArgumentException("key id " + id + " is not in use");
        }
        return key;
    }

    /** @param id any id below {@link #idBound()} @return its key, or null if the id is free */
    public Object keyAt(int id) {
        return keys[id];
    }

    /** Forgets a key whose state is empty; its id may be handed to another key. */
    public void release(int id) {
        if (id < 0 || id >= keys.length || keys[id] == null) {
            throw new IllegalArgumentException("key id " + id + " is not in use");
        }
        switch (kinds[id]) {
            case INT -> intIds.remove((int) values[id]);
            case LONG -> longIds.remove(values[id]);
            case DIRECT_INT -> directInts.remove(values[id]);
            case DIRECT_LONG -> directLongs.remove(values[id]);
            default -> ids.remove(keys[id]);
        }
        keys[id] = null;
        if (freeCount == freeIds.length) {
            freeIds = Arrays.copyOf(freeIds, freeCount * 2);
        }
        freeIds[freeCount++] = id;
    }

    /**
     * Writes which key holds which id, and the ids free for reuse in the order they will be handed out, so that a
     * restored dictionary gives every key, old and new, the id this one would ({@link #readFrom}): per-key order
     * (equal-time results, timers) then continues exactly as in an uninterrupted run.
     */
    public void writeTo(DataOutput out, EventCodec<Object> keyCodec) throws IOException {
        out.writeInt(nextId);
        out.writeInt(nextId - freeCount);
        for (int id = 0; id < nextId; id++) {
            if (keys[id] != null) {
                out.writeInt(id);
                keyCodec.write(keys[id], out);
            }
        }
        out.writeInt(freeCount);
        for (int i = 0; i < freeCount; i++) {
            out.writeInt(freeIds[i]);
        }
    }

    /**
     * Restores what {@link #writeTo} wrote into this empty dictionary.
     *
     * @throws IOException if the dictionary is not empty, or the ids read are inconsistent (corrupt input)
     */
    /**
     * Reads past a dictionary {@link #writeTo} wrote, checking it as {@link #readFrom} does, without taking its ids:
     * a shard restored into another number of shards gives the keys it keeps ids of its own.
     */
    public static void skip(DataInput in, EventCodec<Object> keyCodec) throws IOException {
        int bound = in.readInt();
        int live = in.readInt();
        if (bound < 0 || live < 0 || live > bound) {
            throw new IOException("corrupt key dictionary: " + live + " keys under an id bound of " + bound);
        }
        for (int i = 0; i < live; i++) {
            int id = in.readInt();
            keyCodec.read(in);
            if (id < 0 || id >= bound) {
                throw new IOException("corrupt key dictionary: id " + id + " outside [0, " + bound + ")");
            }
        }
        int free = in.readInt();
        if (free != bound - live) {
            throw new IOException("corrupt key dictionary: " + free + " free ids, expected " + (bound - live));
        }
        for (int i = 0; i < free; i++) {
            int id = in.readInt();
            if (id < 0 || id >= bound) {
                throw new IOException("corrupt key dictionary: free id " + id + " out of range");
            }
        }
    }

    public void readFrom(DataInput in, EventCodec<Object> keyCodec) throws IOException {
        if (nextId != 0) {
            throw new IOException("a key dictionary can only be restored while empty; it holds " + nextId + " ids");
        }
        int bound = in.readInt();
        int live = in.readInt();
        if (bound < 0 || live < 0 || live > bound) {
            throw new IOException("corrupt key dictionary: " + live + " keys under an id bound of " + bound);
        }
        // every id below the bound is written, live (with its key) or free, in at least 4 bytes: refuse a bound the
        // bytes cannot hold before sizing tables by it
        if (in instanceof java.io.DataInputStream stream && (long) bound * Integer.BYTES > stream.available()) {
            throw new IOException("the key dictionary announces ids below " + bound + ", more than the "
                    + stream.available() + " bytes left could hold");
        }
        ensureIds(bound); // ids arrive in any order, and a direct table's growth walks every id below nextId
        for (int i = 0; i < live; i++) {
            int id = in.readInt();
            Object key = keyCodec.read(in);
            if (id < 0 || id >= bound) {
                throw new IOException("corrupt key dictionary: id " + id + " outside [0, " + bound + ")");
            }
            // the key takes the next id: hand out exactly the id it had, by making it the only one free
            freeCount = 0;
            nextId = Math.max(nextId, id + 1);
            freeIds[freeCount++] = id;
            if (idOf(key) != id) {
                throw new IOException("corrupt key dictionary: key " + key + " appears twice");
            }
        }
        int free = in.readInt();
        if (free != bound - live) {
            throw new IOException("corrupt key dictionary: " + free + " free ids, expected " + (bound - live));
        }
        if (free > freeIds.length) {
            freeIds = new int[free];
        }
        for (int i = 0; i < free; i++) {
            int id = in.readInt();
            if (id < 0 || id >= bound || id < keys.length && keys[id] != null) {
                throw new IOException("corrupt key dictionary: free id " + id + " is in use or out of range");
            }
            freeIds[i] = id;
        }
        freeCount = free;
        nextId = bound;
    }

    /** @return keys currently known */
    public int size() {
        return ids.size() + intIds.size() + longIds.size() + directInts.size() + directLongs.size();
    }

    /** @return how many values the Integer keys' direct table covers (for tests of its bound) */
    int directSpan() {
        return directInts.span();
    }

    /** @return one more than the largest id ever handed out: the size per-key arrays need */
    public int idBound() {
        return nextId;
    }
}
