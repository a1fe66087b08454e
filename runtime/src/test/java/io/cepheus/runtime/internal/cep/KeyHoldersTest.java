package io.cepheus.runtime.internal.cep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link KeyHolders}: which rule versions hold state for a key, and in which row, as versions take and drop keys. */
class KeyHoldersTest {

    private static Set<Integer> holdersOf(KeyHolders h, int keyId) {
        Set<Integer> out = new HashSet<>();
        for (int node = h.first(keyId); node != 0; node = h.next(node)) {
            assertTrue(out.add(h.holder(node)), "a version listed twice");
        }
        return out;
    }

    @Test
    void versionsHoldAndLetGoOfKeysInAnyOrder() {
        KeyHolders h = new KeyHolders();
        assertFalse(h.any(5));
        assertFalse(h.any(1_000_000), "a key id beyond any seen");
        h.held(5, 0, 10);
        h.held(5, 7, 11);
        h.held(5, 3, 12);
        h.held(200, 7, 0);
        assertEquals(Set.of(0, 3, 7), holdersOf(h, 5));
        assertEquals(11, h.rowOf(5, 7), "each holder's row of the key");
        assertEquals(0, h.rowOf(200, 7));
        assertEquals(-1, h.rowOf(200, 3));
        assertEquals(-1, h.rowOf(1_000_000, 3));
        h.released(5, 7);
        assertEquals(Set.of(0, 3), holdersOf(h, 5));
        assertEquals(-1, h.rowOf(5, 7));
        assertEquals(12, h.rowOf(5, 3));
        assertEquals(Set.of(7), holdersOf(h, 200));
        h.released(5, 0);
        h.released(5, 3);
        assertFalse(h.any(5));
        assertThrows(IllegalStateException.class, () -> h.released(5, 3), "not held");
    }

    @Test
    void nodesAreReusedSoChurnDoesNotGrowThePool() {
        KeyHolders h = new KeyHolders();
        for (int round = 0; round < 10_000; round++) {
            h.held(round % 50, round % 7, round);
            h.released(round % 50, round % 7);
        }
        for (int key = 0; key < 50; key++) {
            assertFalse(h.any(key));
        }
    }
}
