package io.cepheus.nfa.internal;

import java.util.Arrays;

/**
 * The shared buffer of one matcher (all its keys): each event stored once, and partial matches stored as
 * chains of entries {@code (event, stage, predecessor)} that share their common prefixes.
 *
 * <p>The idea is SASE+'s shared match buffer, as used by Flink's {@code SharedBuffer}: runs that extend the
 * same prefix point at the same entries instead of copying them. SASE+ and Flink keep one entry per
 * (stage, event) with several predecessor edges labelled by Dewey version numbers, and follow only the edges
 * compatible with a run's version when extracting it. Here every entry has exactly one predecessor, so an
 * entry identifies one run prefix by itself: the "version" of a pointer is the entry it points at, no Dewey
 * arithmetic is needed to extract a match, and an event taken by two runs in the same stage costs one small
 * entry more instead of one edge more. Events are still stored once however many entries refer to them.
 *
 * <p>Reference counts: an entry is referenced by the partial and held matches whose last entry it is and by
 * the entries whose predecessor it is; an event by the entries that hold it. An entry whose count drops to
 * zero is freed at once and releases its predecessor and its event, so memory follows the live partial
 * matches exactly. Storage is packed primitive arrays (one entry = four adjacent ints, one event = three adjacent longs,
 * so following a chain costs one cache line per entry) with free lists: no allocation per event in steady
 * state.
 *
 * <p>Public, in a package not exported to users, so that the benchmarks module can measure it on its own.
 *
 * <p>Owned by the thread that owns its {@link NfaEngine}.
 */
public final class SharedBuffer {

    public static final int NONE = -1;
    private static final int FREED = -1;

    // entries: EVENT, STAGE, PREV, REFS
    private static final int E_STRIDE = 4;
    private static final int E_EVENT = 0;
    private static final int E_STAGE = 1;
    private static final int E_PREV = 2;
    private static final int E_REFS = 3;
    // events: TIME, SEQ, REFS (the object itself in a parallel Object[])
    private static final int V_STRIDE = 3;
    private static final int V_TIME = 0;
    private static final int V_SEQ = 1;
    private static final int V_REFS = 2;

    private Object[] eventObject = new Object[64];
    private long[] events = new long[64 * V_STRIDE];
    private int eventHighWater;
    private int eventFreeHead = NONE;
    private int liveEvents;

    private int[] entries = new int[64 * E_STRIDE];
    private int entryHighWater;
    private int entryFreeHead = NONE;
    private int liveEntries;

    /** Stores an event with no references yet; it is freed when the last entry holding it is. */
    public int addEvent(Object event, long time, long seq) {
        int slot;
        if (eventFreeHead != NONE) {
            slot = eventFreeHead;
            eventFreeHead = (int) events[slot * V_STRIDE + V_SEQ];
        } else {
            if (eventHighWater == eventObject.length) {
                eventObject = Arrays.copyOf(eventObject, eventObject.length * 2);
                events = Arrays.copyOf(events, events.length * 2);
            }
            slot = eventHighWater++;
        }
        int at = slot * V_STRIDE;
        eventObject[slot] = event;
        events[at + V_TIME] = time;
        events[at + V_SEQ] = seq;
        events[at + V_REFS] = 0;
        liveEvents++;
        return slot;
    }

    /** Frees an event that no entry took (all branches that took it were discarded). */
    void freeEventIfUnused(int slot) {
        if (events[slot * V_STRIDE + V_REFS] == 0) {
            freeEvent(slot);
        }
    }

    private void freeEvent(int slot) {
        int at = slot * V_STRIDE;
        eventObject[slot] = null;
        events[at + V_REFS] = FREED;
        events[at + V_SEQ] = eventFreeHead;
        eventFreeHead = slot;
        liveEvents--;
    }

    /** Creates an entry with no references yet, holding its event and a new reference to its predecessor. */
    public int put(int event, int stage, int prev) {
        return put(event, stage, prev, false);
    }

    /**
     * Creates an entry with no references yet, holding its event and its predecessor.
     *
     * @param adoptPrev true when the caller hands over a reference it already holds on {@code prev} (a run
     *                  that moves on to the new entry), so the predecessor is not touched: it may be far away
     *                  in memory, and its count would only go up now and down at commit
     */
    public int put(int event, int stage, int prev, boolean adoptPrev) {
        int e;
        if (entryFreeHead != NONE) {
            e = entryFreeHead;
            entryFreeHead = entries[e * E_STRIDE + E_PREV];
        } else {
            if ((entryHighWater + 1) * E_STRIDE > entries.length) {
                entries = Arrays.copyOf(entries, entries.length * 2);
            }
            e = entryHighWater++;
        }
        int at = e * E_STRIDE;
        entries[at + E_EVENT] = event;
        entries[at + E_STAGE] = stage;
        entries[at + E_PREV] = prev;
        entries[at + E_REFS] = 0;
        events[event * V_STRIDE + V_REFS]++;
        if (prev != NONE && !adoptPrev) {
            entries[prev * E_STRIDE + E_REFS]++;
        }
        liveEntries++;
        return e;
    }

    public void lock(int entry) {
        entries[entry * E_STRIDE + E_REFS]++;
    }

    /** Drops one reference; frees the entry, then its predecessors, while their counts reach zero. */
    public void release(int entry) {
        while (entry != NONE) {
            int at = entry * E_STRIDE;
            if (--entries[at + E_REFS] > 0) {
                return;
            }
            int prev = entries[at + E_PREV];
            freeEntry(entry);
            entry = prev;
        }
    }

    /** Frees an entry created in this step that nothing ended up referencing (a discarded branch). */
    void freeIfUnreferenced(int entry) {
        int at = entry * E_STRIDE + E_REFS;
        if (entries[at] == 0) {
            entries[at] = 1;
            release(entry);
        }
    }

    /**
     * Frees an unreferenced entry created with an adopted predecessor reference, giving that reference back
     * to its previous holder: the predecessor is left as it is (used when a step is rolled back).
     */
    void freeDetached(int entry) {
        int at = entry * E_STRIDE;
        if (entries[at + E_REFS] != 0) {
            throw new IllegalStateException("entry " + entry + " is still referenced");
        }
        freeEntry(entry);
    }

    /** Puts an unreferenced entry on the free list and drops its event reference (not its predecessor's). */
    private void freeEntry(int entry) {
        int at = entry * E_STRIDE;
        int event = entries[at + E_EVENT];
        entries[at + E_REFS] = FREED;
        entries[at + E_PREV] = entryFreeHead;
        entryFreeHead = entry;
        liveEntries--;
        if (--events[event * V_STRIDE + V_REFS] == 0) {
            freeEvent(event);
        }
    }

    public int prev(int entry) {
        return entries[entry * E_STRIDE + E_PREV];
    }

    public int stage(int entry) {
        return entries[entry * E_STRIDE + E_STAGE];
    }

    int eventSlot(int entry) {
        return entries[entry * E_STRIDE + E_EVENT];
    }

    Object event(int entry) {
        return eventObject[eventSlot(entry)];
    }

    public long time(int entry) {
        return events[eventSlot(entry) * V_STRIDE + V_TIME];
    }

    long seq(int entry) {
        return events[eventSlot(entry) * V_STRIDE + V_SEQ];
    }

    int liveEvents() {
        return liveEvents;
    }

    int liveEntries() {
        return liveEntries;
    }
}
