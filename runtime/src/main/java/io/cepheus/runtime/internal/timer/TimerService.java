package io.cepheus.runtime.internal.timer;

import java.util.Objects;

/**
 * A shard's timers: event-time timers that fire when the watermark reaches them and processing-time timers that
 * fire when processing time reaches them, each scoped to a (key id, namespace) pair, as Flink's
 * {@code InternalTimerService}.
 *
 * <p>Design: two binary min-heaps with a hash index for O(log n) deletion and O(1) de-duplication, as Flink's
 * {@code HeapPriorityQueueSet}, stored in primitive arrays ({@link TimerQueue}) so that registering, deleting and
 * firing allocate nothing once the arrays have grown to the shard's peak; plus a count of
 * pending timers per dense key id, so the shard can free a key's state once nothing is pending for it. A heap rather
 * than a hashed timer wheel (Agrona's {@code DeadlineTimerWheel}) because event time is not a clock that ticks:
 * the watermark jumps by arbitrary amounts, timers lie anywhere from {@code Long.MIN_VALUE} to
 * {@code Long.MAX_VALUE} (window cleanup at end of time), and firing must be exactly in timestamp order.
 *
 * <p>Semantics (Flink's, made deterministic where Flink leaves a choice):
 * <ul>
 *   <li>A timer is the triple (key, namespace, timestamp); registering an existing one again is a no-op that
 *       returns false. The two domains are separate: the same triple may be pending in both.</li>
 *   <li>An advance fires every pending timer with {@code timestamp <= time}, smallest first by timestamp, then
 *       key id, then namespace. Flink orders by timestamp only and breaks ties arbitrarily; a total order on the
 *       triple makes the firing sequence independent of registration order, which snapshot/restore relies on.</li>
 *   <li>Each timer is removed before its handler runs (as Flink polls before triggering). A handler may register
 *       and delete timers: one registered with {@code timestamp <=} the current time fires in the same advance,
 *       as in Flink's {@code advanceWatermark} loop, and since the smallest pending timer always goes next it may
 *       fire before timers with larger timestamps that were already due. Re-registering the timer being fired
 *       makes it fire again, so a handler that always does that never returns control; don't.</li>
 *   <li>Time never goes backwards. A watermark (or processing time) below the current one does not lower it,
 *       mirroring Flink, whose watermark valve only forwards increasing watermarks; it is tolerated rather than
 *       rejected because an equal or stale value is routine (a re-sent watermark, a system clock stepping back).
 *       Every advance call still fires the timers that are due at the current time, so a timer registered at or
 *       below the current watermark outside of firing fires on the next advance call, whatever its argument
 *       (Flink: on the next watermark).</li>
 *   <li>If a handler throws, the exception propagates out of the advance; the timer it was handling is gone, the
 *       time has already advanced, and the remaining due timers fire on the next advance call.</li>
 * </ul>
 *
 * <p>Sharing: an advance fires the due timers of every namespace. When several operators share a shard's service,
 * the shard must advance it once per watermark / clock tick with one handler that dispatches on the namespace; an
 * operator that advances it itself, with a handler that skips other namespaces, consumes and so loses the other
 * operators' timers.
 *
 * <p>Not thread-safe: owned by the shard thread, which is the only one that may call it (operators call it from
 * their event and timer callbacks, which run on that thread).
 */
public final class TimerService {

    private static final int DEFAULT_INITIAL_CAPACITY = 64;

    private final TimerQueue eventTimeTimers;
    private final TimerQueue processingTimeTimers;
    /** Pending timers (both domains) per key id; a key with none has no entry. */
    /** Pending timers per dense key id (ids are dense, so an array beats a hash map). */
    private int[] timersPerKey = new int[64];
    private int keysWithTimers;

    private long currentWatermark = Long.MIN_VALUE;
    private long currentProcessingTime = Long.MIN_VALUE;

    /** Set while a handler runs: advancing time re-entrantly would break the firing order. */
    private boolean firing;
    /** Set while a forEach visitor runs: modifying the queues would break the heap walk. */
    private boolean visiting;

    /** Creates an empty timer service sized for a few timers; it grows as needed. */
    public TimerService() {
        this(DEFAULT_INITIAL_CAPACITY);
    }

    /**
     * Creates an empty timer service sized to hold {@code expectedTimers} timers of each domain without growing.
     *
     * @throws IllegalArgumentException if {@code expectedTimers} is negative or above 2^29
     */
    public TimerService(int expectedTimers) {
        this.eventTimeTimers = new TimerQueue(expectedTimers);
        this.processingTimeTimers = new TimerQueue(expectedTimers);
    }

    // ---------------------------------------------------------------- event time

    /**
     * Registers an event-time timer that fires once the watermark reaches {@code timestamp}.
     *
     * @return true if it was new, false if this exact timer was already pending (nothing changes)
     * @throws IllegalArgumentException if {@code key} is negative
     * @throws IllegalStateException if called from a {@code forEach} visitor
     */
    public boolean registerEventTimeTimer(int key, long namespace, long timestamp) {
        return register(eventTimeTimers, key, namespace, timestamp);
    }

    /**
     * Deletes a pending event-time timer.
     *
     * @return true if it was pending, false if there was no such timer (already fired, deleted, or never set)
     * @throws IllegalStateException if called from a {@code forEach} visitor
     */
    public boolean deleteEventTimeTimer(int key, long namespace, long timestamp) {
        return delete(eventTimeTimers, key, namespace, timestamp);
    }

    /** Whether this exact event-time timer is pending. */
    public boolean hasEventTimeTimer(int key, long namespace, long timestamp) {
        return eventTimeTimers.contains(key, namespace, timestamp);
    }

    /**
     * Advances the watermark to {@code watermark} (ignored if not above the current one) and fires every
     * event-time timer with a timestamp at or below the current watermark, in (timestamp, key, namespace) order,
     * including those the handler registers at or below it while firing. Fires the timers of all namespaces (see
     * the class comment on sharing).
     *
     * @return the number of timers fired
     * @throws IllegalStateException if called from a handler or a {@code forEach} visitor
     */
    public int advanceWatermark(long watermark, TimerHandler handler) {
        Objects.requireNonNull(handler, "handler");
        checkNotFiringOrVisiting("advanceWatermark");
        if (watermark > currentWatermark) {
            currentWatermark = watermark;
        }
        return fireUpTo(eventTimeTimers, currentWatermark, handler);
    }

    /** The highest watermark seen so far; {@code Long.MIN_VALUE} before the first. */
    public long currentWatermark() {
        return currentWatermark;
    }

    /** Timestamp of the earliest pending event-time timer, or {@code Long.MAX_VALUE} if there is none. */
    public long nextEventTime() {
        return eventTimeTimers.isEmpty() ? Long.MAX_VALUE : eventTimeTimers.headTimestamp();
    }

    /** Number of pending event-time timers. */
    public int eventTimeTimers() {
        return eventTimeTimers.size();
    }

    // ---------------------------------------------------------------- processing time

    /**
     * Registers a processing-time timer that fires once processing time reaches {@code timestamp}.
     *
     * @return true if it was new, false if this exact timer was already pending (nothing changes)
     * @throws IllegalArgumentException if {@code key} is negative
     * @throws IllegalStateException if called from a {@code forEach} visitor
     */
    public boolean registerProcessingTimeTimer(int key, long namespace, long timestamp) {
        return register(processingTimeTimers, key, namespace, timestamp);
    }

    /**
     * Deletes a pending processing-time timer.
     *
     * @return true if it was pending, false if there was no such timer
     * @throws IllegalStateException if called from a {@code forEach} visitor
     */
    public boolean deleteProcessingTimeTimer(int key, long namespace, long timestamp) {
        return delete(processingTimeTimers, key, namespace, timestamp);
    }

    /** Whether this exact processing-time timer is pending. */
    public boolean hasProcessingTimeTimer(int key, long namespace, long timestamp) {
        return processingTimeTimers.contains(key, namespace, timestamp);
    }

    /**
     * Advances processing time to {@code now} (ignored if not above the current one) and fires every
     * processing-time timer with a timestamp at or below the current processing time, in (timestamp, key,
     * namespace) order, including those the handler registers at or below it while firing. The shard calls this
     * from its duty cycle with its clock's time, so timers fire even when no event arrives.
     *
     * @return the number of timers fired
     * @throws IllegalStateException if called from a handler or a {@code forEach} visitor
     */
    public int advanceProcessingTime(long now, TimerHandler handler) {
        Objects.requireNonNull(handler, "handler");
        checkNotFiringOrVisiting("advanceProcessingTime");
        if (now > currentProcessingTime) {
            currentProcessingTime = now;
        }
        return fireUpTo(processingTimeTimers, currentProcessingTime, handler);
    }

    /** The highest processing time passed to {@link #advanceProcessingTime}; {@code Long.MIN_VALUE} before. */
    public long currentProcessingTime() {
        return currentProcessingTime;
    }

    /**
     * Timestamp of the earliest pending processing-time timer, or {@code Long.MAX_VALUE} if there is none: the
     * shard's idle strategy may sleep until then. (A timer at {@code Long.MAX_VALUE} looks the same as none;
     * {@link #processingTimeTimers()} tells them apart.)
     */
    public long nextProcessingTime() {
        return processingTimeTimers.isEmpty() ? Long.MAX_VALUE : processingTimeTimers.headTimestamp();
    }

    /** Number of pending processing-time timers. */
    public int processingTimeTimers() {
        return processingTimeTimers.size();
    }

    // ---------------------------------------------------------------- per key

    /** Number of pending timers of both domains for {@code key}; 0 once they have all fired or been deleted. */
    public int timersOf(int key) {
        return key >= 0 && key < timersPerKey.length ? timersPerKey[key] : 0;
    }

    /** Whether any timer of either domain is pending for {@code key}. */
    public boolean hasTimers(int key) {
        return key >= 0 && key < timersPerKey.length && timersPerKey[key] != 0;
    }

    /** Number of distinct keys with at least one pending timer. */
    public int keysWithTimers() {
        return keysWithTimers;
    }

    // ---------------------------------------------------------------- snapshot support

    /**
     * Passes every pending event-time timer to {@code visitor}, in no particular order (for snapshots: because
     * firing order depends only on the set of timers, re-registering them in any order restores it exactly).
     * The visitor must not register, delete or fire timers.
     */
    public void forEachEventTimeTimer(TimerHandler visitor) {
        visit(eventTimeTimers, visitor);
    }

    /** As {@link #forEachEventTimeTimer}, for the pending processing-time timers. */
    public void forEachProcessingTimeTimer(TimerHandler visitor) {
        visit(processingTimeTimers, visitor);
    }

    // ---------------------------------------------------------------- internals

    private boolean register(TimerQueue queue, int key, long namespace, long timestamp) {
        if (key < 0) {
            throw new IllegalArgumentException("timer key id must be >= 0 (a dense id from the shard's key"
                    + " dictionary), was " + key);
        }
        checkNotVisiting("register a timer");
        if (!queue.add(key, namespace, timestamp)) {
            return false;
        }
        if (key >= timersPerKey.length) {
            timersPerKey = java.util.Arrays.copyOf(timersPerKey, Math.max(timersPerKey.length * 2, key + 1));
        }
        if (timersPerKey[key]++ == 0) {
            keysWithTimers++;
        }
        return true;
    }

    private boolean delete(TimerQueue queue, int key, long namespace, long timestamp) {
        checkNotVisiting("delete a timer");
        if (!queue.remove(key, namespace, timestamp)) {
            return false;
        }
        decrementTimersOf(key);
        return true;
    }

    private int fireUpTo(TimerQueue queue, long time, TimerHandler handler) {
        int fired = 0;
        firing = true;
        try {
            while (!queue.isEmpty() && queue.headTimestamp() <= time) {
                int key = queue.headKey();
                long namespace = queue.headNamespace();
                long timestamp = queue.headTimestamp();
                queue.removeHead();
                decrementTimersOf(key);
                fired++;
                handler.onTimer(key, namespace, timestamp);
            }
        } finally {
            firing = false;
        }
        return fired;
    }

    private void decrementTimersOf(int key) {
        if (--timersPerKey[key] == 0) {
            keysWithTimers--;
        }
    }

    private void visit(TimerQueue queue, TimerHandler visitor) {
        Objects.requireNonNull(visitor, "visitor");
        checkNotFiringOrVisiting("visit timers");
        visiting = true;
        try {
            queue.forEach(visitor);
        } finally {
            visiting = false;
        }
    }

    private void checkNotVisiting(String what) {
        if (visiting) {
            throw new IllegalStateException("cannot " + what + " while visiting timers (forEach...Timer)");
        }
    }

    private void checkNotFiringOrVisiting(String what) {
        checkNotVisiting(what);
        if (firing) {
            throw new IllegalStateException("cannot " + what + " from a timer handler: time is already advancing");
        }
    }
}
