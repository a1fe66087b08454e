package io.cepheus.runtime.internal.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class KeyDictionaryTest {

    @Test
    void keysGetDenseIdsAndReleasedIdsAreReused() {
        KeyDictionary d = new KeyDictionary();
        assertEquals(0, d.idOf("alice"));
        assertEquals(1, d.idOf("bob"));
        assertEquals(0, d.idOf("alice"));
        d.release(0);
        assertEquals(1, d.size());
        assertEquals(0, d.idOf("carol"), "the free id comes back");
        assertEquals("carol", d.keyOf(0));
        assertEquals(2, d.idBound());
    }

    @Test
    void theMostRecentlyFreedIdIsReusedFirst() {
        KeyDictionary d = new KeyDictionary();
        for (int i = 0; i < 200; i++) {
            d.idOf(i);
        }
        d.release(2);
        d.release(130);
        d.release(64);
        assertEquals(64, d.idOf("x"));
        assertEquals(130, d.idOf("y"));
        assertEquals(2, d.idOf("z"));
        assertEquals(200, d.idOf("w"), "no free id left: a new one");
    }

    @Test
    void aMillionShortLivedKeysNeedFewIds() {
        KeyDictionary d = new KeyDictionary();
        for (int i = 0; i < 1_000_000; i++) {
            int id = d.idOf("user-" + i);
            d.release(id);
        }
        assertEquals(0, d.size());
        assertEquals(1, d.idBound());
    }

    @Test
    void badInputIsNamed() {
        KeyDictionary d = new KeyDictionary();
        NullPointerException npe = assertThrows(NullPointerException.class, () -> d.idOf(null));
        assertTrue(npe.getMessage().contains("key selector"));
        IllegalArgumentException iae = assertThrows(IllegalArgumentException.class, () -> d.keyOf(7));
        assertTrue(iae.getMessage().contains("7"));
    }

    @Test
    void numericKeysKeepJavasEqualityAcrossTheirPrimitiveMaps() {
        KeyDictionary d = new KeyDictionary();
        int intOne = d.idOf(1);
        int longOne = d.idOf(1L);
        int stringOne = d.idOf("1");
        assertEquals(3, java.util.Set.of(intOne, longOne, stringOne).size(), "1, 1L and \"1\" are different keys");
        assertEquals(intOne, d.idOf(Integer.valueOf(1000).intValue() - 999), "an equal Integer finds the same id");
        assertEquals(1L, d.keyOf(longOne));
        d.release(intOne);
        assertEquals(2, d.size());
        assertEquals(longOne, d.idOf(1L), "releasing Integer 1 leaves Long 1");
        int again = d.idOf(1);
        assertEquals(Integer.valueOf(1), d.keyOf(again));
        for (int i = 0; i < 100_000; i++) {
            d.release(d.idOf((long) i + 10));
            d.release(d.idOf(i + 10));
        }
        assertEquals(3, d.size());
    }

    @Test
    void aDenseIdTableTakesOverTheNumericKeysItComesToCover() {
        KeyDictionary d = new KeyDictionary();
        int bigInt = d.idOf(100_000); // beyond the table while it holds few keys: the hash map
        int bigLong = d.idOf(100_000L);
        for (int i = 0; i < 20_000; i++) {
            d.idOf(i); // dense keys: the table holds them
            d.idOf((long) i);
        }
        // holding 20,000 keys, a table may cover 160,000 values: it grows to 131,072 and takes 100,000 over
        int small = d.idOf(90_000);
        d.idOf(90_000L);
        assertEquals(bigInt, d.idOf(100_000), "the moved key keeps its id");
        assertEquals(bigLong, d.idOf(100_000L));
        assertEquals(Integer.valueOf(100_000), d.keyOf(bigInt));
        assertEquals(Long.valueOf(100_000), d.keyOf(bigLong));
        assertEquals(40_004, d.size());
        d.release(bigInt);
        assertEquals(40_003, d.size());
        assertEquals(bigLong, d.idOf(100_000L), "releasing Integer 100000 leaves Long 100000");
        assertEquals(bigInt, d.idOf(100_000), "back with the most recently freed id");
        assertEquals(small, d.idOf(90_000));
    }

    @Test
    void keysSpreadOverAllIntsLeaveTheTableSmall() {
        KeyDictionary d = new KeyDictionary();
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        for (int i = 0; i < 100_000; i++) {
            d.idOf(random.nextInt(Integer.MAX_VALUE));
        }
        assertTrue(d.directSpan() <= 1 << 16, "span " + d.directSpan());
    }

    @Test
    void negativeAndHugeNumericKeysStayInTheHashMaps() {
        KeyDictionary d = new KeyDictionary();
        int[] ints = {-1, Integer.MIN_VALUE, Integer.MAX_VALUE, 0};
        long[] longs = {-1L, Long.MIN_VALUE, Long.MAX_VALUE, 0L, 1L << 40};
        for (int v : ints) {
            assertEquals(d.idOf(v), d.idOf(v));
        }
        for (long v : longs) {
            assertEquals(d.idOf(v), d.idOf(v));
        }
        assertEquals(ints.length + longs.length, d.size());
        for (int v : ints) {
            d.release(d.idOf(v));
        }
        for (long v : longs) {
            d.release(d.idOf(v));
        }
        assertEquals(0, d.size());
    }

    /**
     * Random lookups and releases of Integer, Long and String keys against a {@link java.util.HashMap}, with a
     * direct table allowed only 16 values without density, so it grows and takes keys over from the hash maps
     * all the time.
     */
    @Test
    void behavesAsAMapOfKeysToDistinctIdsUnderRandomUse() {
        for (long seed = 1; seed <= 300; seed++) {
            checkAgainstReference(seed);
        }
    }

    private static void checkAgainstReference(long seed) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        KeyDictionary d = new KeyDictionary(16);
        java.util.Map<Object, Integer> reference = new java.util.HashMap<>();
        java.util.List<Object> live = new java.util.ArrayList<>();
        int range = 1 + random.nextInt(4_000);
        for (int step = 0; step < 3_000; step++) {
            String where = "seed " + seed + ", step " + step;
            if (live.isEmpty() || random.nextInt(10) < 6) {
                Object key = randomKey(random, range);
                int id = d.idOf(key);
                Integer known = reference.get(key);
                if (known != null) {
                    assertEquals(known, id, where + ": " + key + " changed its id");
                } else {
                    assertTrue(!reference.containsValue(id), where + ": " + key + " got id " + id + ", in use");
                    reference.put(key, id);
                    live.add(key);
                }
                assertEquals(key, d.keyOf(id), where);
            } else {
                int at = random.nextInt(live.size());
                Object key = live.get(at);
                live.set(at, live.get(live.size() - 1));
                live.remove(live.size() - 1);
                d.release(reference.remove(key));
            }
            assertEquals(reference.size(), d.size(), where);
        }
        for (java.util.Map.Entry<Object, Integer> e : reference.entrySet()) {
            assertEquals(e.getValue(), d.idOf(e.getKey()), "seed " + seed + ": " + e.getKey() + " at the end");
        }
    }

    private static Object randomKey(java.util.SplittableRandom random, int range) {
        int value = random.nextInt(range) - (random.nextInt(8) == 0 ? range / 4 : 0);
        return switch (random.nextInt(3)) {
            case 0 -> value;
            case 1 -> (long) value;
            default -> "k" + value;
        };
    }

    /** Keys of every kind the dictionary stores apart (Integer, Long, direct and hashed, other objects). */
    private static final io.cepheus.nfa.EventCodec<Object> ANY_KEY = new io.cepheus.nfa.EventCodec<>() {
        @Override
        public void write(Object key, java.io.DataOutput out) throws java.io.IOException {
            if (key instanceof Integer v) {
                out.writeByte(0);
                out.writeInt(v);
            } else if (key instanceof Long v) {
                out.writeByte(1);
                out.writeLong(v);
            } else {
                out.writeByte(2);
                out.writeUTF((String) key);
            }
        }

        @Override
        public Object read(java.io.DataInput in) throws java.io.IOException {
            return switch (in.readByte()) {
                case 0 -> in.readInt();
                case 1 -> in.readLong();
                default -> in.readUTF();
            };
        }
    };

    /**
     * A restored dictionary gives every key the id it had and hands out the same ids to new keys, in the same
     * order, as the dictionary that was written: random keys of every kind, with ids freed and reused, each
     * written at a random point and compared over the operations that follow.
     */
    @Test
    void aRestoredDictionaryHandsOutTheSameIdsAsTheOneWritten() throws java.io.IOException {
        long seed = io.cepheus.nfa.testing.PropertySeeds.seed(0xD1C7L);
        java.util.Random random = new java.util.Random(seed);
        for (int round = 0; round < 200; round++) {
            KeyDictionary original = new KeyDictionary(4);
            java.util.List<Object> live = new java.util.ArrayList<>();
            int before = random.nextInt(300);
            for (int i = 0; i < before; i++) {
                step(original, live, random);
            }
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            original.writeTo(new java.io.DataOutputStream(bytes), ANY_KEY);
            KeyDictionary restored = new KeyDictionary(4);
            restored.readFrom(new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray())),
                    ANY_KEY);
            String context = "seed " + seed + ", round " + round;
            assertEquals(original.size(), restored.size(), context);
            assertEquals(original.idBound(), restored.idBound(), context);
            for (Object key : live) {
                assertEquals(original.idOf(key), restored.idOf(key), context + ", key " + key);
            }
            java.util.List<Object> liveRestored = new java.util.ArrayList<>(live);
            for (int i = 0; i < 200; i++) { // the same operations on both from here
                long draw = random.nextLong();
                assertEquals(step(original, live, new java.util.Random(draw)),
                        step(restored, liveRestored, new java.util.Random(draw)), context + ", operation " + i);
            }
        }
    }

    /** A random lookup (new or known key) or release; @return the id it touched */
    private static int step(KeyDictionary d, java.util.List<Object> live, java.util.Random random) {
        if (!live.isEmpty() && random.nextInt(3) == 0) {
            Object key = live.remove(random.nextInt(live.size()));
            int id = d.idOf(key);
            d.release(id);
            return id;
        }
        int value = random.nextInt(random.nextBoolean() ? 50 : 100_000);
        Object key = switch (random.nextInt(3)) {
            case 0 -> value;
            case 1 -> (long) value;
            default -> "k" + value;
        };
        if (!live.contains(key)) {
            live.add(key);
        }
        return d.idOf(key);
    }

    /** An id past the restored arrays' first size, on a key that makes a direct table grow (seed 15001's case). */
    @Test
    void aNumericKeyWithALargeIdIsRestored() throws java.io.IOException {
        KeyDictionary original = new KeyDictionary();
        for (int i = 0; i < 64; i++) {
            original.idOf("k" + i);
        }
        assertEquals(64, original.idOf(5)); // Integer 5 takes id 64 and the direct table
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        original.writeTo(new java.io.DataOutputStream(bytes), ANY_KEY);
        KeyDictionary restored = new KeyDictionary();
        restored.readFrom(new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray())),
                ANY_KEY);
        assertEquals(64, restored.idOf(5));
        assertEquals(63, restored.idOf("k63"));
        assertEquals(65, restored.idOf("new"));
    }

    @Test
    void aDictionaryIsRestoredOnlyWhileEmptyAndCorruptIdsAreRefused() throws java.io.IOException {
        KeyDictionary d = new KeyDictionary();
        d.idOf("a");
        d.idOf("b");
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        d.writeTo(new java.io.DataOutputStream(bytes), ANY_KEY);
        byte[] written = bytes.toByteArray();
        java.io.IOException notEmpty = assertThrows(java.io.IOException.class,
                () -> d.readFrom(new java.io.DataInputStream(new java.io.ByteArrayInputStream(written)), ANY_KEY));
        assertTrue(notEmpty.getMessage().contains("empty"), notEmpty.getMessage());
        byte[] twice = written.clone();
        twice[twice.length - 4 - 1] = 'a'; // the second key's one character (before the free count): "b" is "a"
        java.io.IOException duplicate = assertThrows(java.io.IOException.class, () -> new KeyDictionary()
                .readFrom(new java.io.DataInputStream(new java.io.ByteArrayInputStream(twice)), ANY_KEY));
        assertTrue(duplicate.getMessage().contains("appears twice"), duplicate.getMessage());
    }
}
