package io.cepheus.nfa.internal;

import io.cepheus.nfa.NfaState;
import java.util.Arrays;

/**
 * The state of one key: its live partial matches and the completed matches a skip strategy holds back.
 *
 * <p>Design: a step touches the state of a random key among tens of thousands, so what it costs is mostly
 * cache misses, one per object (and per cache line) it has to reach. Most keys hold no or one partial match
 * at a time (91% of the steps of benchmark workload W1, 62% on W2, 74% on W4), so the first partial match
 * lives in fields of this object and only the others in the {@link #more} array, {@link #STRIDE} longs each:
 * a key with at most one partial match is one object, and a key that never had two costs no array at all.
 * Partial matches are kept in the array order of Flink's priority queue of computation states, a binary heap
 * by start event ({@link StartQueue}), which is also the order a step visits them in: that order decides
 * which of several matches with the same start a skip strategy releases first. The engine reads and writes
 * them through {@link #stateEntry(int)} and its siblings, {@link #set}, {@link #replaceAll} and {@link #copyTo}.
 * Held matches are likewise in the array order of Flink's queue of completed matches.
 *
 * <p>Owned by the thread of the {@link NfaEngine} that created it.
 */
final class KeyState implements NfaState {

    /** Longs per partial match in {@link #more} and in the engine's scratch arrays: state and buffer entry,
     *  start time, previous event time, start event seq. */
    static final int STRIDE = 4;
    static final int STATE_ENTRY = 0;
    static final int START_TIME = 1;
    static final int PREV_TIME = 2;
    static final int START_SEQ = 3;

    /** Extra partial matches the first array holds: the workloads' hot keys rarely need more than four. */
    private static final int FIRST_MORE_CAPACITY = 3;
    private static final long[] NO_PARTIALS = new long[0];

    final NfaEngine<?> owner;
    Object key;
    /** The state sits in its engine's pool of reusable states: using it then is an error. */
    private static final byte POOLED = 1;
    /**
     * Its key is traced ({@code NfaEngine#trace}): the one test an untraced key's step makes for tracing. A bit of the
     * byte that says whether the state is pooled, which every operation reads anyway: the object keeps its size and
     * the layout of its fields.
     */
    private static final byte TRACED = 2;
    private byte flags;
    long currentTime = Long.MIN_VALUE;
    /** The earliest time a partial match of this key expires (MAX_VALUE if none can): advancing to an earlier
     *  time has nothing to do, so it costs one comparison. */
    long expiresAt = Long.MAX_VALUE;

    /** Live partial matches: the first in the fields below, the others in {@link #more}. */
    int count;
    private long stateEntry0;
    private long startTime0;
    private long prevTime0;
    private long startSeq0;
    /** Partial matches 1 .. count-1, {@link #STRIDE} longs each; shared and empty until a second one exists. */
    private long[] more = NO_PARTIALS;

    private static final int[] NO_ENTRIES = new int[0];
    private static final long[] NO_SEQS = new long[0];

    /** The shared-buffer entries this key's partial and held matches keep alive (see {@code NfaEngine#entriesNow}). */
    int entries;

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
        flags = 0;
    }

    /** @return whether the state sits in its engine's pool of reusable states (using it then is an error) */
    boolean pooled() {
        return (flags & POOLED) != 0;
    }

    /** Puts the state in its engine's pool. */
    void pool() {
        flags |= POOLED;
    }

    /** @return whether its key is traced */
    boolean traced() {
        return (flags & TRACED) != 0;
    }

    /** @param on whether its key is traced */
    void traced(boolean on) {
        flags = (byte) (on ? flags | TRACED : flags & ~TRACED);
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

    /** Makes room for {@code n} partial matches; the ones stored so far stay where they are. */
    void ensurePartialCapacity(int n) {
        int needed = (n - 1) * STRIDE;
        if (needed > more.length) {
            more = Arrays.copyOf(more, Math.max(needed, Math.max(more.length * 2, FIRST_MORE_CAPACITY * STRIDE)));
        }
    }

    /** @return partial match {@code i}'s state and buffer entry, see {@link #pack} */
    long stateEntry(int i) {
        return i == 0 ? stateEntry0 : more[(i - 1) * STRIDE + STATE_ENTRY];
    }

    /** @return partial match {@code i}'s start time */
    long startTime(int i) {
        return i == 0 ? startTime0 : more[(i - 1) * STRIDE + START_TIME];
    }

    /** @return the time of the last event partial match {@code i} took */
    long prevTime(int i) {
        return i == 0 ? prevTime0 : more[(i - 1) * STRIDE + PREV_TIME];
    }

    /** @return the sequence number of partial match {@code i}'s start event */
    long startSeq(int i) {
        return i == 0 ? startSeq0 : more[(i - 1) * STRIDE + START_SEQ];
    }

    /** Writes partial match {@code i}; the capacity must be there ({@link #ensurePartialCapacity}). */
    void set(int i, long stateEntry, long startTime, long prevTime, long startSeq) {
        if (i == 0) {
            stateEntry0 = stateEntry;
            startTime0 = startTime;
            prevTime0 = prevTime;
            startSeq0 = startSeq;
        } else {
            int at = (i - 1) * STRIDE;
            more[at + STATE_ENTRY] = stateEntry;
            more[at + START_TIME] = startTime;
            more[at + PREV_TIME] = prevTime;
            more[at + START_SEQ] = startSeq;
        }
    }

    /** Replaces the partial matches by the first {@code n} of {@code src} ({@link #STRIDE} longs each). */
    void replaceAll(long[] src, int n) {
        if (n > 0) {
            stateEntry0 = src[STATE_ENTRY];
            startTime0 = src[START_TIME];
            prevTime0 = src[PREV_TIME];
            startSeq0 = src[START_SEQ];
            if (n > 1) {
                ensurePartialCapacity(n);
                System.arraycopy(src, STRIDE, more, 0, (n - 1) * STRIDE);
            }
        }
        count = n;
    }

    /**
     * Adds a match to the queue of held ones, as Flink adds one to its queue of completed matches (restoring
     * a snapshot adds them in the order written, which rebuilds the same queue).
     */
    void hold(int matchEntry, long seq) {
        if (heldCount == heldEntry.length) {
            int c = Math.max(4, heldCount * 2);
            heldEntry = Arrays.copyOf(heldEntry, c);
            heldStartSeq = Arrays.copyOf(heldStartSeq, c);
        }
        heldEntry[heldCount] = matchEntry;
        heldStartSeq[heldCount] = seq;
        StartQueue.siftUp(heldEntry, heldStartSeq, heldCount++);
    }

    /** Removes the head of the held queue: the earliest start; among equal starts, the one the queue has first. */
    void pollHeld() {
        StartQueue.poll(heldEntry, heldStartSeq, heldCount--);
    }

    /** Drops the last held match (emptying the queue from its end keeps the rest a queue). */
    void dropLastHeld() {
        heldCount--;
    }

    /** Copies the partial matches, in order, into {@code dst} ({@link #STRIDE} longs each; room for all). */
    void copyTo(long[] dst) {
        for (int i = 0; i < count; i++) {
            int at = i * STRIDE;
            dst[at + STATE_ENTRY] = stateEntry(i);
            dst[at + START_TIME] = startTime(i);
            dst[at + PREV_TIME] = prevTime(i);
            dst[at + START_SEQ] = startSeq(i);
        }
    }

    /**
     * Reads this object's fields and returns a value of no meaning (see {@link NfaEngine#touchState}): the object
     * may span two cache lines, so fields of several sizes are read.
     */
    int touchFields() {
        return count + heldCount + (int) currentTime + flags;
    }

    /** Reads the first line of the array of extra partial matches if there is one; a value of no meaning. */
    int touchMore() {
        return count > 1 ? (int) more[STATE_ENTRY] : 0;
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
    public int bufferEntryCount() {
        return entries;
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
