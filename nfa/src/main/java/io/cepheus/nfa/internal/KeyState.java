package io.cepheus.nfa.internal;

import io.cepheus.nfa.NfaState;
import java.util.Arrays;

/**
 * The state of one key: its live partial matches (parallel arrays, ordered by start event, ties in creation
 * order, as Flink's priority queue orders them) and the completed matches a skip strategy holds back.
 * Owned by the thread of the {@link NfaEngine} that created it.
 */
final class KeyState implements NfaState {

    final NfaEngine<?> owner;
    final Object key;
    long currentTime = Long.MIN_VALUE;

    int count;
    int[] state = new int[2];
    int[] entry = new int[2];
    long[] startTime = new long[2];
    long[] prevTime = new long[2];
    long[] startSeq = new long[2];

    int heldCount;
    int[] heldEntry = new int[0];
    long[] heldStartSeq = new long[0];

    KeyState(NfaEngine<?> owner, Object key) {
        this.owner = owner;
        this.key = key;
    }

    void ensurePartialCapacity(int n) {
        if (n > state.length) {
            int c = Math.max(n, state.length * 2);
            state = Arrays.copyOf(state, c);
            entry = Arrays.copyOf(entry, c);
            startTime = Arrays.copyOf(startTime, c);
            prevTime = Arrays.copyOf(prevTime, c);
            startSeq = Arrays.copyOf(startSeq, c);
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
    public String toString() {
        return "NfaState[key=" + key + ", partial=" + count + ", held=" + heldCount + ", time=" + currentTime + "]";
    }
}
