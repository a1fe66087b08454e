package io.cepheus.nfa.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The partial-match storage of a key: the first one in fields, the others in an array, one ordered list. */
class KeyStateTest {

    /** Scratch layout as the engine writes it: {@link KeyState#STRIDE} longs per partial match. */
    private static long[] scratch(int n, long salt) {
        long[] out = new long[n * KeyState.STRIDE];
        for (int i = 0; i < n; i++) {
            int at = i * KeyState.STRIDE;
            out[at + KeyState.STATE_ENTRY] = KeyState.pack(i + 1, (int) (100 * salt + i));
            out[at + KeyState.START_TIME] = 1_000 * salt + i;
            out[at + KeyState.PREV_TIME] = 2_000 * salt + i;
            out[at + KeyState.START_SEQ] = 3_000 * salt + i;
        }
        return out;
    }

    private static void assertHolds(long[] expected, int from, KeyState st, int at, String what) {
        int e = from * KeyState.STRIDE;
        assertEquals(expected[e + KeyState.STATE_ENTRY], st.stateEntry(at), what + ": state and entry");
        assertEquals(expected[e + KeyState.START_TIME], st.startTime(at), what + ": start time");
        assertEquals(expected[e + KeyState.PREV_TIME], st.prevTime(at), what + ": previous time");
        assertEquals(expected[e + KeyState.START_SEQ], st.startSeq(at), what + ": start seq");
    }

    @Test
    void replaceAllKeepsEveryPartialMatchInOrderWhateverTheCount() {
        KeyState st = new KeyState(null, "k");
        // grow, shrink to one (inline only) and to none, grow again past the first array's capacity
        for (int n : new int[] {1, 2, 4, 1, 0, 3, 9, 2}) {
            long[] src = scratch(n, n + 7);
            st.replaceAll(src, n);
            assertEquals(n, st.count);
            for (int i = 0; i < n; i++) {
                assertHolds(src, i, st, i, "count " + n + ", partial match " + i);
            }
        }
    }

    @Test
    void copyToWritesEveryPartialMatchInOrderAcrossTheFieldsAndTheArray() {
        KeyState st = new KeyState(null, "k");
        long[] src = scratch(6, 3);
        st.replaceAll(src, 6);
        long[] out = new long[6 * KeyState.STRIDE];
        st.copyTo(out);
        assertArrayEquals(src, out);
    }

    @Test
    void growingKeepsThePartialMatchesAlreadyStored() {
        KeyState st = new KeyState(null, "k");
        long[] src = scratch(4, 5);
        st.ensurePartialCapacity(4);
        for (int i = 0; i < 4; i++) {
            int at = i * KeyState.STRIDE;
            st.set(i, src[at + KeyState.STATE_ENTRY], src[at + KeyState.START_TIME], src[at + KeyState.PREV_TIME],
                    src[at + KeyState.START_SEQ]);
        }
        st.ensurePartialCapacity(40);
        for (int i = 0; i < 4; i++) {
            assertHolds(src, i, st, i, "after growing, partial match " + i);
        }
    }
}
