package io.cepheus.nfa.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SharedBufferTest {

    @Test
    void runsSharingAPrefixKeepItUntilTheLastOneIsReleased() {
        SharedBuffer b = new SharedBuffer();
        int e1 = b.addEvent("a1", 1, 1);
        int root = b.put(e1, 0, SharedBuffer.NONE);
        int e2 = b.addEvent("b1", 2, 2);
        int left = b.put(e2, 1, root);
        int e3 = b.addEvent("b2", 3, 3);
        int right = b.put(e3, 1, root);
        b.lock(left);
        b.lock(right);
        assertEquals(3, b.liveEntries());
        assertEquals(3, b.liveEvents());
        b.release(left);
        assertEquals(2, b.liveEntries(), "the shared prefix survives");
        assertEquals("a1", b.event(b.prev(right)));
        b.release(right);
        assertEquals(0, b.liveEntries());
        assertEquals(0, b.liveEvents());
    }

    @Test
    void anEventTakenTwiceIsStoredOnce() {
        SharedBuffer b = new SharedBuffer();
        int ev = b.addEvent("x", 5, 9);
        int first = b.put(ev, 0, SharedBuffer.NONE);
        int second = b.put(ev, 1, SharedBuffer.NONE);
        b.lock(first);
        b.lock(second);
        assertEquals(1, b.liveEvents());
        b.release(first);
        assertEquals(1, b.liveEvents());
        b.release(second);
        assertEquals(0, b.liveEvents());
    }

    @Test
    void freedSlotsAreReused() {
        SharedBuffer b = new SharedBuffer();
        for (int round = 0; round < 1000; round++) {
            int ev = b.addEvent("e" + round, round, round);
            int entry = b.put(ev, 0, SharedBuffer.NONE);
            b.freeIfUnreferenced(entry);
            assertEquals(0, b.liveEntries());
            assertEquals(0, b.liveEvents());
            assertEquals(0, entry, "the same slot comes back");
        }
    }
}
