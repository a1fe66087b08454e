package io.cepheus.runtime.internal.window;

import com.carrotsearch.hppc.IntArrayList;
import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.UserCodeException;
import io.cepheus.runtime.internal.shard.KeyDictionary;
import io.cepheus.runtime.internal.shard.KeyedOperator;
import io.cepheus.runtime.internal.shard.RestoreScope;
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
 * its slice (not the size / slide windows it belongs to). All keys' slices live in one {@link SliceTable}, a column
 * per slice indexed by key id, which also aggregates the firing windows as a FIFO queue of slices (two stacks: one
 * combination per firing, amortized). Each key waits for one firing time, the max timestamp of its earliest open
 * window that has contents; firing emits that window and schedules the key at its next such window. Windows
 * without contents never fire, as in Flink (a window exists once an element was added to it). With one slice per
 * window (tumbling) the slice's accumulator is the window's.
 *
 * <p>Firing times: all window ends lie on one grid, so the keys wait in a {@link FiringCalendar} (a bucket of keys
 * per time) rather than as one shard timer each, and fire at the end of each watermark ({@link #endWatermark}), in
 * time order, then in the order of the keys' slots in the {@link SliceTable} (dense, handed out as keys come;
 * kept across snapshots, so a restored engine fires in the same order). With sliding windows every key fires once
 * per slide: per-key timers cost a heap removal and insertion among all keys' timers per firing, the calendar an
 * append. No
 * shard timer is registered, so the shard keeps a key while {@link #holds} says so, and this operator releases it
 * when its slices are gone.
 *
 * <p>Memory (sliding windows): a key holds size / slide slices, so the keys' state soon outgrows the cache. Time by
 * time, all keys due then fire in one pass over the table's columns in slot order ({@link SliceTable#advance}),
 * which reads memory in the order it lies, instead of each key reaching its own scattered slices in turn. When a
 * watermark passes several firing times (the end of a bounded input), they fire one time after the other, each
 * for all its keys.
 *
 * <p>Discarding mode wraps the trigger in {@link PurgingTrigger}; with zero lateness every window fires once, so
 * purging after that firing changes nothing and the purging default trigger runs here too.
 *
 * <p>Late elements follow Flink's rule: an element goes into its slice if at least one of its windows is not past
 * cleanup ({@code maxTimestamp + lateness > watermark}); if none and {@code ts + lateness <= watermark} it is late
 * (side output, counted).
 *
 * <p>Allowed lateness (accumulating mode only): slices are kept until every window holding them is past cleanup,
 * and dropped then, after the firings of each time; a key with no firing pending waits in the same calendar for the
 * cleanup time of its last slice ({@link SliceTable#cleanupAt}), so the key is released exactly
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
public final class SliceWindowOperator<T, R> extends KeyedOperator<T> {

    private static final long NONE = Long.MIN_VALUE;

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

    /** Every key's slices and pending times. */
    private final SliceTable table = new SliceTable();
    private final FiringCalendar calendar = FiringCalendar.keyOrdered();
    private final IntArrayList emptied = new IntArrayList();
    /** The keys firing at one time, ascending; then those whose cleanup time it is. */
    private int[] firing = new int[64];
    private final IntArrayList cleaned = new IntArrayList();
    /** The end (relative) of the window after the one firing at the current time, or NONE. */
    private long nextEnd;
    /** The window firing at the current time, the same for every key then. */
    private TimeWindow stepWindow;

    private long firings;
    private long lateElements;
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
        super(operatorId, keys, timers);
        if (!supports(spec)) {
            throw new IllegalArgumentException("the slice window operator cannot run " + spec);
        }
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
        this.time = spec.process() instanceof PassThrough ? null : new WindowTime(clock);
        // a window's process state is cleared when it fires (its one firing): only the per-key state outlives it
        this.emitter = time == null ? null : new WindowEmitter<>((WindowSpec) spec, keys, output, time, null,
                snapshots && stateCodec == null ? WindowSnapshots.NO_STATE_CODEC : null);
        this.accumulatorCodec = accumulatorCodec;
        this.stateCodec = stateCodec;
        this.reduces = spec.reduce() != null;
    }

    @Override
    public boolean holds(int keyId) {
        return table.holds(keyId) || emitter != null && emitter.hasGlobalState(keyId);
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
        int slot = table.hold(keys.idOf(key)); // the key is held from now on, by its slot in the table
        if (lateFrom != NONE) {
            // in windows that fired but are not past cleanup: added now, after the earlier elements, and re-fired
            long lateTo = end == NONE ? grid.lastWindowEnd(k) : end - slide;
            if (add(slot, event, timestamp, k, end)) {
                fireLate(slot, key, event, timestamp, k, lateFrom, lateTo);
            }
        } else {
            add(slot, event, timestamp, k, end);
        }
        freeEmptied();
    }

    private void freeEmptied() {
        for (int i = 0; i < emptied.size(); i++) {
            int slot = emptied.get(i);
            if (table.held(slot) && table.isEmpty(slot)) {
                free(slot);
            }
        }
        emptied.clear();
    }

    /**
     * Adds an element to slice {@code k} and schedules the key at {@code end} (relative), the end of the first
     * window holding the slice that has not fired, if that is earlier than its pending time.
     */
    private boolean add(int slot, T event, long timestamp, long k, long end) {
        SliceTable.Column column = table.column(k);
        Object acc = SliceTable.valueIn(column, slot);
        Object updated;
        try {
            updated = function.add(acc, event);
        } catch (RuntimeException e) {
            deadLetters++;
            if (acc != null) {
                table.put(slot, k, acc); // it may have changed in place before the throw: what derives from it is stale
            } else if (table.isEmpty(slot)) {
                emptied.add(slot); // freed once the element is handled
            }
            output.deadLetter(keys.keyOf(table.keyAtSlot(slot)), event, timestamp, e);
            return false;
        }
        table.put(slot, k, column, updated);
        long timerAt = table.timerAt(slot);
        if (end != NONE) {
            long fire = end + offset - 1;
            if (fire < timerAt) {
                if (timerAt == Long.MAX_VALUE) {
                    timersPending++;
                }
                calendar.schedule(slot, fire); // an entry at the later time may stay: not due then, skipped
                table.timerAt(slot, fire);
            }
        } else if (timerAt == Long.MAX_VALUE && table.cleanupAt(slot) == Long.MAX_VALUE) {
            scheduleCleanup(slot); // only in windows that fired: nothing else will come for the key
        }
        return true;
    }

    /** Waits for the cleanup time of the key's last slice (with lateness, when no firing is pending). */
    private void scheduleCleanup(int slot) {
        long at = grid.cleanupOf(table.lastSlice(slot));
        if (at == Long.MAX_VALUE) {
            return; // never: the key is released at the end of the stream's time
        }
        timersPending++;
        calendar.schedule(slot, at);
        table.cleanupAt(slot, at);
    }

    /**
     * Re-fires at once the windows holding slice {@code k} (which just took an element) that have fired but are not
     * past cleanup, with ends {@code lo .. hi} (relative), latest first: each window is the combination of the
     * slices below {@code k} in it (a suffix, built downwards from {@code k - 1}) and those from {@code k} on (a
     * prefix, built upwards from {@code k}).
     */
    private void fireLate(int slot, Object key, T event, long timestamp, long k, long lo, long hi) {
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
                Object v = table.value(slot, j);
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
                Object v = table.value(slot, j);
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
        if (!advanceWatermark(newWatermark)) {
            return false;
        }
        if (time != null) {
            time.advance(newWatermark);
        }
        return true;
    }

    /**
     * Fires every window due at or before the watermark, time by time: at each time, the queue's step for all the
     * keys firing then ({@link SliceTable#advance}), then each key's result in slot order; then the slices past
     * cleanup go, and the keys left without contents with them.
     */
    @Override
    public void endWatermark() {
        while (!calendar.isEmpty() && calendar.earliest() <= watermark) {
            long time = calendar.earliest();
            IntArrayList due = calendar.pollEarliest();
            int n = 0;
            int i = 0;
            try {
                n = collectDue(due, time);
                if (n > 0) {
                    long end = time + 1 - offset;
                    long from = grid.firstSlice(end);
                    if (slicesPerWindow > 1) {
                        table.advance(from, from + slicesPerWindow, firing, n, combiner);
                    }
                    long nextFrom = from + slide / g; // the next window's first slice: g divides slide
                    nextEnd = grid.firstWindowEnd(nextFrom, end + 1);
                    while (i < n) {
                        fireDue(firing[i++], time, end, from, nextFrom);
                    }
                }
            } finally {
                // a user function threw: the keys not reached yet fire on the next watermark
                for (int j = i; j < n; j++) {
                    calendar.schedule(firing[j], time);
                }
                calendar.recycle(due);
            }
            dropPast(time);
            if (lateness > 0) {
                for (int j = 0; j < n; j++) {
                    scheduleCleanupIfIdle(firing[j]);
                }
                for (int j = 0; j < cleaned.size(); j++) {
                    scheduleCleanupIfIdle(cleaned.get(j));
                }
            }
            cleaned.clear();
        }
        dropPast(watermark);
    }

    /**
     * Sorts out the keys of a drained bucket: those whose firing is at {@code time} go to {@link #firing} (ascending,
     * each once), those whose cleanup time it is to {@link #cleaned}; entries no longer due are skipped.
     *
     * @return how many keys fire
     */
    private int collectDue(IntArrayList due, long time) {
        int[] ids = due.buffer;
        int n = 0;
        int previous = -1;
        for (int i = 0, size = due.size(); i < size; i++) {
            int slot = ids[i];
            if (slot == previous || !table.held(slot)) {
                continue;
            }
            previous = slot;
            long timerAt = table.timerAt(slot);
            if (table.cleanupAt(slot) == time) {
                table.cleanupAt(slot, Long.MAX_VALUE);
                timersPending--;
                if (timerAt != time) {
                    cleaned.add(slot);
                }
            }
            if (timerAt == time) {
                if (n == firing.length) {
                    firing = Arrays.copyOf(firing, n * 2);
                }
                firing[n++] = slot;
            }
        }
        return n;
    }

    /**
     * The window ending at {@code end} (relative) of the key in {@code slot} fires; the key then waits for its next window with
     * contents, which starts at slice {@code nextFrom} or later.
     */
    private void fireDue(int slot, long time, long end, long from, long nextFrom) {
        table.timerAt(slot, Long.MAX_VALUE);
        timersPending--;
        fire(slot, end, from);
        long last = table.lastSlice(slot);
        long past = last - nextFrom; // negative also where it overflows (slices at both ends of the long range)
        if (last >= nextFrom && past >= 0 && past < slicesPerWindow && nextEnd != NONE) {
            // the key's last slice holds a value and lies in the next window: no need to look for its first
            long at = nextEnd + offset - 1;
            calendar.schedule(slot, at);
            timersPending++;
            table.timerAt(slot, at);
            return;
        }
        for (long k = table.nextValueSlice(slot, nextFrom); k != NONE; k = table.nextValueSlice(slot, k + 1)) {
            long next = grid.firstWindowEnd(k, end + 1);
            if (next != NONE) {
                long at = next + offset - 1;
                calendar.schedule(slot, at); // at or before the watermark too: drained later in this loop
                timersPending++;
                table.timerAt(slot, at);
                return;
            }
        }
    }

    /** Drops the slices whose windows are all past cleanup at {@code time}, and frees the keys left empty. */
    private void dropPast(long time) {
        while (!table.noSlices() && grid.cleanupOf(table.firstSlice()) <= time) {
            table.dropFirst(emptied);
        }
        freeEmptied();
    }

    /** With lateness: a held key with no firing pending waits for the cleanup of its last slice. */
    private void scheduleCleanupIfIdle(int slot) {
        if (table.held(slot) && table.timerAt(slot) == Long.MAX_VALUE && table.cleanupAt(slot) == Long.MAX_VALUE) {
            scheduleCleanup(slot);
        }
    }

    @Override
    public void onTimer(int keyId, long ns, long timestamp) {
        throw new IllegalStateException("slice window operator " + operatorId + " registers no timers");
    }

    /** Emits the window ending at {@code end} (relative), which starts at slice {@code from}, of the key in {@code slot}. */
    private void fire(int slot, long end, long from) {
        long start = end - size + offset;
        int keyId = table.keyAtSlot(slot);
        R result;
        try {
            // user code: combining the slices (merge, reduce) and the result (getResult)
            Object acc = slicesPerWindow == 1 ? table.value(slot, from) // the slice's only window: its accumulator is the window's
                    : table.window(slot, combiner);
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
        TimeWindow window = stepWindow;
        if (window == null || window.start() != start) {
            window = stepWindow = new TimeWindow(start, end + offset); // immutable: the keys of one time share it
        }
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

    private void free(int slot) {
        if (table.timerAt(slot) != Long.MAX_VALUE) {
            timersPending--; // not reached: a key without contents has no window to fire
        }
        if (table.cleanupAt(slot) != Long.MAX_VALUE) {
            timersPending--;
        }
        int keyId = table.keyAtSlot(slot);
        table.release(slot);
        keyRelease.idle(keyId);
    }

    // ------------------------------------------------------------------ metrics, snapshots

    @Override
    public void endOfBatch() {
        long keysHeld = table.keysHeld();
        published.lazySet(WindowOperator.M_WINDOWS, keysHeld);
        published.lazySet(WindowOperator.M_BUFFERED, 0);
        published.lazySet(WindowOperator.M_ACCUMULATORS, table.values());
        published.lazySet(WindowOperator.M_KEYS, keysHeld);
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

    /**
     * Writes the watermark, counters, the queue's bounds and every key's slices ({@link SliceTable#writeKey}). The
     * calendar is not written: each key's entries follow from its pending firing and cleanup times, and a drained
     * bucket comes in slot order, so stale entries change nothing.
     */
    @Override
    public void writeState(DataOutput out, EventCodec<T> events, EventCodec<Object> keyCodec) throws IOException {
        EventCodec<Object> values = valueCodec(events);
        out.writeLong(watermark);
        out.writeLong(firings);
        out.writeLong(lateElements);
        out.writeLong(deadLetters);
        table.writeQueue(out);
        out.writeInt(table.keysHeld());
        for (int s = 0, n = table.slotBound(); s < n; s++) {
            if (table.held(s)) {
                writeKey(out, keyCodec, table.keyAtSlot(s));
                table.writeKey(s, out, values);
            }
        }
        if (emitter != null) {
            emitter.writeTo(out, keyCodec, stateCodec);
        }
    }

    /** Restores what {@link #writeState} wrote into this fresh operator, and the keys' entries in the calendar. */
    @Override
    public void readState(DataInput in, EventCodec<T> events, EventCodec<Object> keyCodec) throws IOException {
        readState(in, events, keyCodec, RestoreScope.EXACT);
    }

    /**
     * Restores what {@link #writeState} wrote; into another number of shards, the table's queue starts afresh and
     * each kept key keeps its slice values ({@link SliceTable#readKeyValues}).
     */
    @Override
    public void readState(DataInput in, EventCodec<T> events, EventCodec<Object> keyCodec, RestoreScope scope)
            throws IOException {
        EventCodec<Object> values = valueCodec(events);
        watermark = in.readLong();
        if (time != null) {
            time.advance(watermark);
        }
        firings = scope.counted(firings, in.readLong());
        lateElements = scope.counted(lateElements, in.readLong());
        deadLetters = scope.counted(deadLetters, in.readLong());
        if (scope.exact()) {
            table.readQueue(in);
        } else {
            SliceTable.skipQueue(in);
        }
        int live = readCount(in, "a slice window operator with %d keys");
        for (int i = 0; i < live; i++) {
            int slot;
            if (scope.exact()) {
                slot = table.readKey(readKey(in, keyCodec, "the slice window operator's state"), in, values);
            } else {
                slot = table.readKeyValues(readKeptKey(in, keyCodec, scope, "the slice window operator's state"), in,
                        values);
                if (slot < 0) {
                    continue;
                }
            }
            long timerAt = table.timerAt(slot);
            long cleanupAt = table.cleanupAt(slot);
            if (timerAt != Long.MAX_VALUE && timerAt <= watermark
                    || cleanupAt != Long.MAX_VALUE && cleanupAt <= watermark) {
                // what was due at or before the watermark the snapshot was written at had fired
                throw new IOException("a key of the slice window operator is due at " + Math.min(timerAt, cleanupAt)
                        + ", not after the watermark " + watermark + " it was written at");
            }
            if (timerAt != Long.MAX_VALUE) {
                calendar.schedule(slot, timerAt);
                timersPending++;
            }
            if (cleanupAt != Long.MAX_VALUE) {
                if (cleanupAt != timerAt) {
                    calendar.schedule(slot, cleanupAt);
                }
                timersPending++;
            }
        }
        if (emitter != null) {
            emitter.readFrom(in, keyCodec, stateCodec, scope);
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
