package io.cepheus.runtime.internal.window;

import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.internal.shard.KeyDictionary;
import io.cepheus.runtime.internal.shard.KeyedOperator;
import io.cepheus.runtime.internal.shard.RestoreScope;
import io.cepheus.runtime.internal.shard.TimerNamespace;
import io.cepheus.runtime.internal.timer.TimerService;
import io.cepheus.runtime.time.Clock;
import io.cepheus.runtime.window.AccumulationMode;
import io.cepheus.runtime.window.GlobalWindow;
import io.cepheus.runtime.window.GlobalWindows;
import io.cepheus.runtime.window.MergingWindowAssigner;
import io.cepheus.runtime.window.TimeWindow;
import io.cepheus.runtime.window.Window;
import io.cepheus.runtime.window.Trigger;
import io.cepheus.runtime.window.TriggerResult;
import io.cepheus.runtime.window.TriggerState;
import io.cepheus.runtime.window.WindowAssigner;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The general window operator of one shard: Flink's {@code WindowOperator} / {@code EvictingWindowOperator}
 * semantics for any assigner, trigger, evictor and window function.
 *
 * <p>Design: every live (key, window) pair is a {@link WindowSlot} in a {@link SlotTable} on (key id, start, end);
 * the slot's index is the local part of its timers' namespace ({@link SlotTimers}), so a fired timer leads
 * straight to its window. This class applies the window lifecycle; the parts have their own classes: contents
 * ({@link WindowContents}), the trigger's context ({@link WindowTriggerContext}), merging ({@link WindowMerger}),
 * evaluation and emission ({@link WindowEmitter}).
 *
 * <ul>
 *   <li>An element goes into each of its windows that is not past cleanup ({@code maxTimestamp + lateness <=
 *       watermark}); if none took it and {@code ts + lateness <= watermark} it is late (side output, counted).</li>
 *   <li>Merging assigners: a new window leads to the merges the assigner's rule decides
 *       ({@link MergingWindowAssigner#mergeWindows}; for sessions, the live windows of its key that it overlaps or
 *       touches are replaced by their cover), each into a new slot: contents merge, the trigger merges its state
 *       ({@code onMerge}), the old windows are cleared (their timers deleted).</li>
 *   <li>A window is removed at its cleanup time: event time {@code maxTimestamp + lateness} (never for the global
 *       window), processing time {@code maxTimestamp}; a key without windows or global state is released.</li>
 * </ul>
 *
 * <p>Owned by the shard thread, like the key dictionary and timer service it uses.
 *
 * @param <T> the element type
 * @param <V> the values the process function receives
 * @param <R> the result type
 */
public final class WindowOperator<T, V, R> extends KeyedOperator<T> {

    /** Published counters, in the order of {@link io.cepheus.runtime.window.WindowMetrics}' components. */
    public static final int M_WINDOWS = 0;
    /** Elements in window contents. */
    public static final int M_BUFFERED = 1;
    /** Incremental accumulators. */
    public static final int M_ACCUMULATORS = 2;
    /** Keys with windows. */
    public static final int M_KEYS = 3;
    /** Firings that evaluated the function. */
    public static final int M_FIRINGS = 4;
    /** Results. */
    public static final int M_RESULTS = 5;
    /** Retractions. */
    public static final int M_RETRACTIONS = 6;
    /** Late elements. */
    public static final int M_LATE = 7;
    /** Pending timers. */
    public static final int M_TIMERS = 8;
    /** Number of published counters. */
    public static final int METRICS = 9;

    private final WindowSpec<T, V, R> spec;
    private final WindowOutput<T, R> output;
    private final AtomicLongArray published;
    private final WindowAssigner<T> assigner;
    private final Trigger<T> trigger;
    private final boolean global;
    private final boolean eventTime;
    private final long lateness;
    /** Snapshot codecs (null without snapshots or when not needed) and the trigger's states by declaration. */
    private final EventCodec<Object> accumulatorCodec;
    private final EventCodec<Object> stateCodec;
    private final List<TriggerState<?>> triggerStates;

    private final WindowTime time;
    private final SlotTable slots = new SlotTable();
    private final SlotTimers slotTimers;
    private final WindowContents<T> contents;
    private final WindowTriggerContext triggerCtx;
    private final WindowEmitter<T, V, R> emitter;
    /** Null unless the assigner merges. */
    private final WindowMerger<T> merger;

    private int[] windowsOfKey = new int[64];
    private long windows;
    private long keysWithWindows;
    private long lateElements;

    // ---- reused per element (single-threaded)
    private long[] assigned = new long[16];
    private int assignedCount;
    private final WindowAssigner.WindowSink sink = this::collectWindow;
    private final WindowAssigner.Context assignerContext;

    /**
     * @param operatorId   the operator's id on the shard (its timers' namespace)
     * @param keys         the shard's key dictionary
     * @param timers       the shard's timer service
     * @param clock        processing time
     * @param spec         the configuration
     * @param output       where results, retractions and late elements go
     * @param published    counters published for other threads (length {@link #METRICS})
     * @param snapshots    whether the engine takes snapshots: then the trigger may set only the states it lists
     *                     ({@link Trigger#states()}), and the process function may keep state only with a codec
     * @param accumulators writes the aggregate's accumulators in snapshots, or null
     * @param stateCodec   writes the process function's state values in snapshots, or null
     */
    public WindowOperator(int operatorId, KeyDictionary keys, TimerService timers, Clock clock,
            WindowSpec<T, V, R> spec, WindowOutput<T, R> output, AtomicLongArray published, boolean snapshots,
            EventCodec<Object> accumulators, EventCodec<Object> stateCodec) {
        super(operatorId, keys, timers);
        this.accumulatorCodec = accumulators;
        this.stateCodec = stateCodec;
        this.spec = spec;
        this.output = output;
        this.published = published;
        this.assigner = spec.assigner();
        this.trigger = spec.trigger();
        this.global = assigner instanceof GlobalWindows;
        this.eventTime = assigner.isEventTime();
        this.lateness = spec.lateness();
        this.time = new WindowTime(clock);
        this.slotTimers = new SlotTimers(operatorId, timers);
        this.contents = new WindowContents<>(spec);
        this.triggerStates = snapshots ? WindowSnapshots.triggerStates(trigger) : null;
        this.triggerCtx = new WindowTriggerContext(time, slotTimers, triggerStates);
        this.emitter = new WindowEmitter<>(spec, keys, output, time, contents,
                snapshots && stateCodec == null ? WindowSnapshots.NO_STATE_CODEC : null);
        this.merger = assigner instanceof MergingWindowAssigner<T> m ? new WindowMerger<>(m, new MergerWindows(),
                slots, contents, triggerCtx, trigger, emitter, eventTime,
                spec.mode() == AccumulationMode.ACCUMULATING_AND_RETRACTING) : null;
        this.assignerContext = clock::millis;
    }

    @Override
    public boolean holds(int keyId) {
        return (keyId < windowsOfKey.length && windowsOfKey[keyId] > 0) || emitter.hasGlobalState(keyId);
    }

    // ================================================================== elements

    @Override
    public void processElement(Object key, T event, long timestamp) {
        if (spec.accepts() != null && !spec.accepts().test(event)) {
            return;
        }
        int id = keys.idOf(key);
        try {
            assignedCount = 0;
            assigner.assignWindows(event, timestamp, assignerContext, sink);
            boolean skipped = merger != null ? addMerging(id, event, timestamp) : addNonMerging(id, event, timestamp);
            if (skipped && eventTime && timestamp + lateness <= time.watermark() && timestamp + lateness >= timestamp) {
                lateElements++;
                output.late(key, event, timestamp);
            }
        } catch (RuntimeException e) {
            deadLetters++;
            releaseIfIdle(id);
            output.deadLetter(key, event, timestamp, e);
            return;
        }
        releaseIfIdle(id);
    }

    private void collectWindow(long start, long end) {
        if (end <= start) {
            throw new IllegalArgumentException(assigner + " assigned the empty window [" + start + "," + end + ")");
        }
        if (assignedCount + 2 > assigned.length) {
            assigned = Arrays.copyOf(assigned, assigned.length * 2);
        }
        assigned[assignedCount++] = start;
        assigned[assignedCount++] = end;
    }

    /** @return true if no window took the element */
    private boolean addNonMerging(int id, T event, long timestamp) {
        boolean skipped = true;
        for (int i = 0; i < assignedCount; i += 2) {
            long start = assigned[i];
            long end = assigned[i + 1];
            if (isLate(maxTimestampOf(end))) {
                continue;
            }
            skipped = false;
            WindowSlot w = slots.find(id, start, end);
            addAndTrigger(w != null ? w : newSlot(id, start, end), event, timestamp);
        }
        return skipped;
    }

    /** @return true if no window took the element */
    private boolean addMerging(int id, T event, long timestamp) {
        boolean skipped = true;
        for (int i = 0; i < assignedCount; i += 2) {
            WindowSlot w = merger.mergeIn(id, assigned[i], assigned[i + 1]);
            if (w == null) {
                continue; // a new window that is already past cleanup: never created
            }
            skipped = false;
            addAndTrigger(w, event, timestamp);
        }
        return skipped;
    }

    private void addAndTrigger(WindowSlot w, T event, long timestamp) {
        // first, before user code can throw: a window that a failed first element leaves empty is still removed
        registerCleanupTimer(w);
        contents.add(w, event, timestamp);
        triggerCtx.on(w);
        TriggerResult r = trigger.onElement(event, timestamp, w.window, triggerCtx);
        if (r.isFire() && w.contents != null) {
            emitter.emit(w);
        }
        if (r.isPurge()) {
            contents.purge(w);
        }
    }

    // ================================================================== time

    @Override
    public boolean beginWatermark(long newWatermark) {
        return time.advance(newWatermark);
    }

    @Override
    public void endWatermark() {
    }

    @Override
    public void onTimer(int keyId, long namespace, long timestamp) {
        WindowSlot w = slotOfTimer(keyId, namespace);
        slotTimers.eventTimerFired(w, timestamp);
        boolean cleanup = eventTime && timestamp == cleanupTimeOf(w);
        try {
            triggerCtx.on(w);
            afterTimer(w, trigger.onEventTime(timestamp, w.window, triggerCtx));
        } catch (RuntimeException e) {
            output.failed("window function", keys.keyOf(keyId), timestamp, e);
        }
        if (cleanup) {
            removeSlot(w, true); // whatever user code did: the window's time is up
        }
    }

    @Override
    public void onProcessingTimer(int keyId, long namespace, long timestamp, long now) {
        WindowSlot w = slotOfTimer(keyId, namespace);
        slotTimers.processingTimerFired(w, timestamp);
        boolean cleanup = !eventTime && timestamp == cleanupTimeOf(w);
        try {
            triggerCtx.on(w);
            afterTimer(w, trigger.onProcessingTime(timestamp, w.window, triggerCtx));
        } catch (RuntimeException e) {
            output.failed("window function", keys.keyOf(keyId), timestamp, e);
        }
        if (cleanup) {
            removeSlot(w, true);
        }
    }

    private WindowSlot slotOfTimer(int keyId, long namespace) {
        int s = (int) TimerNamespace.localOf(namespace);
        WindowSlot w = slots.at(s);
        if (w == null || w.keyId != keyId) {
            throw new IllegalStateException("window operator " + operatorId + " got a timer for key id " + keyId
                    + " and slot " + s + ", which holds no such window");
        }
        return w;
    }

    /** Fires and/or purges as the trigger said; user code runs here (evictors, functions, handlers). */
    private void afterTimer(WindowSlot w, TriggerResult r) {
        if (r.isFire() && w.contents != null) {
            emitter.emit(w);
        }
        if (r.isPurge()) {
            contents.purge(w);
        }
    }

    private long maxTimestampOf(long end) {
        return global ? Long.MAX_VALUE : end - 1;
    }

    private boolean isLate(long maxTimestamp) {
        return eventTime && cleanupTime(maxTimestamp) <= time.watermark();
    }

    private long cleanupTime(long maxTimestamp) {
        if (!eventTime) {
            return maxTimestamp;
        }
        long t = maxTimestamp + lateness;
        return t >= maxTimestamp ? t : Long.MAX_VALUE;
    }

    private long cleanupTimeOf(WindowSlot w) {
        return cleanupTime(w.window.maxTimestamp());
    }

    private void registerCleanupTimer(WindowSlot w) {
        long t = cleanupTimeOf(w);
        if (t == Long.MAX_VALUE) {
            return;
        }
        if (eventTime) {
            slotTimers.registerEventTimer(w, t);
        } else {
            slotTimers.registerProcessingTimer(w, t);
        }
    }

    // ================================================================== window lifecycle

    private WindowSlot newSlot(int keyId, long start, long end) {
        WindowSlot w = slots.add(keyId, start, end, global ? GlobalWindow.get() : new TimeWindow(start, end));
        windows++;
        if (keyId >= windowsOfKey.length) {
            windowsOfKey = Arrays.copyOf(windowsOfKey, Math.max(keyId + 1, windowsOfKey.length * 2));
        }
        if (windowsOfKey[keyId]++ == 0) {
            keysWithWindows++;
        }
        if (merger != null) {
            merger.added(w);
        }
        return w;
    }

    /**
     * Removes a window: contents, trigger state (after {@link Trigger#clear} when {@code clearTrigger}), per-window
     * state, every timer still registered for it; then frees the slot and, if it was the key's last window, the key.
     */
    private void removeSlot(WindowSlot w, boolean clearTrigger) {
        if (clearTrigger) {
            try {
                triggerCtx.on(w);
                trigger.clear(w.window, triggerCtx);
                emitter.clearWindow(w);
            } catch (RuntimeException e) {
                // the window goes all the same: its state must not outlive it
                output.failed("window function", keys.keyOf(w.keyId), w.window.maxTimestamp(), e);
            }
        }
        w.windowState = null;
        w.lastResults = null;
        contents.purge(w);
        slotTimers.deleteAll(w);
        slots.remove(w);
        windows--;
        int keyId = w.keyId;
        if (merger != null) {
            merger.removed(w);
        }
        if (--windowsOfKey[keyId] == 0) {
            keysWithWindows--;
            if (clearTrigger) {
                releaseIfIdle(keyId);
            }
        }
    }

    private void releaseIfIdle(int keyId) {
        if (!holds(keyId)) {
            keyRelease.idle(keyId);
        }
    }

    /** The operator's side of merging: windows open and close here, where the counts are kept. */
    private final class MergerWindows implements WindowMerger.Windows {
        @Override
        public WindowSlot open(int keyId, long start, long end) {
            return newSlot(keyId, start, end);
        }

        @Override
        public void removeMerged(WindowSlot w) {
            removeSlot(w, false);
        }

        @Override
        public boolean isLate(long end) {
            return WindowOperator.this.isLate(maxTimestampOf(end));
        }

        @Override
        public long watermark() {
            return time.watermark();
        }

        @Override
        public void scheduleCleanup(WindowSlot w) {
            registerCleanupTimer(w);
        }
    }

    // ================================================================== metrics, snapshots

    @Override
    public void endOfBatch() {
        published.lazySet(M_WINDOWS, windows);
        published.lazySet(M_BUFFERED, contents.buffered());
        published.lazySet(M_ACCUMULATORS, contents.accumulators());
        published.lazySet(M_KEYS, keysWithWindows);
        published.lazySet(M_FIRINGS, emitter.firings());
        published.lazySet(M_RESULTS, emitter.results());
        published.lazySet(M_RETRACTIONS, emitter.retractions());
        published.lazySet(M_LATE, lateElements);
        published.lazySet(M_TIMERS, slotTimers.pending());
    }

    @Override
    public long lateEvents() {
        return lateElements;
    }

    @Override
    public long bufferedEvents() {
        return contents.buffered();
    }

    /**
     * Writes every live window (for snapshots): its slot index (which names its timers), key, bounds, contents,
     * timers, trigger state, per-window state and last results; then the indexes new windows take, the process
     * function's per-key state and, for merging assigners, the order each key's windows were opened in.
     */
    @Override
    public void writeState(DataOutput out, EventCodec<T> events, EventCodec<Object> keyCodec)
            throws IOException {
        @SuppressWarnings("unchecked")
        EventCodec<Object> elements = (EventCodec<Object>) events;
        out.writeLong(time.watermark());
        out.writeLong(lateElements);
        out.writeLong(deadLetters);
        slots.writeIndexes(out);
        out.writeLong(windows);
        for (int index = 0; index < slots.indexBound(); index++) {
            WindowSlot w = slots.at(index);
            if (w != null) {
                writeSlot(w, out, elements, keyCodec);
            }
        }
        emitter.writeTo(out, keyCodec, stateCodec);
        if (merger != null) {
            merger.writeOrder(out);
        }
    }

    private void writeSlot(WindowSlot w, DataOutput out, EventCodec<Object> elements, EventCodec<Object> keyCodec)
            throws IOException {
        out.writeInt(w.index);
        keyCodec.write(keys.keyOf(w.keyId), out);
        out.writeLong(w.start);
        out.writeLong(w.end);
        contents.writeTo(w, out, elements, accumulatorCodec);
        out.writeInt(w.eventTimerCount);
        for (int i = 0; i < w.eventTimerCount; i++) {
            out.writeLong(w.eventTimers[i]);
        }
        out.writeInt(w.processingTimerCount);
        for (int i = 0; i < w.processingTimerCount; i++) {
            out.writeLong(w.processingTimers[i]);
        }
        out.writeInt(w.stateCount());
        for (int i = 0; i < w.stateCount(); i++) {
            @SuppressWarnings("unchecked")
            TriggerState<Object> state =
                    (TriggerState<Object>) w.stateKey(i);
            out.writeUTF(state.name());
            state.codec().write(w.stateValue(i), out); // only declared states with codecs can be set
        }
        out.writeBoolean(w.windowState != null);
        if (w.windowState != null) {
            w.windowState.writeTo(out, stateCodec);
        }
        out.writeInt(w.lastResults == null ? -1 : w.lastResults.size());
        if (w.lastResults != null) {
            for (Object result : w.lastResults) {
                elements.write(result, out); // retraction is snapshotted only where results are elements
            }
        }
    }

    /** Restores what {@link #writeState} wrote into this fresh operator, re-registering the windows' timers. */
    @Override
    public void readState(DataInput in, EventCodec<T> events, EventCodec<Object> keyCodec) throws IOException {
        readState(in, events, keyCodec, RestoreScope.EXACT);
    }

    /**
     * Restores what {@link #writeState} wrote. Restoring into another number of shards, a kept key's windows take
     * new slots in the order they were written (so its windows' timers keep their order) and the merging order is
     * translated to them; another shard's windows are read and let go.
     */
    @Override
    public void readState(DataInput in, EventCodec<T> events, EventCodec<Object> keyCodec, RestoreScope scope)
            throws IOException {
        @SuppressWarnings("unchecked")
        EventCodec<Object> elements = (EventCodec<Object>) events;
        time.advance(in.readLong());
        lateElements = scope.counted(lateElements, in.readLong());
        deadLetters = scope.counted(deadLetters, in.readLong());
        int writtenBound = scope.exact() ? readIndexes(in) : SlotTable.skipIndexes(in);
        long live = in.readLong();
        if (live < 0 || live > writtenBound) {
            throw new IOException("a window operator with " + live + " windows in " + writtenBound + " slots");
        }
        int[] newIndex = scope.exact() ? null : new int[writtenBound];
        if (newIndex != null) {
            Arrays.fill(newIndex, -1);
        }
        for (long i = 0; i < live; i++) {
            readSlot(in, elements, keyCodec, scope, newIndex);
        }
        if (scope.exact()) {
            slots.checkFreeIndexes();
        }
        emitter.readFrom(in, keyCodec, stateCodec, scope);
        if (merger != null) {
            merger.readOrder(in, newIndex);
        }
    }

    private int readIndexes(DataInput in) throws IOException {
        slots.readIndexes(in);
        return slots.indexBound();
    }

    /**
     * Reads one window; one of a key another shard keeps is read into a slot of no table and let go.
     *
     * @param newIndex null when restoring exactly; else receives, at the written index, the index the window took
     */
    private void readSlot(DataInput in, EventCodec<Object> elements, EventCodec<Object> keyCodec, RestoreScope scope,
            int[] newIndex) throws IOException {
        int index = in.readInt();
        Object key = keyCodec.read(in);
        long start = in.readLong();
        long end = in.readLong();
        Window window = global ? GlobalWindow.get() : new TimeWindow(start, end);
        checkAssignable(key, start, end);
        if (newIndex != null && (index < 0 || index >= newIndex.length || newIndex[index] != -1)) {
            throw new IOException("window slot index " + index + " is out of range or taken twice");
        }
        if (!scope.keeps(key)) {
            WindowSlot elsewhere = new WindowSlot(index, -1, start, end, window);
            readSlotState(elsewhere, in, elements);
            contents.purge(elsewhere);
            newIndex[index] = -2; // read, not kept
            return;
        }
        int keyId = keys.idOf(key);
        WindowSlot w = newIndex == null ? slots.restore(index, keyId, start, end, window)
                : slots.add(keyId, start, end, window);
        if (newIndex != null) {
            newIndex[index] = w.index;
        }
        windows++;
        if (keyId >= windowsOfKey.length) {
            windowsOfKey = Arrays.copyOf(windowsOfKey, Math.max(keyId + 1, windowsOfKey.length * 2));
        }
        if (windowsOfKey[keyId]++ == 0) {
            keysWithWindows++;
        }
        readSlotState(w, in, elements);
    }

    /**
     * A restored window of a non-merging event-time assigner must be one the assigner gives an element at the window's
     * start (tumbling and sliding windows have their size and alignment): a window of another span, which only
     * damage can make, would have a trigger such as a continuous one fire every interval across that span. A
     * merging assigner's windows have any span; an assigner that needs the element to assign is not asked.
     */
    private void checkAssignable(Object key, long start, long end) throws IOException {
        if (global || merger != null || !assigner.isEventTime()) {
            return; // a processing-time assigner places by the clock, not by the start
        }
        boolean[] found = {false};
        try {
            assigner.assignWindows(null, start, assignerContext, (s, e) -> found[0] |= s == start && e == end);
        } catch (RuntimeException needsTheElement) {
            return;
        }
        if (!found[0]) {
            throw new IOException("key " + key + " has a window [" + start + ", " + end + ") that its assigner "
                    + assigner + " does not make");
        }
    }

    /** Reads a window's contents, timers (registered only for a window of the table), states and last results. */
    private void readSlotState(WindowSlot w, DataInput in, EventCodec<Object> elements) throws IOException {
        boolean kept = w.keyId >= 0;
        contents.readFrom(w, in, elements, accumulatorCodec);
        int eventTimers = count(in, "event-time timers");
        for (int i = 0; i < eventTimers; i++) {
            long at = in.readLong();
            if (kept) {
                slotTimers.registerEventTimer(w, at);
            }
        }
        int processingTimers = count(in, "processing-time timers");
        for (int i = 0; i < processingTimers; i++) {
            long at = in.readLong();
            if (kept) {
                slotTimers.registerProcessingTimer(w, at);
            }
        }
        int states = count(in, "trigger states");
        for (int i = 0; i < states; i++) {
            String name = in.readUTF();
            TriggerState<?> state = WindowSnapshots.stateNamed(triggerStates, name);
            if (state == null) {
                throw new IOException("the snapshot has trigger state '" + name + "', which trigger " + trigger
                        + " does not list in states()");
            }
            w.setState(state, state.codec().read(in));
        }
        if (in.readBoolean()) {
            w.windowState = emitter.newStore();
            w.windowState.readFrom(in, stateCodec);
        }
        int results = in.readInt();
        if (results >= 0) {
            List<Object> last = new ArrayList<>(results);
            for (int i = 0; i < results; i++) {
                last.add(elements.read(in));
            }
            w.lastResults = last;
        }
    }

    private static int count(DataInput in, String what) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("a window with " + n + " " + what);
        }
        return n;
    }
}
