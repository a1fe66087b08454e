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
}
