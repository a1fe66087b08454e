package io.cepheus.runtime.internal.window;

import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.internal.cep.KeyDictionary;
import io.cepheus.runtime.internal.shard.ShardOperator;
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
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Event-time session windows (static or dynamic gap) with an incremental reduce or aggregate, the default
 * event-time trigger (or its purging form: discarding mode), no evictor, any allowed lateness and accumulation
 * mode: the same results, in the same order, as {@link WindowOperator}, at a constant cost per element.
 *
 * <p>Design (one session in place, lazy due times). Most keys have one open session and their elements arrive
 * roughly in order, so an element usually extends its key's session: {@link KeySessions} holds that session in its
 * own fields (window bounds, accumulator, whether its firing is pending), and the element path is: find the key's
 * object, widen the bounds, add to the accumulator, note the new due time. {@link WindowOperator} would open a
 * new window slot for the cover, move the contents, delete one timer and register another in the shard's timer
 * heap, per element. A key with several sessions at once keeps them in a {@link SessionList} and follows
 * {@link WindowMerger}'s rules (merge everything the new window overlaps or touches, contents combined in creation
 * order), until it is back to one.
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
 * small array instead of missing on the object); this class says when a key is due. No shard timer is
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
 * removed here at once, where {@link WindowOperator} keeps it until its cleanup time. Snapshots are refused, as by
 * {@link WindowOperator} (accumulators of user types).
 *
 * <p>Owned by the shard thread, like the key dictionary it uses.
 *
 * @param <T> the element type
 * @param <R> the result type
 */
public final class SessionWindowOperator<T, R> implements ShardOperator<T> {

    /** The gap the wheel is scaled for under dynamic gaps (any gap works; entries far ahead wait over laps). */
    private static final long DYNAMIC_GAP_SCALE = 60_000;

    private final int operatorId;
    private final KeyDictionary keys;
    private final WindowOutput<T, R> output;
    private final AtomicLongArray published;
    private final WindowAssigner<T> assigner;
    private final IncrementalFunction<T, R> function;
    private final long lateness;
    private final boolean purging;
    private final boolean retracting;
    private final WindowAssigner.Context assignerContext;
    private final WindowAssigner.WindowSink sink = this::assigned;
    private KeyRelease keyRelease;

    private long watermark = Long.MIN_VALUE;
    private KeySessions[] states = new KeySessions[64];
    private SessionList[] listPool = new SessionList[16];
    private int listsPooled;
    /** When each key is next due, checked lazily. */
    private final KeyDueTimes due;

    // ---- reused per element (single-threaded)
    private long assignedStart;
    private long assignedEnd;
    private int assignedCount;
    private int[] order = new int[8];

    private long windows;
    private long accumulators;
    private long keysWithState;
    private long firings;
    private long results;
    private long retractions;
    private long lateElements;
    private long deadLetters;

    /**
     * @param spec the configuration
     * @return whether this operator can run {@code spec}
     */
    public static boolean supports(WindowSpec<?, ?, ?> spec) {
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
    @SuppressWarnings("unchecked")
    public SessionWindowOperator(int operatorId, KeyDictionary keys, TimerService timers, Clock clock,
            WindowSpec<T, ?, ?> spec, WindowOutput<T, R> output, AtomicLongArray published) {
        if (!supports(spec)) {
            throw new IllegalArgumentException("the session window operator cannot run " + spec);
        }
        this.operatorId = operatorId;
        this.keys = keys;
        this.output = output;
        this.published = published;
        this.assigner = spec.assigner();
        this.function = new IncrementalFunction<>(spec);
        this.lateness = spec.lateness();
        // made here, not on first use: a branch taken once per operator would be compiled as never taken, and
        // every new operator's first element would throw the compiled element path away
        long gap = ((EventTimeSessionWindows<T>) assigner).gap();
        this.due = new KeyDueTimes(wheelFor(gap > 0 ? gap : DYNAMIC_GAP_SCALE));
        this.purging = spec.trigger() instanceof PurgingTrigger;
        this.retracting = spec.mode() == AccumulationMode.ACCUMULATING_AND_RETRACTING;
        this.assignerContext = clock::millis;
        this.keyRelease = KeyRelease.unlessTimersPending(keys, timers);
    }

    @Override
    public int operatorId() {
        return operatorId;
    }

    @Override
    public void keyRelease(KeyRelease release) {
        this.keyRelease = release;
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
                addToSingle(key, st, id, event, start, end);
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

    /** Records the key's next due time, if it has state (see {@link #times}). */
    private void noteDue(int id) {
        KeySessions st = id < states.length ? states[id] : null;
        if (st != null) {
            due.next(id, st.list == null ? dueOf(st) : nextDue(st.list));
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
     * The common case: the key's one session overlaps or touches the element's window {@code [start, end)}. The
     * cover cannot be past cleanup: the session is live and the cover ends no earlier.
     */
    private void addToSingle(Object key, KeySessions st, int id, T event, long start, long end) {
        if (start < st.start || end > st.end) {
            Object previous = st.last;
            long oldStart = st.start;
            long oldEnd = st.end;
            st.last = null;
            st.start = Math.min(start, oldStart);
            st.end = Math.max(end, oldEnd);
            long coverMaxTs = st.end - 1;
            if (coverMaxTs > watermark) { // as the trigger's onMerge: the cover fires at its end
                st.pending = true;
                due.armIfEarlier(id, coverMaxTs, watermark);
            }
            if (previous != null) {
                retract(key, oldStart, oldEnd, previous); // the merged-away window's result
            }
        }
        Object acc = st.acc;
        Object updated = function.add(acc, event);
        if (updated != acc) { // an accumulator changed in place needs no store (nor the collector's card mark)
            st.acc = updated;
            if (acc == null) {
                accumulators++;
            }
        }
        long maxTs = st.end - 1;
        if (maxTs > watermark) {
            if (!st.pending) { // pending: its entry is at or before its old end already
                st.pending = true;
                due.armIfEarlier(id, maxTs, watermark);
            }
            return;
        }
        // late firing: the watermark passed the session's end already (allowed lateness)
        Object previous = st.last;
        if (purging) {
            st.acc = null;
            accumulators--;
        }
        long cleanup = cleanupTime(maxTs);
        due.armIfEarlier(id, cleanup, watermark);
        R value = function.result(updated);
        if (retracting) {
            st.last = value;
        }
        emit(key, st.start, st.end, value, previous);
    }

    /**
     * A key without state, with one session the window does not touch, or with several sessions.
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
                addToSingle(key, st, id, event, start, end);
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
            promote(st);
        }
        return addToList(key, st, id, event, start, end);
    }

    /** Follows {@link WindowMerger#mergeIn} on the key's sorted sessions. */
    private boolean addToList(Object key, KeySessions st, int id, T event, long start, long end) {
        SessionList l = st.list;
        int i = l.firstEndingAtOrAfter(start);
        int j = i;
        while (j < l.size && l.start[j] <= end) {
            j++;
        }
        int w;
        boolean fresh = false;
        if (i == j) {
            if (isLate(end - 1)) {
                return false;
            }
            l.insert(i, start, end);
            windows++;
            w = i;
            fresh = true;
        } else if (j == i + 1 && l.start[i] <= start && l.end[i] >= end) {
            w = i;
        } else {
            w = merge(key, st, id, i, j, Math.min(start, l.start[i]), Math.max(end, l.end[j - 1]));
        }
        Object acc = l.acc[w];
        Object updated;
        try {
            updated = function.add(acc, event);
        } catch (RuntimeException e) {
            if (fresh) { // the session was opened for this element and holds nothing
                l.remove(w, w + 1);
                windows--;
                settleList(id, st);
            }
            throw e;
        }
        l.acc[w] = updated;
        if (acc == null) {
            accumulators++;
        }
        long maxTs = l.end[w] - 1;
        boolean fireNow = maxTs <= watermark;
        Object previous = l.last[w];
        long sessionStart = l.start[w];
        long sessionEnd = l.end[w];
        if (!fireNow) {
            l.pending[w] = true;
        } else if (purging) {
            l.acc[w] = null;
            accumulators--;
        }
        long next = fireNow ? cleanupTime(maxTs) : maxTs;
        due.armIfEarlier(id, next, watermark);
        settleList(id, st); // a merge may have left one session
        if (fireNow) {
            R value = function.result(updated);
            if (retracting) {
                setLast(st, w, value);
            }
            emit(key, sessionStart, sessionEnd, value, previous);
        }
        return true;
    }

    /**
     * Replaces sessions {@code [i, j)} by their cover {@code [coverStart, coverEnd)}: contents combined in creation
     * order, the merged windows' results retracted (retracting mode). @return the cover's index ({@code i})
     */
    private int merge(Object key, KeySessions st, int id, int i, int j, long coverStart, long coverEnd) {
        SessionList l = st.list;
        if (isLate(coverEnd - 1)) {
            throw new UnsupportedOperationException("The end timestamp of an event-time window cannot become earlier"
                    + " than the current watermark by merging. Current watermark: " + watermark
                    + " window: [" + coverStart + "," + coverEnd + ")");
        }
        int k = j - i;
        if (order.length < k) {
            order = new int[Math.max(k, order.length * 2)];
        }
        for (int m = 0; m < k; m++) { // insertion sort by creation number: k is small
            int idx = i + m;
            int p = m;
            while (p > 0 && l.created[order[p - 1]] > l.created[idx]) {
                order[p] = order[p - 1];
                p--;
            }
            order[p] = idx;
        }
        // as WindowMerger, window by window: withdraw its result, then move its contents in (a result may be the
        // accumulator itself, so the retraction must be emitted before the merge changes it)
        Object into = null;
        int contents = 0;
        for (int m = 0; m < k; m++) {
            int idx = order[m];
            if (l.last[idx] != null) {
                retract(key, l.start[idx], l.end[idx], l.last[idx]);
                l.last[idx] = null;
            }
            Object c = l.acc[idx];
            if (c != null) {
                into = into == null ? c : function.merge(into, c);
                contents++;
            }
        }
        l.remove(i + 1, j);
        l.start[i] = coverStart;
        l.end[i] = coverEnd;
        l.created[i] = l.nextCreated++;
        l.acc[i] = into;
        l.last[i] = null;
        l.pending[i] = coverEnd - 1 > watermark; // as the trigger's onMerge
        long coverDue = l.pending[i] ? coverEnd - 1 : cleanupTime(coverEnd - 1);
        due.armIfEarlier(id, coverDue, watermark);
        windows -= k - 1;
        if (contents > 1) {
            accumulators -= contents - 1;
        }
        return i;
    }

    @SuppressWarnings("unchecked")
    private static <X> X cast(Object o) {
        return (X) o;
    }

    // ================================================================== time

    @Override
    public boolean beginWatermark(long newWatermark) {
        if (newWatermark <= watermark) {
            return false;
        }
        watermark = newWatermark;
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
                dueSingle(id, st, due.polledTime());
            } else {
                dueList(id, st, due.polledTime());
            }
            noteDue(id);
        }
    }

    /** @return when the key's one session fires, or goes if it has fired */
    private long dueOf(KeySessions st) {
        long maxTs = st.end - 1;
        return st.pending ? maxTs : cleanupTime(maxTs);
    }

    /** The key's one session at its entry's time: fires and/or goes if due then, else waits for its real time. */
    private void dueSingle(int id, KeySessions st, long time) {
        long maxTs = st.end - 1;
        long cleanup = cleanupTime(maxTs);
        long next = st.pending ? maxTs : cleanup;
        if (next > time) {
            due.arm(id, next, watermark); // the session grew since the entry was pushed
            return;
        }
        boolean fire = st.pending && st.acc != null;
        st.pending = false;
        Object acc = st.acc;
        Object previous = st.last;
        long start = st.start;
        long end = st.end;
        Object key = fire ? keys.keyOf(id) : null;
        boolean gone = cleanup <= time;
        if (gone) {
            windows--;
            if (acc != null) {
                accumulators--;
            }
            free(id, st);
            keyRelease.idle(id);
        } else {
            if (fire && purging) {
                st.acc = null;
                accumulators--;
            }
            due.arm(id, cleanup, watermark);
        }
        if (fire) {
            R value = function.result(acc);
            if (retracting && !gone) {
                st.last = value;
            }
            emit(key, start, end, value, previous);
        }
    }

    /** A key with several sessions at its entry's time: the one firing then fires, those due for removal go. */
    private void dueList(int id, KeySessions st, long time) {
        SessionList l = st.list;
        long next = nextDue(l);
        if (next > time) {
            due.arm(id, next, watermark);
            return;
        }
        int f = -1;
        for (int m = 0; m < l.size; m++) {
            if (l.pending[m] && l.end[m] - 1 == time) {
                f = m;
                break;
            }
        }
        Object acc = null;
        Object previous = null;
        long start = 0;
        long end = 0;
        if (f >= 0) {
            l.pending[f] = false;
            acc = l.acc[f];
            previous = l.last[f];
            start = l.start[f];
            end = l.end[f];
        }
        Object key = acc != null ? keys.keyOf(id) : null;
        int at = f;
        int kept = 0;
        for (int m = 0; m < l.size; m++) {
            if (cleanupTime(l.end[m] - 1) <= time) {
                windows--;
                if (l.acc[m] != null) {
                    accumulators--;
                }
                if (m == f) {
                    at = -1;
                }
            } else {
                if (m == f) {
                    at = kept;
                    if (acc != null && purging) {
                        l.acc[m] = null;
                        accumulators--;
                    }
                }
                if (kept != m) {
                    copy(l, m, kept);
                }
                kept++;
            }
        }
        l.remove(kept, l.size);
        if (l.size > 0) {
            long again = nextDue(l);
            if (again <= time) { // would come out again at once, forever
                throw new IllegalStateException("session window operator " + operatorId + ": key id " + id
                        + " still due at " + again + " after handling time " + time);
            }
            due.arm(id, again, watermark);
        }
        settleList(id, st);
        if (states[id] == null) {
            keyRelease.idle(id);
        }
        if (acc != null) {
            R value = function.result(acc);
            if (retracting && at >= 0) {
                setLast(st, at, value);
            }
            emit(key, start, end, value, previous);
        }
    }

    private static void copy(SessionList l, int from, int to) {
        l.start[to] = l.start[from];
        l.end[to] = l.end[from];
        l.created[to] = l.created[from];
        l.acc[to] = l.acc[from];
        l.last[to] = l.last[from];
        l.pending[to] = l.pending[from];
    }

    /** @return the earliest time one of the sessions fires or goes */
    private long nextDue(SessionList l) {
        long next = Long.MAX_VALUE;
        for (int m = 0; m < l.size; m++) {
            long maxTs = l.end[m] - 1;
            next = Math.min(next, l.pending[m] ? maxTs : cleanupTime(maxTs));
        }
        return next;
    }

    @Override
    public void onTimer(int keyId, long ns, long timestamp) {
        throw new IllegalStateException("session window operator " + operatorId + " registers no timers");
    }

    @Override
    public void onProcessingTimer(int keyId, long ns, long timestamp, long now) {
        throw new IllegalStateException("session window operator " + operatorId + " registers no timers");
    }

    private long cleanupTime(long maxTimestamp) {
        long t = maxTimestamp + lateness;
        return t >= maxTimestamp ? t : Long.MAX_VALUE;
    }

    private boolean isLate(long maxTimestamp) {
        return cleanupTime(maxTimestamp) <= watermark;
    }

    /**
     * A wheel scaled to the session gap: slices of about 1/256 of it (a key's due time moves by about a
     * gap between checks; watermarks usually come more often), and enough buckets for four times the gap plus the
     * allowed lateness, within 64 to 4,096 buckets (removal times further ahead wait in the buckets over laps).
     */
    private KeyDueWheel wheelFor(long gap) {
        long width = Math.max(1, Long.highestOneBit(Math.max(1, gap / 256)));
        long horizon = 4 * (Math.min(gap, Long.MAX_VALUE / 16) + Math.min(lateness, Long.MAX_VALUE / 16));
        long buckets = Math.max(64, Math.min(4096, horizon / width));
        return new KeyDueWheel(width, (int) buckets);
    }

    // ================================================================== emission

    private void emit(Object key, long start, long end, R value, Object previous) {
        TimeWindow window = new TimeWindow(start, end);
        firings++;
        if (retracting && previous != null) {
            retractions++;
            output.retract(key, window, cast(previous), end - 1);
        }
        results++;
        output.result(key, window, value, end - 1);
    }

    private void retract(Object key, long start, long end, Object previous) {
        retractions++;
        output.retract(key, new TimeWindow(start, end), cast(previous), end - 1);
    }

    /** Records the result a session emitted last (retracting mode); {@code at} is its index, or -1 if gone. */
    private static void setLast(KeySessions st, int at, Object value) {
        if (at < 0) {
            return;
        }
        if (st.list == null) {
            st.last = value;
        } else {
            st.list.last[at] = value;
        }
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

    /** A key with one session gets a second: both go to a list (the one there is the older). */
    private void promote(KeySessions st) {
        SessionList l = listsPooled > 0 ? listPool[--listsPooled] : new SessionList();
        listPool[listsPooled] = null;
        l.insert(0, st.start, st.end);
        l.acc[0] = st.acc;
        l.last[0] = st.last;
        l.pending[0] = st.pending;
        st.acc = null;
        st.last = null;
        st.list = l;
    }

    /**
     * A key's list after sessions went: back to the fields with one session left (its index was 0), the key's
     * state freed with none (the caller releases the key).
     */
    private void settleList(int id, KeySessions st) {
        SessionList l = st.list;
        if (l.size > 1) {
            return;
        }
        if (l.size == 1) {
            st.start = l.start[0];
            st.end = l.end[0];
            st.acc = l.acc[0];
            st.last = l.last[0];
            st.pending = l.pending[0];
        }
        st.list = null;
        boolean empty = l.size == 0;
        l.clear();
        if (listsPooled == listPool.length) {
            listPool = Arrays.copyOf(listPool, listsPooled * 2);
        }
        if (listsPooled < 1024) {
            listPool[listsPooled++] = l;
        }
        if (empty) {
            free(id, st);
        }
    }

    /** Drops the key's state (the caller releases the key: not while an element is processed, which does). */
    private void free(int id, KeySessions st) {
        states[id] = null;
        keysWithState--;
        due.disarm(id);
    }

    private void releaseIfEmpty(int id) {
        if (id >= states.length || states[id] == null) {
            keyRelease.idle(id);
        }
    }

    // ================================================================== metrics, snapshots

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

    @Override
    public long deadLetters() {
        return deadLetters;
    }

    @Override
    public void writeState(DataOutput out, EventCodec<T> events, EventCodec<Object> keyCodec) {
        throw new IllegalStateException(WindowSnapshots.REASON);
    }

    @Override
    public void readState(DataInput in, EventCodec<T> events, EventCodec<Object> keyCodec) {
        throw new IllegalStateException(WindowSnapshots.REASON);
    }
}
