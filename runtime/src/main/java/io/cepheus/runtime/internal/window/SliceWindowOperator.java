package io.cepheus.runtime.internal.window;

import com.carrotsearch.hppc.IntArrayList;
import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.UserCodeException;
import io.cepheus.runtime.internal.cep.KeyDictionary;
import io.cepheus.runtime.internal.shard.GroupPrefetch;
import io.cepheus.runtime.internal.shard.ShardOperator;
import io.cepheus.runtime.internal.timer.FiringCalendar;
import io.cepheus.runtime.internal.timer.TimerService;
import io.cepheus.runtime.time.Clock;
import io.cepheus.runtime.window.AccumulationMode;
import io.cepheus.runtime.window.EventTimeTrigger;
import io.cepheus.runtime.window.PurgingTrigger;
import io.cepheus.runtime.window.SlidingEventTimeWindows;
import io.cepheus.runtime.window.TimeWindow;
import io.cepheus.runtime.window.TumblingEventTimeWindows;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Tumbling and sliding event-time windows with an incremental reduce or aggregate, the default event-time
 * trigger (or its purging form: discarding mode, only without allowed lateness), no evictor: the same results as
 * {@link WindowOperator}, at a per-element and per-firing cost that does not grow with size / slide.
 *
 * <p>Design (panes, "slices"): time is cut into slices of length {@code g = gcd(size, slide)}, aligned with the
 * windows; every window is exactly {@code size / g} consecutive slices. An element updates the one accumulator of
 * its slice (not the size / slide windows it belongs to). Each key keeps its slices in a {@link KeySlices} ring
 * indexed by slice number, which also aggregates the firing windows as a FIFO queue of slices (two stacks: one
 * combination per firing, amortized), and waits for one firing time, the max timestamp of the earliest open window
 * that has contents; firing emits that window, drops the slices no later window needs, and schedules the key at
 * the next such window. Windows without contents never fire, as in Flink (a window exists once an element was
 * added to it). With one slice per window (tumbling) the slice's accumulator is the window's.
 *
 * <p>Firing times: all window ends lie on one grid, so the keys wait in a {@link FiringCalendar} (a bucket of keys
 * per time) rather than as one shard timer each, and fire at the end of each watermark ({@link #endWatermark}), in
 * time order, then key id order (as shard timers would), except that a key whose later firings the watermark has
 * passed too fires them at once, back to back (see {@link #due}). With sliding windows every key fires once per slide:
 * per-key timers cost a heap removal and insertion among all keys' timers per firing, the calendar an append. No
 * shard timer is registered, so the shard keeps a key while {@link #holds} says so, and this operator releases it
 * when its slices are gone.
 *
 * <p>Memory (sliding windows): a key holds size / slide slices, so the keys' state soon outgrows the cache, and
 * each element and each firing would wait for several cache misses in a row (key state, ring line, aggregate).
 * Both go through {@link GroupPrefetch} instead: elements wait in a small {@link PendingElements} batch and are
 * added a group of keys at a time, and the keys due at one time fire a group at a time, each group's state
 * loaded in stages first. Elements are added in arrival order, before the watermark moves, so results are the
 * same. A tumbling key's one slice was written by its own recent elements and is usually in the cache; measured,
 * the batch only cost tumbling windows time, so they add each element at once, and so do sliding windows while
 * the keys hold fewer than {@link #LOAD_AHEAD_FROM} slices (their state is in the cache).
 *
 * <p>Discarding mode wraps the trigger in {@link PurgingTrigger}; with zero lateness every window fires once, so
 * purging after that firing changes nothing and the purging default trigger runs here too.
 *
 * <p>Late elements follow Flink's rule: an element goes into its slice if at least one of its windows is not past
 * cleanup ({@code maxTimestamp + lateness > watermark}); if none and {@code ts + lateness <= watermark} it is late
 * (side output, counted).
 *
 * <p>Allowed lateness (accumulating mode only): slices are kept until every window holding them is past cleanup,
 * and dropped then: at the key's firings, or, once no firing is pending, at a cleanup time the key waits for in the
 * same calendar ({@link KeySlices#cleanupAt}), the cleanup time of its last slice, so the key is released exactly
 * when the watermark reaches its last window's {@code maxTimestamp + lateness}. An element whose slice lies in
 * windows that have fired but are not past cleanup re-fires each of them at once, latest start first (the order in
 * which the default trigger fires them in {@link WindowOperator}), each with its full accumulated content: the
 * windows all hold the element's slice, so they are combined from one run of suffixes below that slice and one of
 * prefixes from it, O(windows + size / g) combinations. An on-time element costs what it costs without lateness.
 * Discarding mode (a purging trigger) and accumulating-and-retracting mode with lateness stay on
 * {@link WindowOperator}: a late firing there purges, or retracts the previous result of, one window, and slices
 * are shared by all windows holding them, so one window's contents cannot be purged or its last result kept apart.
 *
 * <p>Owned by the shard thread, like the key dictionary and timer service it uses.
 *
 * @param <T> the element type
 * @param <R> the result type
 */
public final class SliceWindowOperator<T, R> implements ShardOperator<T> {

    private static final long NONE = Long.MIN_VALUE;
    /**
     * Slices held (over all keys) from which elements and firings load state ahead: with their aggregates and ring
     * slots, over a megabyte, more than a core's second-level cache (and, on the VMs we measure, than the share of
     * the last-level cache it gets). Sliding 10 min / 10 s over 100 keys holds 6,000 and runs faster without.
     */
    static final long LOAD_AHEAD_FROM = 16_384;
    /** Elements waiting to be added as one batch: enough for many groups, few enough to stay in the cache. */
    private static final int PENDING_CAPACITY = 256;

    private final int operatorId;
    private final KeyDictionary keys;
    private final WindowOutput<T, R> output;
    private final AtomicLongArray published;
    private final IncrementalFunction<T, R> function;
    private final SliceCombiner combiner;
    /** The window arithmetic: slices, window ends, cleanup times. */
    private final SliceGrid grid;
    // the grid's constants, copied: read on every element and firing
    private final long size;
    private final long slide;
    private final long offset;
    private final long g;
    private final long slicesPerWindow;
    private final long lateness;
    private KeyRelease keyRelease;
    /**
     * With a process function after the incremental one (no lateness: each window fires once and goes at once):
     * what evaluates it, with its window and per-key state, as {@link WindowOperator} does; null without one.
     */
    private final WindowEmitter<T, ?, R> emitter;
    /** Writes the process function's per-key state in snapshots; null without one. */
    private final EventCodec<Object> stateCodec;
    private final WindowTime time;
    /** Writes an aggregate's accumulators for snapshots; null if none was given. */
    private final EventCodec<Object> accumulatorCodec;
    /** Whether the function is a reduce (slice values are elements) rather than an aggregate. */
    private final boolean reduces;

    private long watermark = Long.MIN_VALUE;
    private KeySlices[] states = new KeySlices[64];
    private KeySlices[] pool = new KeySlices[64];
    private final FiringCalendar calendar = FiringCalendar.keyOrdered();
    private final PendingElements pending = new PendingElements(PENDING_CAPACITY);
    private final IntArrayList emptied = new IntArrayList();
    /** What the loads ahead read, kept so that they are not removed as dead code. */
    private int prefetched;
    private int pooled;

    private long windowsOpen;
    private long accumulators;
    private long keysWithState;
    private long firings;
    private long lateElements;
    private long deadLetters;
    private long timersPending;

    /**
     * @param spec the configuration; {@link #supports} must hold
     * @return whether this operator can run {@code spec}
     */
    public static boolean supports(WindowSpec<?, ?, ?> spec) {
        boolean plain = spec.process() instanceof PassThrough;
        return (spec.assigner() instanceof TumblingEventTimeWindows || spec.assigner() instanceof SlidingEventTimeWindows)
                && spec.evictor() == null && spec.incremental() && spec.accepts() == null
                && (spec.lateness() == 0 ? isDefaultTrigger(spec)
                        : plain && spec.lateness() > 0 && spec.trigger() instanceof EventTimeTrigger
                                && spec.mode() == AccumulationMode.ACCUMULATING);
    }

    private static boolean isDefaultTrigger(WindowSpec<?, ?, ?> spec) {
        return spec.trigger() instanceof EventTimeTrigger
                || (spec.trigger() instanceof PurgingTrigger<?> p && p.nested() instanceof EventTimeTrigger);
    }

    /**
     * @param operatorId the operator's id on the shard
     * @param keys       the shard's key dictionary
     * @param timers     the shard's timer service (only to release keys until the shard sets the release)
     * @param clock      the engine's clock (the processing time a process function reads)
     * @param spec       a configuration {@link #supports} accepts
     * @param output     where results and late elements go
     * @param published  counters for other threads (layout of {@link WindowOperator})
     */
    public SliceWindowOperator(int operatorId, KeyDictionary keys, TimerService timers, Clock clock,
            WindowSpec<T, ?, ?> spec, WindowOutput<T, R> output, AtomicLongArray published) {
        this(operatorId, keys, timers, clock, spec, output, published, null, false, null);
    }

    /**
     * As the constructor without codecs, for an operator that takes part in snapshots.
     *
     * @param accumulatorCodec writes an aggregate's accumulators for snapshots; null for none (a reduce's values
     *                         are elements, written with the engine's event codec)
     * @param snapshots        whether the engine takes snapshots: then the process function may keep state only
     *                         with a codec
     * @param stateCodec       writes the process function's per-key state values in snapshots, or null
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public SliceWindowOperator(int operatorId, KeyDictionary keys, TimerService timers, Clock clock,
            WindowSpec<T, ?, ?> spec, WindowOutput<T, R> output, AtomicLongArray published,
            EventCodec<Object> accumulatorCodec, boolean snapshots, EventCodec<Object> stateCodec) {
        if (!supports(spec)) {
            throw new IllegalArgumentException("the slice window operator cannot run " + spec);
        }
        this.operatorId = operatorId;
        this.keys = keys;
        this.output = output;
        this.published = published;
        this.function = new IncrementalFunction<>(spec);
        this.grid = SliceGrid.of(spec.assigner(), spec.lateness());
        this.size = grid.size;
        this.slide = grid.slide;
        this.offset = grid.offset;
        this.g = grid.g;
        this.slicesPerWindow = grid.slicesPerWindow;
        this.lateness = grid.lateness;
        this.combiner = function.combiner();
        this.keyRelease = KeyRelease.unlessTimersPending(keys, timers);
        this.time = spec.process() instanceof PassThrough ? null : new WindowTime(clock);
        // a window's process state is cleared when it fires (its one firing): only the per-key state outlives it
        this.emitter = time == null ? null : new WindowEmitter<>((WindowSpec) spec, keys, output, time, null,
                snapshots && stateCodec == null ? WindowSnapshots.NO_STATE_CODEC : null);
        this.accumulatorCodec = accumulatorCodec;
        this.stateCodec = stateCodec;
        this.reduces = spec.reduce() != null;
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
        return keyId < states.length && states[keyId] != null || emitter != null && emitter.hasGlobalState(keyId);
    }

    // ------------------------------------------------------------------ elements

    @Override
    public void processElement(Object key, T event, long timestamp) {
        if (timestamp < grid.minTimestamp || timestamp > grid.maxTimestamp) {
            boolean low = timestamp < grid.minTimestamp;
            deadLetters++;
            output.deadLetter(key, event, timestamp, new UserCodeException("window assigner", "window " + operatorId,
                    key, timestamp, new IllegalArgumentException("element at " + timestamp + " is too close to"
                            + (low ? " Long.MIN_VALUE: its first window (size " : " Long.MAX_VALUE: its last window (size ")
                            + size + " ms, slide " + slide + " ms, offset " + offset + " ms) would "
                            + (low ? "start before it; the earliest time taken is " + grid.minTimestamp
                                    : "end after it; the latest time taken is " + grid.maxTimestamp))));
            return;
        }
        long k = grid.sliceOf(timestamp);
        long open = grid.openEnd(watermark);
        long end = open == Long.MAX_VALUE ? NONE : grid.firstWindowEnd(k, open);
        long lateFrom = NONE;
        if (end == NONE || lateness > 0) {
            long alive = grid.aliveEnd(watermark);
            lateFrom = alive == Long.MAX_VALUE ? NONE : grid.firstWindowEnd(k, alive);
            if (lateFrom == NONE) {
                if (timestamp + lateness <= watermark && timestamp + lateness >= timestamp) {
                    lateElements++;
                    output.late(key, event, timestamp);
                }
                return; // in no live window: late, or in a gap between sliding windows
            }
            if (lateFrom == end) {
                lateFrom = NONE; // no live window has fired
            }
        }
        int id = keys.idOf(key);
        KeySlices st = stateOf(id); // the key is held from now on, though a pending element is added later
        if (lateFrom != NONE) {
            // in windows that fired but are not past cleanup: added now, after the earlier elements, and re-fired
            if (pending.size() > 0) {
                addPending();
            }
            long lateTo = end == NONE ? grid.lastWindowEnd(k) : end - slide;
            if (add(id, st, event, timestamp, k, end)) {
                fireLate(id, st, key, event, timestamp, k, lateFrom, lateTo);
            }
            freeEmptied();
        } else if (loadingAhead()) {
            if (pending.add(id, event, timestamp, k, end)) {
                addPending();
            }
        } else {
            if (pending.size() > 0) {
                addPending(); // the earlier elements first
            }
            add(id, st, event, timestamp, k, end);
            freeEmptied();
        }
    }

    /**
     * Adds the pending elements to their slices, in arrival order, a group of keys at a time: each group's key
     * state, ring line and slice value are loaded in three stages first ({@link GroupPrefetch}). Runs before
     * anything reads the slices: before the watermark moves, at the end of each batch, and when the batch is full.
     */
    private void addPending() {
        int n = pending.size();
        int done = 0;
        try {
            KeySlices[] sts = states;
            int sink = 0;
            for (int from = 0; from < n; from += GroupPrefetch.GROUP) {
                int to = Math.min(n, from + GroupPrefetch.GROUP);
                for (int i = from; i < to; i++) {
                    sink += sts[pending.keyId(i)].touchHeader();
                }
                for (int i = from; i < to; i++) {
                    sink += sts[pending.keyId(i)].touchSlice(pending.slice(i));
                }
                for (int i = from; i < to; i++) {
                    sink += sts[pending.keyId(i)].touchValue(pending.slice(i));
                }
                for (int i = from; i < to; i++) {
                    int id = pending.keyId(i);
                    long timestamp = pending.timestamp(i);
                    @SuppressWarnings("unchecked")
                    T event = (T) pending.take(i);
                    done = i + 1;
                    add(id, sts[id], event, timestamp, pending.slice(i), pending.end(i));
                }
            }
            prefetched += sink;
        } finally {
            pending.dropFirst(done);
            freeEmptied();
        }
    }

    private void freeEmptied() {
        for (int i = 0; i < emptied.size(); i++) {
            int id = emptied.get(i);
            KeySlices st = states[id];
            if (st != null && st.isEmpty()) {
                free(id, st);
            }
        }
        emptied.clear();
    }

    /**
     * @return whether the keys' slices have outgrown what the cache holds, so that loading them ahead pays: only
     *         with sliding windows (a tumbling key's one slice was written by its own recent elements) and from
     *         {@link #LOAD_AHEAD_FROM} slices on (below, the stages only add work)
     */
    private boolean loadingAhead() {
        return slicesPerWindow > 1 && accumulators >= LOAD_AHEAD_FROM;
    }

    /**
     * Adds an element to slice {@code k} and schedules the key at {@code end} (relative), the end of the first
     * window holding the slice that has not fired, if that is earlier than its pending time.
     */
    private boolean add(int id, KeySlices st, T event, long timestamp, long k, long end) {
        if (!st.canHold(k)) {
            // refused before anything changed: a ring spanning that far would not fit in memory
            deadLetters++;
            if (st.isEmpty()) {
                emptied.add(id);
            }
            output.deadLetter(keys.keyOf(id), event, timestamp, new IllegalArgumentException("the element at time "
                    + timestamp + " would make key " + keys.keyOf(id) + " hold slices of " + g + " ms over more than "
                    + KeySlices.maxSlices() + " slice lengths: its earliest window that has not fired (or is not"
                    + " past its allowed lateness) is that far behind; the watermark lags too far for the slice"
                    + " operator"));
            return false;
        }
        Object acc = st.value(k);
        Object updated;
        try {
            updated = function.add(acc, event);
        } catch (RuntimeException e) {
            deadLetters++;
            if (acc != null) {
                st.put(k, acc); // it may have changed in place before the throw: what derives from it is stale
            } else if (st.isEmpty()) {
                emptied.add(id); // freed after the batch: later elements of the batch may be of this key
            }
            output.deadLetter(keys.keyOf(id), event, timestamp, e);
            return false;
        }
        if (st.put(k, updated)) {
            accumulators++;
        }
        if (end != NONE) {
            long fire = end + offset - 1;
            if (fire < st.timerAt) {
                if (st.timerAt == Long.MAX_VALUE) {
                    timersPending++;
                }
                calendar.schedule(id, fire); // an entry at the later time may stay: not due then, skipped
                st.timerAt = fire;
            }
        } else if (st.timerAt == Long.MAX_VALUE && st.cleanupAt == Long.MAX_VALUE) {
            scheduleCleanup(id, st); // only in windows that fired: nothing else will come for the key
        }
        return true;
    }

    /** Waits for the cleanup time of the key's last slice (with lateness, when no firing is pending). */
    private void scheduleCleanup(int id, KeySlices st) {
        long at = grid.cleanupOf(st.base() + st.length() - 1);
        if (at == Long.MAX_VALUE) {
            return; // never: the key is released at the end of the stream's time
        }
        timersPending++;
        calendar.schedule(id, at);
        st.cleanupAt = at;
    }

    /**
     * Re-fires at once the windows holding slice {@code k} (which just took an element) that have fired but are not
     * past cleanup, with ends {@code lo .. hi} (relative), latest first: each window is the combination of the
     * slices below {@code k} in it (a suffix, built downwards from {@code k - 1}) and those from {@code k} on (a
     * prefix, built upwards from {@code k}).
     */
    private void fireLate(int id, KeySlices st, Object key, T event, long timestamp, long k, long lo, long hi) {
        int n = (int) ((hi - lo) / slide) + 1;
        Object[] left = new Object[n];
        Object[] right = new Object[n];
        SliceCombiner c = combiner;
        try {
            // window i ends at hi - i * slide: its slices are [(end - size) / g, end / g), descending in i
            int i = 0;
            while (i < n && Math.floorDiv(hi - (long) i * slide - size, g) >= k) {
                i++; // starts at slice k: nothing below it
            }
            Object acc = null;
            for (long j = k - 1; i < n; j--) {
                Object v = st.value(j);
                if (v != null) {
                    acc = acc == null ? c.copy(v) : c.combine(c.copy(v), acc);
                }
                while (i < n && Math.floorDiv(hi - (long) i * slide - size, g) == j) {
                    left[i++] = acc;
                }
            }
            acc = null;
            i = n - 1;
            for (long j = k; i >= 0; j++) {
                Object v = st.value(j);
                if (v != null) {
                    acc = acc == null ? c.copy(v) : c.combine(acc, v);
                }
                while (i >= 0 && Math.floorDiv(hi - (long) i * slide, g) == j + 1) {
                    right[i--] = acc == null ? null : c.copy(acc);
                }
            }
            for (i = 0; i < n; i++) {
                long end = hi - (long) i * slide;
                Object w = left[i] == null ? right[i]
                        : right[i] == null ? c.copy(left[i]) : c.combine(c.copy(left[i]), right[i]);
                if (w == null) {
                    continue;
                }
                R result = function.result(w);
                TimeWindow window = new TimeWindow(end - size + offset, end + offset);
                firings++;
                output.result(key, window, result, window.maxTimestamp());
            }
        } catch (RuntimeException e) {
            deadLetters++; // as in WindowOperator, where the firing runs while the element is added
            output.deadLetter(key, event, timestamp, e);
        }
    }

    // ------------------------------------------------------------------ time

    @Override
    public boolean beginWatermark(long newWatermark) {
        if (newWatermark <= watermark) {
            return false;
        }
        addPending(); // at the watermark they arrived under: it decides which windows they open
        watermark = newWatermark;
        if (time != null) {
            time.advance(newWatermark);
        }
        return true;
    }

    /**
     * Fires every key due at or before the watermark, in time order of each key's first due time (a key then fires
     * its later due windows at once; a cleanup may schedule a later, due time).
     */
    @Override
    public void endWatermark() {
        while (!calendar.isEmpty() && calendar.earliest() <= watermark) {
            long time = calendar.earliest();
            IntArrayList due = calendar.pollEarliest();
            int i = 0;
            try {
                while (i < due.size()) {
                    if (i % GroupPrefetch.GROUP == 0 && loadingAhead()) {
                        loadAhead(due, i, time);
                    }
                    int keyId = due.get(i++);
                    KeySlices st = keyId < states.length ? states[keyId] : null;
                    if (st != null && (st.timerAt == time || st.cleanupAt == time)) {
                        due(keyId, st, time);
                    }
                }
            } finally {
                // a user function threw: the keys not reached yet fire on the next watermark
                for (int j = i; j < due.size(); j++) {
                    calendar.schedule(due.get(j), time);
                }
                calendar.recycle(due);
            }
        }
    }

    /**
     * Loads, for the group of due keys from {@code at}, what their firing at {@code time} reads first, in three
     * stages over the group ({@link GroupPrefetch}): each key's state, the ring lines of its window's ends, the
     * aggregates it combines.
     */
    private void loadAhead(IntArrayList due, int at, long time) {
        int to = Math.min(due.size(), at + GroupPrefetch.GROUP);
        KeySlices[] sts = states;
        int[] ids = due.buffer;
        long from = Math.floorDiv(time + 1 - offset - size, g);
        long until = from + slicesPerWindow;
        int sink = 0;
        for (int i = at; i < to; i++) {
            KeySlices st = ids[i] < sts.length ? sts[ids[i]] : null;
            sink += st == null ? 0 : st.touchHeader();
        }
        for (int i = at; i < to; i++) {
            KeySlices st = ids[i] < sts.length ? sts[ids[i]] : null;
            sink += st == null ? 0 : st.touchRing(from, until);
        }
        for (int i = at; i < to; i++) {
            KeySlices st = ids[i] < sts.length ? sts[ids[i]] : null;
            sink += st == null ? 0 : st.touchAggregates(from, until);
        }
        prefetched += sink;
    }

    @Override
    public void onTimer(int keyId, long ns, long timestamp) {
        throw new IllegalStateException("slice window operator " + operatorId + " registers no timers");
    }

    /**
     * The key's time has come: fires its window ending there (if that is its pending firing), drops the slices
     * whose windows are all past cleanup at {@code timestamp}, and waits for the next firing or cleanup, or frees
     * the key. Later firings of the key that the watermark has passed too follow at once, in window order, rather
     * than one calendar bucket (all keys) later: when the watermark jumps (the end of a bounded input, a source
     * back from idleness) a sliding key has size / slide windows due, and firing them back to back reaches its
     * slices once, while they are in the cache, instead of once per window after every other key's. So within
     * one watermark, results come key by key; each key's still come in window order, and the record order
     * between two watermarks carries no meaning (in Flink neither).
     */
    private void due(int keyId, KeySlices st, long timestamp) {
        for (long at = timestamp; at != NONE; ) {
            at = dueOnce(keyId, st, at);
        }
    }

    /** @return the key's next firing time if the watermark has passed it too (not in the calendar), else NONE */
    private long dueOnce(int keyId, KeySlices st, long timestamp) {
        long catchUp = NONE;
        if (st.timerAt == timestamp) {
            st.timerAt = Long.MAX_VALUE;
            timersPending--;
            long end = timestamp + 1 - offset;
            fire(keyId, st, end);
            // the next window with contents: later windows start at or after end + slide - size
            long next = NONE;
            // the next window's first slice: g divides slide
            for (long k = Math.max(st.base(), grid.firstSlice(end) + slide / g), last = st.base() + st.length();
                    k < last && next == NONE; k++) {
                if (st.value(k) != null) {
                    next = grid.firstWindowEnd(k, end + 1);
                }
            }
            if (next != NONE) {
                long fire = next + offset - 1;
                if (fire <= watermark) {
                    catchUp = fire;
                } else {
                    calendar.schedule(keyId, fire);
                }
                timersPending++;
                st.timerAt = fire;
            }
        }
        if (st.cleanupAt != Long.MAX_VALUE && st.cleanupAt <= timestamp) {
            st.cleanupAt = Long.MAX_VALUE;
            timersPending--;
        }
        // drop the slices whose windows are all past cleanup (with no lateness: have all fired)
        while (st.length() > 0 && grid.cleanupOf(st.base()) <= timestamp) {
            dropFirst(st);
        }
        if (st.isEmpty()) {
            while (st.length() > 0) {
                dropFirst(st);
            }
            if (st.timerAt != Long.MAX_VALUE) {
                timersPending--; // not reached: a key without contents has no window to fire
            }
            if (st.cleanupAt != Long.MAX_VALUE) {
                timersPending--;
            }
            free(keyId, st);
            return NONE;
        }
        if (lateness > 0 && st.timerAt == Long.MAX_VALUE && st.cleanupAt == Long.MAX_VALUE) {
            scheduleCleanup(keyId, st);
        }
        return catchUp;
    }

    private void dropFirst(KeySlices st) {
        if (st.dropFirst()) {
            accumulators--;
        }
    }

    /** Emits the window ending at {@code end} (relative) from its slices. */
    private void fire(int keyId, KeySlices st, long end) {
        long from = grid.firstSlice(end);
        long start = end - size + offset;
        R result;
        try {
            // user code: combining the slices (merge, reduce) and the result (getResult)
            Object acc = slicesPerWindow == 1 ? st.value(from) // the slice's only window: its accumulator is the window's
                    : st.window(from, from + slicesPerWindow, combiner);
            if (acc == null) {
                return;
            }
            if (emitter != null) {
                emitThroughProcessFunction(keyId, start, end + offset, acc);
                return;
            }
            result = function.result(acc);
        } catch (RuntimeException e) {
            output.failed("window function", keys.keyOf(keyId), end + offset - 1, e);
            return;
        }
        TimeWindow window = new TimeWindow(start, end + offset);
        firings++;
        output.result(keys.keyOf(keyId), window, result, window.maxTimestamp());
    }

    /**
     * The window's one firing with a process function: evaluated as {@link WindowOperator} does, then cleared at
     * once, as its cleanup time ({@code maxTimestamp}, no lateness) is the firing's. User code throws out of here.
     */
    private void emitThroughProcessFunction(int keyId, long start, long end, Object acc) {
        TimeWindow window = new TimeWindow(start, end);
        WindowSlot w = new WindowSlot(-1, keyId, start, end, window);
        w.contents = acc;
        firings++;
        try {
            emitter.emit(w);
        } finally {
            emitter.clearWindow(w); // the window goes all the same: its state must not outlive it
        }
    }

    private KeySlices stateOf(int id) {
        if (id >= states.length) {
            states = Arrays.copyOf(states, Math.max(id + 1, states.length * 2));
        }
        KeySlices st = states[id];
        if (st == null) {
            st = pooled > 0 ? pool[--pooled]
                    : new KeySlices((int) Math.min(slicesPerWindow + 1 + Math.min(lateness, size) / g, Integer.MAX_VALUE));
            states[id] = st;
            keysWithState++;
        }
        return st;
    }

    private void free(int id, KeySlices st) {
        states[id] = null;
        keysWithState--;
        st.reset();
        if (pooled == pool.length) {
            pool = Arrays.copyOf(pool, pooled * 2);
        }
        if (pooled < 4096) {
            pool[pooled++] = st;
        }
        keyRelease.idle(id);
    }

    // ------------------------------------------------------------------ metrics, snapshots

    @Override
    public void endOfBatch() {
        addPending();
        published.lazySet(WindowOperator.M_WINDOWS, keysWithState);
        published.lazySet(WindowOperator.M_BUFFERED, 0);
        published.lazySet(WindowOperator.M_ACCUMULATORS, accumulators);
        published.lazySet(WindowOperator.M_KEYS, keysWithState);
        published.lazySet(WindowOperator.M_FIRINGS, firings);
        published.lazySet(WindowOperator.M_RESULTS, emitter == null ? firings : emitter.results());
        published.lazySet(WindowOperator.M_RETRACTIONS, 0);
        published.lazySet(WindowOperator.M_LATE, lateElements);
        published.lazySet(WindowOperator.M_TIMERS, timersPending);
    }

    @Override
    public long lateEvents() {
        return lateElements;
    }

    @Override
    public long deadLetters() {
        return deadLetters;
    }

    /**
     * Writes the watermark, counters and every key's slices ({@link KeySlices#writeTo}). The calendar is not
     * written: each key's entries follow from its pending firing and cleanup times, and a drained bucket comes in
     * key id order, so stale entries change nothing. Elements waiting to be added are added first, as they would
     * be before anything reads the slices.
     */
    @Override
    public void writeState(DataOutput out, EventCodec<T> events, EventCodec<Object> keyCodec) throws IOException {
        EventCodec<Object> values = valueCodec(events);
        addPending();
        out.writeLong(watermark);
        out.writeLong(firings);
        out.writeLong(lateElements);
        out.writeLong(deadLetters);
        int live = 0;
        for (KeySlices st : states) {
            live += st == null ? 0 : 1;
        }
        out.writeInt(live);
        for (int id = 0; id < states.length; id++) {
            if (states[id] != null) {
                keyCodec.write(keys.keyOf(id), out);
                states[id].writeTo(out, values);
            }
        }
        if (emitter != null) {
            emitter.writeTo(out, keyCodec, stateCodec);
        }
    }

    /** Restores what {@link #writeState} wrote into this fresh operator, and the keys' entries in the calendar. */
    @Override
    public void readState(DataInput in, EventCodec<T> events, EventCodec<Object> keyCodec) throws IOException {
        EventCodec<Object> values = valueCodec(events);
        watermark = in.readLong();
        if (time != null) {
            time.advance(watermark);
        }
        firings = in.readLong();
        lateElements = in.readLong();
        deadLetters = in.readLong();
        int live = in.readInt();
        if (live < 0) {
            throw new IOException("a slice window operator with " + live + " keys");
        }
        for (int i = 0; i < live; i++) {
            Object key = keyCodec.read(in);
            int id = keys.idOf(key);
            if (id < states.length && states[id] != null) {
                throw new IOException("key " + key + " appears twice in the slice window operator's state");
            }
            KeySlices st = stateOf(id);
            accumulators += st.readFrom(in, values);
            if (st.timerAt != Long.MAX_VALUE) {
                calendar.schedule(id, st.timerAt);
                timersPending++;
            }
            if (st.cleanupAt != Long.MAX_VALUE) {
                if (st.cleanupAt != st.timerAt) {
                    calendar.schedule(id, st.cleanupAt);
                }
                timersPending++;
            }
        }
        if (emitter != null) {
            emitter.readFrom(in, keyCodec, stateCodec);
        }
    }

    /** @return how slice values are written: as elements (reduce), or with the aggregate's accumulator codec */
    @SuppressWarnings("unchecked")
    private EventCodec<Object> valueCodec(EventCodec<T> events) {
        if (reduces) {
            return (EventCodec<Object>) events;
        }
        if (accumulatorCodec == null) {
            throw new IllegalStateException(WindowSnapshots.NO_ACCUMULATOR_CODEC);
        }
        return accumulatorCodec;
    }

    @Override
    public void onProcessingTimer(int keyId, long ns, long timestamp, long now) {
        throw new IllegalStateException("slice window operator " + operatorId + " registers no timers");
    }
}
