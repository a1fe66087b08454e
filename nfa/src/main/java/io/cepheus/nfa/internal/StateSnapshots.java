package io.cepheus.nfa.internal;

import io.cepheus.nfa.EventCodec;
import io.cepheus.nfa.NfaState;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes one key's matching state and reads it back into another engine of the same pattern: its partial
 * and held matches and the shared-buffer entries and events they reach. Entries and events shared between
 * runs are written once and shared again on reading (local ids in the snapshot), so restored memory equals
 * the original. Reference counts are rebuilt from the references themselves.
 *
 * <p>Format (after the engine's header): time, expiry; events (count, then per event: time, seq, codec
 * bytes); entries (count, then per entry: event id, stage, previous entry id or -1, in creation order so that
 * a predecessor always comes first); partial matches; held matches. Both lists are written in their queue
 * order ({@link StartQueue}) and read back in it, so a restored key goes on exactly as the original would.
 */
final class StateSnapshots {

    private StateSnapshots() {
    }

    static <T> void write(NfaEngine<T> engine, KeyState st, SharedBuffer buffer, EventCodec<T> codec,
            DataOutput out) throws IOException {
        // collect the reachable entries, predecessors first
        Map<Integer, Integer> entryIds = new HashMap<>();
        List<Integer> entries = new ArrayList<>();
        Map<Integer, Integer> eventIds = new HashMap<>();
        List<Integer> events = new ArrayList<>();
        for (int i = 0; i < st.count; i++) {
            collect(KeyState.entryOf(st.stateEntry(i)), buffer, entryIds, entries, eventIds, events);
        }
        for (int i = 0; i < st.heldCount; i++) {
            collect(st.heldEntry[i], buffer, entryIds, entries, eventIds, events);
        }
        out.writeLong(st.currentTime);
        out.writeInt(events.size());
        for (int slotOwner : events) {
            out.writeLong(buffer.time(slotOwner));
            out.writeLong(buffer.seq(slotOwner));
            @SuppressWarnings("unchecked")
            T event = (T) buffer.event(slotOwner);
            codec.write(event, out);
        }
        out.writeInt(entries.size());
        for (int entry : entries) {
            out.writeInt(eventIds.get(buffer.eventSlot(entry)));
            out.writeInt(buffer.stage(entry));
            int prev = buffer.prev(entry);
            out.writeInt(prev == SharedBuffer.NONE ? -1 : entryIds.get(prev));
        }
        out.writeInt(st.count);
        for (int i = 0; i < st.count; i++) {
            long stateEntry = st.stateEntry(i);
            int entry = KeyState.entryOf(stateEntry);
            out.writeInt(KeyState.stateOf(stateEntry));
            out.writeInt(entry == SharedBuffer.NONE ? -1 : entryIds.get(entry));
            out.writeLong(st.startTime(i));
            out.writeLong(st.prevTime(i));
            out.writeLong(st.startSeq(i));
        }
        out.writeInt(st.heldCount);
        for (int i = 0; i < st.heldCount; i++) {
            out.writeInt(entryIds.get(st.heldEntry[i]));
            out.writeLong(st.heldStartSeq[i]);
        }
    }

    /** Post-order: an entry's predecessors are listed before it. Events listed by one entry holding them. */
    private static void collect(int entry, SharedBuffer buffer, Map<Integer, Integer> entryIds,
            List<Integer> entries, Map<Integer, Integer> eventIds, List<Integer> events) {
        List<Integer> chain = new ArrayList<>();
        for (int e = entry; e != SharedBuffer.NONE && !entryIds.containsKey(e); e = buffer.prev(e)) {
            chain.add(e);
        }
        for (int i = chain.size() - 1; i >= 0; i--) {
            int e = chain.get(i);
            entryIds.put(e, entries.size());
            entries.add(e);
            int slot = buffer.eventSlot(e);
            if (!eventIds.containsKey(slot)) {
                eventIds.put(slot, events.size());
                events.add(e); // any entry holding the event gives access to it
            }
        }
    }

    static <T> void read(KeyState st, SharedBuffer buffer, EventCodec<T> codec, DataInput in, int stateCount,
            long[] maxSeq) throws IOException {
        Created created = new Created();
        try {
            readInto(st, buffer, codec, in, stateCount, maxSeq, created);
        } catch (IOException | RuntimeException e) {
            // give back everything this restore attached or created, so a failed restore leaves nothing behind
            for (int i = 0; i < st.count; i++) {
                int entry = KeyState.entryOf(st.stateEntry(i));
                if (entry != SharedBuffer.NONE) {
                    buffer.release(entry);
                }
            }
            st.count = 0;
            while (st.heldCount > 0) {
                buffer.release(st.heldEntry[st.heldCount - 1]);
                st.dropLastHeld();
            }
            for (int i = created.entryCount - 1; i >= 0; i--) {
                buffer.freeIfUnreferenced(created.entries[i]);
            }
            for (int i = 0; i < created.slotCount; i++) {
                buffer.freeEventIfUnused(created.slots[i]);
            }
            throw e;
        }
    }

    /** What a restore created so far, to undo it if the snapshot turns out corrupt. */
    private static final class Created {
        int[] entries = new int[0];
        int entryCount;
        int[] slots = new int[0];
        int slotCount;
    }

    private static <T> void readInto(KeyState st, SharedBuffer buffer, EventCodec<T> codec, DataInput in,
            int stateCount, long[] maxSeq, Created created) throws IOException {
        st.currentTime = in.readLong();
        int eventCount = checkCount(in.readInt(), "events");
        int[] slots = new int[eventCount];
        created.slots = slots;
        for (int i = 0; i < eventCount; i++) {
            long time = in.readLong();
            long seq = in.readLong();
            maxSeq[0] = Math.max(maxSeq[0], seq);
            slots[i] = buffer.addEvent(codec.read(in), time, seq);
            created.slotCount = i + 1;
        }
        int entryCount = checkCount(in.readInt(), "entries");
        int[] entries = new int[entryCount];
        created.entries = entries;
        for (int i = 0; i < entryCount; i++) {
            int event = in.readInt();
            int stage = in.readInt();
            int prev = in.readInt();
            if (event < 0 || event >= eventCount || prev < -1 || prev >= i) {
                throw new IOException("corrupt snapshot: entry " + i + " refers to event " + event + " / entry " + prev);
            }
            entries[i] = buffer.put(slots[event], stage, prev < 0 ? SharedBuffer.NONE : entries[prev]);
            created.entryCount = i + 1;
        }
        int count = checkCount(in.readInt(), "partial matches");
        st.count = 0;
        st.ensurePartialCapacity(count);
        for (int i = 0; i < count; i++) {
            int state = in.readInt();
            int entry = in.readInt();
            if (state < 0 || state >= stateCount || entry < -1 || entry >= entryCount) {
                throw new IOException("corrupt snapshot: partial match " + i + " in state " + state);
            }
            long startTime = in.readLong();
            long prevTime = in.readLong();
            long startSeq = in.readLong();
            // the whole record is read: only now take the reference (a truncated record takes none)
            int resolved = entry < 0 ? SharedBuffer.NONE : entries[entry];
            if (resolved != SharedBuffer.NONE) {
                buffer.lock(resolved);
            }
            st.set(i, KeyState.pack(state, resolved), startTime, prevTime, startSeq);
            st.count++;
        }
        int held = checkCount(in.readInt(), "held matches");
        for (int i = 0; i < held; i++) {
            int entry = in.readInt();
            if (entry < 0 || entry >= entryCount) {
                throw new IOException("corrupt snapshot: held match " + i + " refers to entry " + entry);
            }
            long startSeq = in.readLong();
            buffer.lock(entries[entry]);
            st.hold(entries[entry], startSeq);
        }
        for (int e : entries) {
            buffer.freeIfUnreferenced(e); // nothing should be unreferenced; a corrupt file must not leak
        }
        for (int slot : slots) {
            buffer.freeEventIfUnused(slot);
        }
    }

    private static int checkCount(int n, String what) throws IOException {
        if (n < 0 || n > 100_000_000) {
            throw new IOException("corrupt snapshot: " + n + " " + what);
        }
        return n;
    }
}
