package io.cepheus.runtime.internal.window;

import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.internal.shard.KeyDictionary;
import io.cepheus.runtime.internal.shard.KeyedOperator;
import io.cepheus.runtime.internal.shard.RestoreScope;
import io.cepheus.runtime.internal.timer.KeyDueHeap;
import io.cepheus.runtime.internal.timer.KeyDueTimes;
import io.cepheus.runtime.internal.timer.KeyDueWheel;
import io.cepheus.runtime.internal.timer.TimerService;
import io.cepheus.runtime.time.Clock;
import io.cepheus.runtime.window.AccumulationMode;
import io.cepheus.runtime.window.EventTimeSessionWindows;
import io.cepheus.runtime.window.EventTimeTrigger;
import io.cepheus.runtime.window.PurgingTrigger;
import io.cepheus.runtime.window.TimeWindow;
import io.cepheus.runtime.window.WindowAssigner;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Event-time session windows (static or dynamic gap) with an incremental reduce or aggregate, the default
 * event-time trigger (or its purging form: discarding mode), no evictor, any allowed lateness and accumulation
 * mode: the same results, in the same order, as {@link WindowOperator}, at a constant cost per element.
 *
 * <p>Design (one session in place, lazy due times). Most keys have one open session and their elements arrive
 * roughly in order, so an element usually extends its key's session: {@link KeySessions} holds that session in its
 * own fields, and {@link SingleSessionPath} widens it in place (find the key's object, widen the bounds, add to
 * the accumulator, note the new due time) where {@link WindowOperator} would move window contents and timers per
 * element. A key with several sessions at once keeps them in a {@link SessionList}, and {@link SessionListPath}
 * follows {@link WindowMerger}'s rules on them until it is back to one. This class is the plumbing around the two
 * paths: key ids and per-key state, the watermark, due keys, counts, emission.
 *
 * <p>Firing and removal times: a session fires when the watermark reaches its max timestamp ({@code end - 1}) and
 * is removed at {@code end - 1 + lateness}; both move later with every element that extends it. Rather than one
 * shard timer per session, deleted and registered again on every element (a heap removal and insertion among all
 * keys' timers), each key has at most one entry that counts, at a time no later than its next due time: an
 * element that makes the due time later leaves the entry alone. Entries wait in a {@link KeyDueWheel} (coarse
 * buckets of event time). When the watermark passes an entry, the key is checked: if its real due time is still
 * ahead (the session grew since), it goes back to the wheel at that time, so a session costs one append per gap or
 * so of its length, not one heap operation per element; if it is due, it goes to a
 * small {@link KeyDueHeap} of the keys due at this watermark, which hands them out by time, then key id: the order
 * in which the shard's timers fire {@link WindowOperator}'s windows, so results come out in the same order. An
 * element that makes the due time earlier (a new, earlier session) adds a new entry; the old one is skipped when
 * it comes out, as the key's entry time no longer names it. {@link KeyDueTimes} keeps that bookkeeping (both
 * times of a key in one dense array, not in the key's object: the check of a key whose session grew reads that
 * small array instead of missing on the object); the paths say when a key is due. No shard timer is
 * registered: the shard keeps a key while {@link #holds} says so, and this operator releases it when its last
 * session is removed.
 *
 * <p>Semantics, as {@link WindowOperator} with {@link EventTimeTrigger}: an element opens {@code [ts, ts + gap)};
 * if that overlaps or touches sessions of its key they merge into their cover (retracting what they emitted, in
 * accumulating-and-retracting mode); a new window past cleanup ({@code end - 1 + lateness <= watermark}) touching
 * nothing is not created and the element is late if {@code ts + lateness <= watermark}. After the element is added,
 * a session whose max timestamp the watermark has passed fires at once (late firing), else its firing waits for
 * the watermark. Discarding mode empties the session after each firing.
 *
 * <p>Allocation: none per element; per session that starts on a key without state, one {@link KeySessions}
 * (deliberately not pooled, see {@code newState}); per firing, the {@link TimeWindow} handed out.
 *
 * <p>Differences only where a user function throws (a dead letter): a new session left empty by the exception is
 * removed here at once, where {@link WindowOperator} keeps it until its cleanup time.
 *
 * <p>Snapshots: with a reduce, or an aggregate given an accumulator codec (not in accumulating-and-retracting
 * mode, where the last results are of the aggregate's result type, which has no codec).
 *
 * <p>Owned by the shard thread, like the key dictionary it uses.
 *
 * @param <T> the element type
 * @param <R> the result type
 */
public final class SessionWindowOperator<T, R> extends KeyedOperator<T> {

    /** The gap the wheel is scaled for under dynamic gaps (any gap works; entries far ahead wait over laps). */
    private static final long DYNAMIC_GAP_SCALE = 60_000;

    private final WindowOutput<T, R> output;
    private final AtomicLongArray published;
    private final WindowAssigner<T> assigner;
    private final long lateness;
    private final boolean retracting;
    private final WindowAssigner.Context assignerContext;
    private final WindowAssigner.WindowSink sink = this::assigned;
    /** Writes an aggregate's accumulators for snapshots; null if none was given. */
    private final EventCodec<Object> accumulatorCodec;
    /** Whether the function is a reduce (accumulators and results are elements) rather than an aggregate. */
    private final boolean reduces;

    private KeySessions[] states = new KeySessions[64];
    /** When each key is next due, checked lazily. */
    private final KeyDueTimes due;
    /** Elements and firings of keys with one session. */
    private final SingleSessionPath<T, R> single;
    /** Elements and firings of keys with several sessions. */
    private final SessionListPath<T, R> list;

    // ---- reused per element (single-threaded)
    private long assignedStart;
    private long assignedEnd;
    private int assignedCount;

    private long windows;
    private long accumulators;
    private long keysWithState;
    private long firings;
    private long results;
    private long retractions;
    private long lateElements;

    /**
     * @param spec the configuration
     * @return whether this operator can run {@code spec}
     */
    public static boolean supports(WindowSpec<?, ?, ?> spec) {
        // the exact (final) class: its windows merge by the default rule, which the paths hard-code; any other
        // merging assigner may merge otherwise and goes to WindowOperator, which asks it
        return spec.assigner() instanceof EventTimeSessionWindows && isDefaultTrigger(spec) && spec.evictor() == null
                && spec.incremental() && spec.process() instanceof PassThrough && spec.accepts() == null;
    }

    private static boolean isDefaultTrigger(WindowSpec<?, ?, ?> spec) {
        return spec.trigger() instanceof EventTimeTrigger
                || (spec.trigger() instanceof PurgingTrigger<?> p && p.nested() instanceof EventTimeTrigger);
    }

    /**
     * @param operatorId the operator's id on the shard
     * @param keys       the shard's key dictionary
     * @param timers     the shard's timer service (only to release keys until the shard sets the release)
     * @param clock      processing time, for the assigner's context
     * @param spec       a configuration {@link #supports} accepts
     * @param output     where results, retractions and late elements go
     * @param published  counters for other threads (layout of {@link WindowOperator})
     */
    public SessionWindowOperator(int operatorId, KeyDictionary keys, TimerService timers, Clock clock,
            WindowSpec<T, ?, ?> spec, WindowOutput<T, R> output, AtomicLongArray published) {
        this(operatorId, keys, timers, clock, spec, output, published, null);
    }

    /**
     * As the constructor without a codec, for an operator that takes part in snapshots.
     *
     * @param accumulatorCodec writes an aggregate's accumulators for snapshots; null for none (a reduce's values
     *                         are elements, written with the engine's event codec)
     */
    @SuppressWarnings("unchecked")
    public SessionWindowOperator(int operatorId, KeyDictionary keys, TimerService timers, Clock clock,
            WindowSpec<T, ?, ?> spec, WindowOutput<T, R> output, AtomicLongArray published,
            EventCodec<Object> accumulatorCodec) {
        super(operatorId, keys, timers);
        if (!supports(spec)) {
            throw new IllegalArgumentException("the session window operator cannot run " + spec);
        }
        this.output = output;
        this.published = published;
        this.assigner = spec.assigner();
        IncrementalFunction<T, R> function = new IncrementalFunction<>(spec);
        this.lateness = spec.lateness();
        // made here, not on first use: a branch taken once per operator would be compiled as never taken, and
        // every new operator's first element would throw the compiled element path away
        long gap = ((EventTimeSessionWindows<T>) assigner).gap();
        this.due = new KeyDueTimes(wheelFor(gap > 0 ? gap : DYNAMIC_GAP_SCALE));
        boolean purging = spec.trigger() instanceof PurgingTrigger;
        this.retracting = spec.mode() == AccumulationMode.ACCUMULATING_AND_RETRACTING;
        this.single = new SingleSessionPath<>(this, keys, function, due, purging, retracting);
        this.list = new SessionListPath<>(this, keys, function, due, purging, retracting);
        this.assignerContext = clock::millis;
        this.accumulatorCodec = accumulatorCodec;
        this.reduces = spec.reduce() != null;
    }

    @Override
    public boolean holds(int keyId) {
        return keyId < states.length && states[keyId] != null;
    }

    // ================================================================== elements

    @Override
    public void processElement(Object key, T event, long timestamp) {
        int id = keys.idOf(key);
        try {
            assignedCount = 0;
            assigner.assignWindows(event, timestamp, assignerContext, sink);
            if (assignedCount != 1) {
                throw new IllegalStateException(assigner + " assigned " + assignedCount + " windows to one element");
            }
            long start = assignedStart;
            long end = assignedEnd;
            KeySessions st = id < states.length ? states[id] : null;
            boolean taken;
            if (st != null && st.list == null && st.start <= end && st.end >= start) {
                single.add(key, st, id, event, start, end);
                taken = true;
            } else {
                taken = addGeneral(key, st, id, event, start, end);
            }
            if (!taken && timestamp + lateness <= watermark && timestamp + lateness >= timestamp) {
                lateElements++;
                output.late(key, event, timestamp);
            }
        } catch (RuntimeException e) {
            deadLetters++;
            noteDue(id);
            releaseIfEmpty(id);
            output.deadLetter(key, event, timestamp, e);
            return;
        }
        noteDue(id);
        releaseIfEmpty(id);
    }

    /** Records the key's next due time, if it has state (see {@link KeyDueTimes#next}). */
    private void noteDue(int id) {
        KeySessions st = id < states.length ? states[id] : null;
        if (st != null) {
            due.next(id, st.list == null ? single.dueTime(st) : list.dueTime(st.list));
        }
    }

    private void assigned(long start, long end) {
        if (end <= start) {
            throw new IllegalArgumentException(assigner + " assigned the empty window [" + start + "," + end + ")");
        }
        assignedStart = start;
        assignedEnd = end;
        assignedCount++;
    }

    /**
     * A key without state (its first session opens here), with one session the window does not touch (it gets a
     * list), or with several sessions.
     *
     * @return whether a session took the element (false: its window is past cleanup and touches nothing)
     */
    private boolean addGeneral(Object key, KeySessions st, int id, T event, long start, long end) {
        if (st == null) {
            if (isLate(end - 1)) {
                return false;
            }
            st = newState(id);
            st.start = start;
            st.end = end;
            windows++;
            try {
                single.add(key, st, id, event, start, end);
            } catch (RuntimeException e) {
                if (st.acc == null) { // the first element failed: the session holds nothing
                    windows--;
                    free(id, st);
                }
                throw e;
            }
            return true;
        }
        if (st.list == null) {
            if (isLate(end - 1)) {
                return false;
            }
            list.promote(st);
        }
        return list.add(key, st, id, event, start, end);
    }

    // ================================================================== time

    @Override
    public boolean beginWatermark(long newWatermark) {
        if (!advanceWatermark(newWatermark)) {
            return false;
        }
        return true;
    }

    /**
     * Handles every key due at or before the watermark, in (time, key id) order. First the wheel's entries the
     * watermark passed: a key whose real due time is still ahead (its session grew) goes back to the wheel at
     * that time, one really due goes to the heap of keys due now. Then that heap, in order; a key handled may be
     * due again within the same watermark (a second session, a removal), and goes back into the heap.
     */
    @Override
    public void endWatermark() {
        due.collectDue(watermark);
        for (int id = due.pollDue(); id >= 0; id = due.pollDue()) {
            KeySessions st = id < states.length ? states[id] : null;
            if (st == null) {
                continue; // freed: its entry was disarmed, so this cannot happen; kept as a guard
            }
            if (st.list == null) {
                single.onDue(id, st, due.polledTime());
            } else {
                list.onDue(id, st, due.polledTime());
            }
            noteDue(id);
        }
    }

    @Override
    public void onTimer(int keyId, long ns, long timestamp) {
        throw new IllegalStateException("session window operator " + operatorId + " registers no timers");
    }

    @Override
    public void onProcessingTimer(int keyId, long ns, long timestamp, long now) {
        throw new IllegalStateException("session window operator " + operatorId + " registers no timers");
    }

    /** @return the current watermark */
    long watermark() {
        return watermark;
    }

    /** @return when a session with this max timestamp is removed (saturated: never, past the long range) */
    long cleanupTime(long maxTimestamp) {
        long t = maxTimestamp + lateness;
        return t >= maxTimestamp ? t : Long.MAX_VALUE;
    }

    /** @return whether a session with this max timestamp is past cleanup at the current watermark */
    boolean isLate(long maxTimestamp) {
        return cleanupTime(maxTimestamp) <= watermark;
    }

    /**
     * A wheel scaled to the session gap: slices of about 1/256 of it (a key's due time moves by about a
     * gap between checks; watermarks usually come more often), and enough buckets for four times the gap plus the
     * allowed lateness, within 64 to 4,096 buckets (removal times further ahead wait in the buckets over laps).
     */
    private KeyDueWheel wheelFor(long gap) {
        long horizon = 4 * (Math.min(gap, Long.MAX_VALUE / 16) + Math.min(lateness, Long.MAX_VALUE / 16));
        return KeyDueWheel.sizedFor(gap, horizon);
    }

    // ================================================================== emission

    /** The function threw computing a session's result: reported, nothing emitted, the session's state kept. */
    void failed(Object key, long maxTimestamp, RuntimeException error) {
        output.failed("window function", key, maxTimestamp, error);
    }

    /** Emits a session's result, after withdrawing the one it emitted before (retracting mode). */
    void emit(Object key, long start, long end, R value, Object previous) {
        TimeWindow window = new TimeWindow(start, end);
        firings++;
        if (retracting && previous != null) {
            retractions++;
            output.retract(key, window, cast(previous), end - 1);
        }
        results++;
        output.result(key, window, value, end - 1);
    }

    /** Withdraws the result {@code previous} of session {@code [start, end)}, merged away. */
    void retract(Object key, long start, long end, Object previous) {
        retractions++;
        output.retract(key, new TimeWindow(start, end), cast(previous), end - 1);
    }

    @SuppressWarnings("unchecked")
    private static <X> X cast(Object o) {
        return (X) o;
    }

    // ================================================================== per-key state

    private KeySessions newState(int id) {
        if (id >= states.length) {
            states = Arrays.copyOf(states, Math.max(id + 1, states.length * 2));
            due.ensureKeys(states.length);
        }
        // a new object, not one from a pool: allocated just before the session's first accumulator, it sits next
        // to it in memory (and the collector keeps them together), so an element finds both in adjacent cache
        // lines; pooled objects, scattered over the old generation, made the session benchmark 30-50% slower
        KeySessions st = new KeySessions();
        states[id] = st;
        keysWithState++;
        return st;
    }

    /** Drops the key's state (the caller releases the key: not while an element is processed, which does). */
    void free(int id, KeySessions st) {
        states[id] = null;
        keysWithState--;
        due.disarm(id);
    }

    /** Tells the shard the operator holds nothing more for the key (its state was freed). */
    void release(int id) {
        keyRelease.idle(id);
    }

    private void releaseIfEmpty(int id) {
        if (id >= states.length || states[id] == null) {
            keyRelease.idle(id);
        }
    }

    // ================================================================== metrics, snapshots

    /** Counts sessions opened ({@code delta > 0}) or merged away and removed ({@code delta < 0}). */
    void countWindows(long delta) {
        windows += delta;
    }

    /** Counts accumulators created ({@code delta > 0}) or merged, purged and removed ({@code delta < 0}). */
    void countAccumulators(long delta) {
        accumulators += delta;
    }

    @Override
    public void endOfBatch() {
        published.lazySet(WindowOperator.M_WINDOWS, windows);
        published.lazySet(WindowOperator.M_BUFFERED, 0);
        published.lazySet(WindowOperator.M_ACCUMULATORS, accumulators);
        published.lazySet(WindowOperator.M_KEYS, keysWithState);
        published.lazySet(WindowOperator.M_FIRINGS, firings);
        published.lazySet(WindowOperator.M_RESULTS, results);
        published.lazySet(WindowOperator.M_RETRACTIONS, retractions);
        published.lazySet(WindowOperator.M_LATE, lateElements);
        published.lazySet(WindowOperator.M_TIMERS, due.armed());
    }

    @Override
    public long lateEvents() {
        return lateElements;
    }

    /**
     * Writes the watermark, counters and every key's sessions (bounds, creation order, whether each still fires,
     * its accumulator, and in retracting mode the result it emitted last). The due times are not written: each
     * follows from the key's sessions, and the keys due at one time are handled in key id order either way.
     */
    @Override
    public void writeState(DataOutput out, EventCodec<T> events, EventCodec<Object> keyCodec) throws IOException {
        EventCodec<Object> values = accumulatorCodec(events);
        out.writeLong(watermark);
        out.writeLong(firings);
        out.writeLong(results);
        out.writeLong(retractions);
        out.writeLong(lateElements);
        out.writeLong(deadLetters);
        out.writeInt(keysHeldBelow(states.length));
        for (int id = 0; id < states.length; id++) {
            KeySessions st = states[id];
            if (st == null) {
                continue;
            }
            writeKey(out, keyCodec, id);
            if (st.list == null) {
                out.writeInt(0);
                writeSession(out, st.start, st.end, 0, st.pending, st.acc, st.last, values, events);
            } else {
                SessionList l = st.list;
                out.writeInt(l.size);
                out.writeLong(l.nextCreated);
                for (int m = 0; m < l.size; m++) {
                    writeSession(out, l.start[m], l.end[m], l.created[m], l.pending[m], l.acc[m], l.last[m], values,
                            events);
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void writeSession(DataOutput out, long start, long end, long created, boolean pending, Object acc,
            Object last, EventCodec<Object> values, EventCodec<T> events) throws IOException {
        out.writeLong(start);
        out.writeLong(end);
        out.writeLong(created);
        out.writeBoolean(pending);
        out.writeBoolean(acc != null);
        if (acc != null) {
            values.write(acc, out);
        }
        out.writeBoolean(last != null);
        if (last != null) {
            if (!reduces) {
                throw new IllegalStateException(WindowSnapshots.RETRACTED_AGGREGATE);
            }
            events.write((T) last, out); // a reduce's result is an element
        }
    }

    /** Restores what {@link #writeState} wrote into this fresh operator, and when each key is next due. */
    @Override
    public void readState(DataInput in, EventCodec<T> events, EventCodec<Object> keyCodec) throws IOException {
        readState(in, events, keyCodec, RestoreScope.EXACT);
    }

    @Override
    public void readState(DataInput in, EventCodec<T> events, EventCodec<Object> keyCodec, RestoreScope scope)
            throws IOException {
        EventCodec<Object> values = accumulatorCodec(events);
        watermark = in.readLong();
        firings = scope.counted(firings, in.readLong());
        results = scope.counted(results, in.readLong());
        retractions = scope.counted(retractions, in.readLong());
        lateElements = scope.counted(lateElements, in.readLong());
        deadLetters = scope.counted(deadLetters, in.readLong());
        int live = readCount(in, "a session window operator with %d keys");
        for (int i = 0; i < live; i++) {
            int id = readKeptKey(in, keyCodec, scope, "the session window operator's state");
            if (id < 0) {
                readSessions(in, new KeySessions(), "another shard's key", values, events, false);
                continue;
            }
            KeySessions st = newState(id);
            readSessions(in, st, keys.keyOf(id), values, events, true);
            long next = st.list == null ? single.dueTime(st) : list.dueTime(st.list);
            due.next(id, next);
            due.arm(id, next, watermark);
        }
    }

    /** A session is a window: its start is before its end (a restore refuses what only damage can make). */
    private static void checkSession(Object key, long start, long end) throws IOException {
        if (start >= end) {
            throw new IOException("key " + key + " has a session [" + start + ", " + end + "), which is no window");
        }
    }

    /** Reads one key's sessions into {@code st}; {@code counted}: the operator counts them as its own. */
    private void readSessions(DataInput in, KeySessions st, Object key, EventCodec<Object> values,
            EventCodec<T> events, boolean counted) throws IOException {
        int sessions = in.readInt();
        if (sessions == 0) {
            st.start = in.readLong();
            st.end = in.readLong();
            checkSession(key, st.start, st.end);
            in.readLong(); // a single session's creation number: unused until it gets a list
            st.pending = in.readBoolean();
            st.acc = in.readBoolean() ? values.read(in) : null;
            st.last = in.readBoolean() ? events.read(in) : null;
            if (counted) {
                countRestored(1, st.acc);
            }
        } else if (sessions > 1) {
            SessionList l = new SessionList();
            long nextCreated = in.readLong();
            for (int m = 0; m < sessions; m++) {
                long start = in.readLong();
                long end = in.readLong();
                checkSession(key, start, end);
                long created = in.readLong();
                l.insert(m, start, end);
                l.created[m] = created;
                l.pending[m] = in.readBoolean();
                l.acc[m] = in.readBoolean() ? values.read(in) : null;
                l.last[m] = in.readBoolean() ? events.read(in) : null;
                if (counted) {
                    countRestored(1, l.acc[m]);
                }
            }
            l.nextCreated = nextCreated; // after the inserts, which count creations of their own
            st.list = l;
        } else {
            throw new IOException("key " + key + " has " + sessions + " sessions in a list (a list holds two or"
                    + " more, a single session is written as 0)");
        }
    }

    private void countRestored(int sessions, Object acc) {
        windows += sessions;
        if (acc != null) {
            accumulators++;
        }
    }

    /** @return how accumulators are written: as elements (reduce), or with the aggregate's accumulator codec */
    @SuppressWarnings("unchecked")
    private EventCodec<Object> accumulatorCodec(EventCodec<T> events) {
        if (reduces) {
            return (EventCodec<Object>) events;
        }
        if (accumulatorCodec == null) {
            throw new IllegalStateException(WindowSnapshots.NO_ACCUMULATOR_CODEC);
        }
        if (retracting) {
            throw new IllegalStateException(WindowSnapshots.RETRACTED_AGGREGATE);
        }
        return accumulatorCodec;
    }
}
