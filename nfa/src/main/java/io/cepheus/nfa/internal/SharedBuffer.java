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
 * matches exactly. Storage is primitive arrays with free lists: no allocation per event in steady state.
 *
 * <p>Owned by the thread that owns its {@link NfaEngine}.
 */
final class SharedBuffer {

    static final int NONE = -1;
    private static final int FREED = -1;

    private Object[] eventObject = new Object[64];
    private long[] eventTime = new long[64];
    private long[] eventSeq = new long[64];
    private int[] eventRefs = new int[64];
    private int eventHighWater;
    private int eventFreeHead = NONE;
    private int liveEvents;

    private int[] entryEvent = new int[64];
    private int[] entryStage = new int[64];
    private int[] entryPrev = new int[64];
    private int[] entryRefs = new int[64];
    private int entryHighWater;
    private int entryFreeHead = NONE;
    private int liveEntries;

    /** Stores an event with no references yet; it is freed when the last entry holding it is. */
    int addEvent(Object event, long time, long seq) {
        int slot;
        if (eventFreeHead != NONE) {
            slot = eventFreeHead;
            eventFreeHead = eventRefs[slot] == FREED ? (int) eventSeq[slot] : NONE;
        } else {
            if (eventHighWater == eventObject.length) {
                int n = eventObject.length * 2;
                eventObject = Arrays.copyOf(eventObject, n);
                eventTime = Arrays.copyOf(eventTime, n);
                eventSeq = Arrays.copyOf(eventSeq, n);
                eventRefs = Arrays.copyOf(eventRefs, n);
            }
            slot = eventHighWater++;
        }
        eventObject[slot] = event;
        eventTime[slot] = time;
        eventSeq[slot] = seq;
        eventRefs[slot] = 0;
        liveEvents++;
        return slot;
    }

    /** Frees an event that no entry took (all branches that took it were discarded). */
    void freeEventIfUnused(int slot) {
        if (eventRefs[slot] == 0) {
            freeEvent(slot);
        }
    }

    private void freeEvent(int slot) {
        eventObject[slot] = null;
        eventRefs[slot] = FREED;
        eventSeq[slot] = eventFreeHead;
        eventFreeHead = slot;
        liveEvents--;
    }

    /** Creates an entry with no references yet, holding its event and its predecessor. */
    int put(int event, int stage, int prev) {
        int e;
        if (entryFreeHead != NONE) {
            e = entryFreeHead;
            entryFreeHead = entryPrev[e];
        } else {
            if (entryHighWater == entryEvent.length) {
                int n = entryEvent.length * 2;
                entryEvent = Arrays.copyOf(entryEvent, n);
                entryStage = Arrays.copyOf(entryStage, n);
                entryPrev = Arrays.copyOf(entryPrev, n);
                entryRefs = Arrays.copyOf(entryRefs, n);
            }
            e = entryHighWater++;
        }
        entryEvent[e] = event;
        entryStage[e] = stage;
        entryPrev[e] = prev;
        entryRefs[e] = 0;
        eventRefs[event]++;
        if (prev != NONE) {
            entryRefs[prev]++;
        }
        liveEntries++;
        return e;
    }

    void lock(int entry) {
        entryRefs[entry]++;
    }

    /** Drops one reference; frees the entry, then its predecessors, while their counts reach zero. */
    void release(int entry) {
        while (entry != NONE) {
            if (--entryRefs[entry] > 0) {
                return;
            }
            int prev = entryPrev[entry];
            int event = entryEvent[entry];
            entryRefs[entry] = FREED;
            entryPrev[entry] = entryFreeHead;
            entryFreeHead = entry;
            liveEntries--;
            if (--eventRefs[event] == 0) {
                freeEvent(event);
            }
            entry = prev;
        }
    }

    /** Frees an entry created in this step that nothing ended up referencing (a discarded branch). */
    void freeIfUnreferenced(int entry) {
        if (entryRefs[entry] == 0) {
            entryRefs[entry] = 1;
            release(entry);
        }
    }

    int prev(int entry) {
        return entryPrev[entry];
    }

    int stage(int entry) {
        return entryStage[entry];
    }

    Object event(int entry) {
        return eventObject[entryEvent[entry]];
    }

    long time(int entry) {
        return eventTime[entryEvent[entry]];
    }

    long seq(int entry) {
        return eventSeq[entryEvent[entry]];
    }

    int eventSlot(int entry) {
        return entryEvent[entry];
    }

    int liveEvents() {
        return liveEvents;
    }

    int liveEntries() {
        return liveEntries;
    }
}
