package io.cepheus.runtime.internal.timer;

import java.util.Arrays;

/**
 * When each key of an operator is next due (it has something to fire or to expire), checked lazily: a key has
 * at most one entry that counts, never later than its real next due time, so an element that makes the due time
 * later changes nothing here. Entries wait in a {@link KeyDueWheel} (coarse buckets of event time); when the
 * watermark passes one, the key goes back to the wheel at its real due time if that is still ahead (it moved
 * later since), or to a small {@link KeyDueHeap} of the keys due now, which hands them out in (time, key id)
 * order: the order in which shard timers would fire them. An entry whose key was armed again at another time is
 * skipped when it comes out.
 *
 * <p>A key that has nothing due any more ({@link #disarm}) keeps its pending entry, parked: if the key (or the
 * next key given its id) is armed again at or after that time before it comes out, the parked entry serves, as
 * any early entry does, instead of a new one. Keys that empty and fill again often (a CEP key whose partial match
 * dies on the next event, then starts again) so add one entry per horizon, not one per refill; a parked entry
 * that comes out with nothing due is dropped.
 *
 * <p>Used instead of one {@link TimerService} timer per key where a key's due time moves on most of its elements
 * (a session that grows, a CEP key whose oldest partial match changes): a heap timer would be deleted and
 * re-inserted each time, a path of log n cache lines, where this appends to one bucket now and then.
 *
 * <p>Both times of a key live in one dense array indexed by key id (two longs per key), not in the operator's
 * per-key object: re-checking a key whose due time moved reads this small array instead of missing on the object.
 *
 * <p>Owned by the shard thread, like the operator that holds it.
 */
public final class KeyDueTimes {

    /** No entry counts for the key. */
    public static final long UNARMED = Long.MAX_VALUE;

    /** At {@code 2 * id} the key's entry that counts (or {@link #UNARMED}), at {@code 2 * id + 1} its next due time. */
    private long[] times;
    private final KeyDueWheel wheel;
    private final KeyDueHeap dueNow = new KeyDueHeap();
    private long armed;
    private long polledTime;
    /** The watermark of the latest {@link #collectDue}. */
    private long collectedAt = Long.MIN_VALUE;
    /** Told the time of each entry that goes into the wheel; null for none. */
    private java.util.function.LongConsumer wheelEntries;

    /** @param wheel the buckets future entries wait in */
    public KeyDueTimes(KeyDueWheel wheel) {
        this(wheel, 64);
    }

    /**
     * @param wheel the buckets future entries wait in
     * @param keys  the key ids to make room for at first (more are made room for with {@link #ensureKeys})
     */
    public KeyDueTimes(KeyDueWheel wheel, int keys) {
        this.wheel = wheel;
        this.times = new long[2 * Math.max(1, keys)];
        Arrays.fill(times, UNARMED);
    }

    /**
     * Tells {@code listener} the time of every entry that goes into the wheel from now on, so that an owner of many
     * of these (a rule set's versions) can keep one wheel of when each is next due and visit only those due.
     */
    public void onWheelEntry(java.util.function.LongConsumer listener) {
        this.wheelEntries = listener;
    }

    private void toWheel(long time, int id) {
        wheel.add(time, id);
        if (wheelEntries != null) {
            wheelEntries.accept(time);
        }
    }

    /** Makes room for key ids below {@code ids}. */
    public void ensureKeys(int ids) {
        if (2 * ids > times.length) {
            int old = times.length;
            times = Arrays.copyOf(times, Math.max(2 * ids, 2 * old));
            Arrays.fill(times, old, times.length, UNARMED);
        }
    }

    /** @return the time of the key's pending entry (parked or not), or {@link #UNARMED} */
    public long entry(int id) {
        return times[2 * id];
    }

    /**
     * Records the key's real next due time (after each element and firing), read when its entry comes out;
     * {@link #UNARMED} for nothing due, as {@link #disarm}.
     */
    public void next(int id, long due) {
        times[2 * id + 1] = due;
    }

    /** Arms the key at {@code time} if that is earlier than its entry that counts (or it has none). */
    public void armIfEarlier(int id, long time, long watermark) {
        if (time < times[2 * id]) {
            arm(id, time, watermark);
        }
    }

    /**
     * Makes {@code time} the key's entry that counts: in the wheel, or in the heap of keys due now if the watermark
     * passed it.
     */
    public void arm(int id, long time, long watermark) {
        if (times[2 * id] == UNARMED) {
            armed++;
        }
        times[2 * id] = time;
        if (time <= watermark) {
            dueNow.push(time, id);
            return;
        }
        toWheel(time, id);
    }

    /**
     * The key has nothing due: its pending entry, if any, stays parked (see the class comment) and is dropped
     * when it comes out with nothing due.
     */
    public void disarm(int id) {
        times[2 * id + 1] = UNARMED;
    }

    /** @return how many keys have a pending entry, parked ones included */
    public long armed() {
        return armed;
    }

    /**
     * Takes the wheel's entries the watermark passed: a key whose next due time is still ahead goes back to the
     * wheel at that time, one really due to the heap of keys due now ({@link #pollDue}).
     */
    public void collectDue(long watermark) {
        int n = wheel.takeDue(watermark);
        for (int i = 0; i < n; i++) {
            long time = wheel.takenTime(i);
            int id = wheel.takenKey(i);
            if (times[2 * id] != time) {
                continue; // stale: the key was armed again at another time
            }
            long next = times[2 * id + 1]; // kept exact by the operator after each element and firing
            times[2 * id] = next;
            if (next == UNARMED) {
                armed--; // a parked entry that nothing took up
            } else if (next > watermark) {
                toWheel(next, id);
            } else {
                dueNow.push(next, id);
            }
        }
        wheel.trimTaken();
        collectedAt = Math.max(collectedAt, watermark);
    }

    /**
     * @return the next key due now, in (time, key id) order, its entry disarmed (its time: {@link #polledTime()});
     *         -1 when none is left. A key armed again at or before the watermark meanwhile comes out again.
     */
    public int pollDue() {
        while (!dueNow.isEmpty()) {
            long time = dueNow.peekTime();
            int id = dueNow.peekKey();
            dueNow.pop();
            if (times[2 * id] != time) {
                continue; // stale
            }
            long next = times[2 * id + 1];
            if (next != UNARMED && next > collectedAt) {
                times[2 * id] = next; // parked, then taken up by a later time before it came out
                toWheel(next, id);
                continue;
            }
            times[2 * id] = UNARMED;
            armed--;
            if (next == UNARMED) {
                continue; // parked, nothing took it up
            }
            polledTime = time;
            return id;
        }
        dueNow.trim();
        return -1;
    }

    /** @return the time of the entry {@link #pollDue} returned last */
    public long polledTime() {
        return polledTime;
    }
}
