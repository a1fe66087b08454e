package io.cepheus.runtime.internal.cep;

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
}
