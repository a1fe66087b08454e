package io.cepheus.nfa.internal;

import io.cepheus.nfa.NfaState;
import java.util.Arrays;

/**
 * The state of one key: its live partial matches and the completed matches a skip strategy holds back.
 *
 * <p>Partial matches are packed into one {@code long[]}, {@link #STRIDE} longs each, so that matching an
 * event of a key touches one array (one or two cache lines) rather than one per field: with tens of
 * thousands of keys those misses dominate the cost of a step. They are ordered by start event, ties in
 * creation order, as Flink's priority queue of computation states orders them.
 *
 * <p>Owned by the thread of the {@link NfaEngine} that created it.
 */
final class KeyState implements NfaState {

    /** Longs per partial match: state and buffer entry, start time, previous event time, start event seq. */
    static final int STRIDE = 4;
    static final int STATE_ENTRY = 0;
    static final int START_TIME = 1;
    static final int PREV_TIME = 2;
    static final int START_SEQ = 3;

    final NfaEngine<?> owner;
    Object key;
    /** Set while the state sits in its engine's pool of reusable states: using it then is an error. */
    boolean pooled;
    long currentTime = Long.MIN_VALUE;
    /** The earliest time a partial match of this key expires (MAX_VALUE if none can): advancing to an earlier
     *  time has nothing to do, so it costs one comparison. */
    long expiresAt = Long.MAX_VALUE;

    int count;
    long[] partials = new long[2 * STRIDE];

    private static final int[] NO_ENTRIES = new int[0];
    private static final long[] NO_SEQS = new long[0];

    int heldCount;
    // most keys never hold a match: share the empty arrays (a few bytes per key matter at 100k keys)
    int[] heldEntry = NO_ENTRIES;
    long[] heldStartSeq = NO_SEQS;

    KeyState(NfaEngine<?> owner, Object key) {
        this.owner = owner;
        this.key = key;
    }

    /** Makes an empty, released state new again for another key. */
    void reuseFor(Object newKey) {
        key = newKey;
        currentTime = Long.MIN_VALUE;
        expiresAt = Long.MAX_VALUE;
        pooled = false;
    }

    static long pack(int state, int entry) {
        return ((long) state << 32) | (entry & 0xFFFF_FFFFL);
    }

    static int stateOf(long packed) {
        return (int) (packed >>> 32);
    }

    static int entryOf(long packed) {
        return (int) packed;
    }

    void ensurePartialCapacity(int n) {
        if (n * STRIDE > partials.length) {
            partials = Arrays.copyOf(partials, Math.max(n * STRIDE, partials.length * 2));
        }
    }

    /** Inserts a held match after every held match that started no later (stable order by start). */
    void hold(int matchEntry, long seq) {
        if (heldCount == heldEntry.length) {
            int c = Math.max(4, heldCount * 2);
            heldEntry = Arrays.copyOf(heldEntry, c);
            heldStartSeq = Arrays.copyOf(heldStartSeq, c);
        }
        int at = heldCount;
        while (at > 0 && heldStartSeq[at - 1] > seq) {
            at--;
        }
        System.arraycopy(heldEntry, at, heldEntry, at + 1, heldCount - at);
        System.arraycopy(heldStartSeq, at, heldStartSeq, at + 1, heldCount - at);
        heldEntry[at] = matchEntry;
        heldStartSeq[at] = seq;
        heldCount++;
    }

    void removeHeld(int at) {
        System.arraycopy(heldEntry, at + 1, heldEntry, at, heldCount - at - 1);
        System.arraycopy(heldStartSeq, at + 1, heldStartSeq, at, heldCount - at - 1);
        heldCount--;
    }

    @Override
    public Object key() {
        return key;
    }

    @Override
    public int partialMatchCount() {
        return count;
    }

    @Override
    public int heldMatchCount() {
        return heldCount;
    }

    @Override
    public long currentTime() {
        return currentTime;
    }

    @Override
    public long expiryTime() {
        return expiresAt;
    }

    @Override
    public String toString() {
        return "NfaState[key=" + key + ", partial=" + count + ", held=" + heldCount + ", time=" + currentTime + "]";
    }
}
