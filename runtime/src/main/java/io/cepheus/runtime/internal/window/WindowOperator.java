package io.cepheus.runtime.internal.window;

import com.carrotsearch.hppc.IntArrayList;
import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.OutputTag;
import io.cepheus.runtime.internal.cep.KeyDictionary;
import io.cepheus.runtime.internal.shard.ShardOperator;
import io.cepheus.runtime.internal.shard.TimerNamespace;
import io.cepheus.runtime.internal.timer.TimerService;
import io.cepheus.runtime.time.Clock;
import io.cepheus.runtime.window.AccumulationMode;
import io.cepheus.runtime.window.Collector;
import io.cepheus.runtime.window.Evictor;
import io.cepheus.runtime.window.GlobalWindow;
import io.cepheus.runtime.window.GlobalWindows;
import io.cepheus.runtime.window.KeyedStateStore;
import io.cepheus.runtime.window.MergingWindowAssigner;
import io.cepheus.runtime.window.ProcessWindowFunction;
import io.cepheus.runtime.window.TimeWindow;
import io.cepheus.runtime.window.Trigger;
import io.cepheus.runtime.window.TriggerResult;
import io.cepheus.runtime.window.TriggerState;
import io.cepheus.runtime.window.Window;
import io.cepheus.runtime.window.WindowAssigner;
import java.io.DataInput;
import java.io.DataOutput;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The general window operator of one shard: Flink's {@code WindowOperator} / {@code EvictingWindowOperator}
 * semantics for any assigner, trigger, evictor and window function.
 *
 * <p>Design: every live (key, window) pair is a {@link Slot} found through an open-addressing table on
 * (key id, start, end); the slot's index is the local part of its timers' namespace, so a fired timer leads
 * straight to its window. A slot records the timers registered for it, so removing a window deletes exactly its
 * timers (a trigger that forgets one cannot leave a timer that would hit a reused slot). Contents are an
 * {@link ElementList} (process functions, evictors), one reduced value or one accumulator (incremental).
 *
 * <ul>
 *   <li>An element goes into each of its windows that is not past cleanup ({@code maxTimestamp + lateness <=
 *       watermark}); if none took it and {@code ts + lateness <= watermark} it is late (side output, counted).</li>
 *   <li>Merging assigners: a new window that overlaps or touches live windows of its key replaces them with their
 *       cover, in a new slot: contents merge, the trigger merges its state ({@code onMerge}), the old windows are
 *       cleared (their timers deleted).</li>
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
public final class WindowOperator<T, V, R> implements ShardOperator<T> {

    private static final long[] NO_TIMERS = new long[0];

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

    private final int operatorId;
    private final KeyDictionary keys;
    private final TimerService timers;
    private final Clock clock;
    private final WindowSpec<T, V, R> spec;
    private final WindowOutput<T, R> output;
    private final AtomicLongArray published;
    private final WindowAssigner<T> assigner;
    private final Trigger<T> trigger;
    private final Evictor<T> evictor;
    private final boolean merging;
    private final boolean global;
    private final boolean eventTime;
    private final boolean incremental;
    private final boolean retracting;
    private final long lateness;
    private KeyRelease keyRelease;

    private long watermark = Long.MIN_VALUE;

    // ---- slots and their lookup table
    private Slot[] slots = new Slot[64];
    private int[] freeSlots = new int[16];
    private int freeCount;
    private int slotBound;
    private int[] table = new int[128]; // slot index + 1, 0 = empty
    private int tableSize;

    // ---- per key id
    private int[] windowsOfKey = new int[64];
    private IntArrayList[] mergingWindowsOfKey;
    private MapStore[] globalStateOfKey = new MapStore[64];

    // ---- counters
    private long windows;
    private long buffered;
    private long accumulators;
    private long keysWithWindows;
    private long firings;
    private long results;
    private long retractions;
    private long lateElements;
    private long deadLetters;
    private long timersPending;

    // ---- reused per call (single-threaded)
    private long[] assigned = new long[16];
    private int assignedCount;
    private final WindowAssigner.WindowSink sink = this::collectWindow;
    private final WindowAssigner.Context assignerContext;
    private final TriggerCtx triggerCtx = new TriggerCtx();
    private final ProcessCtx processCtx = new ProcessCtx();
    private final EvictionView evictionView = new EvictionView();
    private final Single single = new Single();
    private final ListValues listValues = new ListValues();
    private final ResultCollector collector = new ResultCollector();

    /**
     * @param operatorId the operator's id on the shard (its timers' namespace)
     * @param keys       the shard's key dictionary
     * @param timers     the shard's timer service
     * @param clock      processing time
     * @param spec       the configuration
     * @param output     where results, retractions and late elements go
     * @param published  counters published for other threads (length {@link #METRICS})
     */
    public WindowOperator(int operatorId, KeyDictionary keys, TimerService timers, Clock clock,
            WindowSpec<T, V, R> spec, WindowOutput<T, R> output, AtomicLongArray published) {
        this.operatorId = operatorId;
        this.keys = keys;
        this.timers = timers;
        this.clock = clock;
        this.spec = spec;
        this.output = output;
        this.published = published;
        this.assigner = spec.assigner();
        this.trigger = spec.trigger();
        this.evictor = spec.evictor();
        this.merging = assigner instanceof MergingWindowAssigner;
        this.global = assigner instanceof GlobalWindows;
        this.eventTime = assigner.isEventTime();
        this.incremental = spec.incremental();
        this.retracting = spec.mode() == AccumulationMode.ACCUMULATING_AND_RETRACTING;
        this.lateness = spec.lateness();
        this.mergingWindowsOfKey = merging ? new IntArrayList[64] : null;
        this.assignerContext = clock::millis;
        this.keyRelease = id -> {
            if (!timers.hasTimers(id)) {
                keys.release(id);
            }
        };
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
        return (keyId < windowsOfKey.length && windowsOfKey[keyId] > 0)
                || (keyId < globalStateOfKey.length && globalStateOfKey[keyId] != null
                && !globalStateOfKey[keyId].isEmpty());
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
            boolean skipped = merging ? addMerging(id, event, timestamp) : addNonMerging(id, event, timestamp);
            if (skipped && eventTime && timestamp + lateness <= watermark && timestamp + lateness >= timestamp) {
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
            int s = find(id, start, end);
            Slot w = s >= 0 ? slots[s] : newSlot(id, start, end);
            addAndTrigger(w, event, timestamp);
        }
        return skipped;
    }

    /** @return true if no window took the element */
    private boolean addMerging(int id, T event, long timestamp) {
        boolean skipped = true;
        for (int i = 0; i < assignedCount; i += 2) {
            long start = assigned[i];
            long end = assigned[i + 1];
            Slot w = mergeIn(id, start, end);
            if (w == null) {
                continue; // a new window that is already past cleanup: never created
            }
            skipped = false;
            addAndTrigger(w, event, timestamp);
        }
        return skipped;
    }

    /**
     * Adds {@code [start, end)} to the key's merging windows. @return the window the element goes to, or null if
     * the new window stands alone and is already past cleanup
     */
    private Slot mergeIn(int id, long start, long end) {
        IntArrayList list = id < mergingWindowsOfKey.length ? mergingWindowsOfKey[id] : null;
        int touching = 0;
        long coverStart = start;
        long coverEnd = end;
        Slot only = null;
        if (list != null) {
            for (int k = 0; k < list.size(); k++) {
                Slot w = slots[list.get(k)];
                if (w.start <= end && w.end >= start) {
                    touching++;
                    only = w;
                    coverStart = Math.min(coverStart, w.start);
                    coverEnd = Math.max(coverEnd, w.end);
                }
            }
        }
        if (touching == 0) {
            return isLate(maxTimestampOf(end)) ? null : newSlot(id, start, end);
        }
        if (touching == 1 && only.start <= start && only.end >= end) {
            return only; // inside a live window: nothing merges
        }
        if (eventTime && isLate(maxTimestampOf(coverEnd))) {
            throw new UnsupportedOperationException("The end timestamp of an event-time window cannot become earlier"
                    + " than the current watermark by merging. Current watermark: " + watermark + " window: ["
                    + coverStart + "," + coverEnd + ")");
        }
        Slot[] merged = new Slot[touching];
        int m = 0;
        for (int k = 0; k < list.size(); k++) {
            Slot w = slots[list.get(k)];
            if (w.start <= end && w.end >= start) {
                merged[m++] = w;
            }
        }
        Slot result = newSlot(id, coverStart, coverEnd);
        triggerCtx.mergeOn(result, merged);
        trigger.onMerge(result.window, triggerCtx);
        triggerCtx.mergedFrom = null;
        for (Slot w : merged) {
            if (retracting) {
                retractPrevious(w);
            }
            triggerCtx.on(w);
            trigger.clear(w.window, triggerCtx);
            if (w.contents != null) {
                if (result.contents == null) {
                    result.contents = w.contents;
                } else if (incremental) {
                    result.contents = spec.reduce() != null
                            ? spec.reduce().reduce(cast(result.contents), cast(w.contents))
                            : spec.aggregate().merge(result.contents, w.contents);
                    accumulators--;
                } else {
                    ((ElementList) result.contents).addAll((ElementList) w.contents);
                }
                w.contents = null; // moved: the counters follow the contents
            }
            removeSlot(w, false);
        }
        return result;
    }

    private void addAndTrigger(Slot w, T event, long timestamp) {
        addToContents(w, event, timestamp);
        triggerCtx.on(w);
        TriggerResult r = trigger.onElement(event, timestamp, w.window, triggerCtx);
        if (r.isFire() && w.contents != null) {
            emit(w);
        }
        if (r.isPurge()) {
            purge(w);
        }
        registerCleanupTimer(w);
    }

    @SuppressWarnings("unchecked")
    private static <X> X cast(Object o) {
        return (X) o;
    }

    private void addToContents(Slot w, T event, long timestamp) {
        if (incremental) {
            if (spec.reduce() != null) {
                if (w.contents == null) {
                    w.contents = event;
                    accumulators++;
                } else {
                    w.contents = spec.reduce().reduce(cast(w.contents), event);
                }
            } else {
                Object acc = w.contents;
                boolean fresh = acc == null;
                if (fresh) {
                    acc = spec.aggregate().createAccumulator();
                }
                w.contents = spec.aggregate().add(event, acc);
                if (fresh) {
                    accumulators++;
                }
            }
        } else {
            ElementList list = (ElementList) w.contents;
            if (list == null) {
                list = new ElementList();
                w.contents = list;
            }
            list.add(event, timestamp);
            buffered++;
        }
    }

    private void purge(Slot w) {
        if (w.contents == null) {
            return;
        }
        if (incremental) {
            accumulators--;
        } else {
            buffered -= ((ElementList) w.contents).size;
        }
        w.contents = null;
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

    @Override
    public void endWatermark() {
    }

    @Override
    public void onTimer(int keyId, long namespace, long timestamp) {
        Slot w = slotOfTimer(keyId, namespace);
        if (w == null) {
            return;
        }
        w.forgetEventTimer(timestamp);
        timersPending--;
        triggerCtx.on(w);
        TriggerResult r = trigger.onEventTime(timestamp, w.window, triggerCtx);
        afterTimer(w, r, eventTime && timestamp == cleanupTimeOf(w));
    }

    @Override
    public void onProcessingTimer(int keyId, long namespace, long timestamp, long now) {
        Slot w = slotOfTimer(keyId, namespace);
        if (w == null) {
            return;
        }
        w.forgetProcessingTimer(timestamp);
        timersPending--;
        triggerCtx.on(w);
        TriggerResult r = trigger.onProcessingTime(timestamp, w.window, triggerCtx);
        afterTimer(w, r, !eventTime && timestamp == cleanupTimeOf(w));
    }

    private Slot slotOfTimer(int keyId, long namespace) {
        int s = (int) TimerNamespace.localOf(namespace);
        Slot w = s < slots.length ? slots[s] : null;
        if (w == null || w.keyId != keyId) {
            throw new IllegalStateException("window operator " + operatorId + " got a timer for key id " + keyId
                    + " and slot " + s + ", which holds no such window");
        }
        return w;
    }

    private void afterTimer(Slot w, TriggerResult r, boolean cleanup) {
        if (r.isFire() && w.contents != null) {
            emit(w);
        }
        if (r.isPurge()) {
            purge(w);
        }
        if (cleanup) {
            removeSlot(w, true);
        }
    }

    private long maxTimestampOf(long end) {
        return global ? Long.MAX_VALUE : end - 1;
    }

    private boolean isLate(long maxTimestamp) {
        return eventTime && cleanupTime(maxTimestamp) <= watermark;
    }

    private long cleanupTime(long maxTimestamp) {
        if (!eventTime) {
            return maxTimestamp;
        }
        long t = maxTimestamp + lateness;
        return t >= maxTimestamp ? t : Long.MAX_VALUE;
    }

    private long cleanupTimeOf(Slot w) {
        return cleanupTime(w.window.maxTimestamp());
    }

    private void registerCleanupTimer(Slot w) {
        long t = cleanupTimeOf(w);
        if (t == Long.MAX_VALUE) {
            return;
        }
        if (eventTime) {
            registerEventTimer(w, t);
        } else {
            registerProcessingTimer(w, t);
        }
    }

    private long namespaceOf(Slot w) {
        return TimerNamespace.of(operatorId, w.index);
    }

    private void registerEventTimer(Slot w, long t) {
        if (timers.registerEventTimeTimer(w.keyId, namespaceOf(w), t)) {
            w.eventTimers = append(w.eventTimers, w.eventTimerCount++, t);
            timersPending++;
        }
    }

    private void deleteEventTimer(Slot w, long t) {
        if (timers.deleteEventTimeTimer(w.keyId, namespaceOf(w), t)) {
            w.forgetEventTimer(t);
            timersPending--;
        }
    }

    private void registerProcessingTimer(Slot w, long t) {
        if (timers.registerProcessingTimeTimer(w.keyId, namespaceOf(w), t)) {
            w.processingTimers = append(w.processingTimers, w.processingTimerCount++, t);
            timersPending++;
        }
    }

    private void deleteProcessingTimer(Slot w, long t) {
        if (timers.deleteProcessingTimeTimer(w.keyId, namespaceOf(w), t)) {
            w.forgetProcessingTimer(t);
            timersPending--;
        }
    }

    private static long[] append(long[] a, int at, long v) {
        if (at == a.length) {
            a = Arrays.copyOf(a, Math.max(2, a.length * 2));
        }
        a[at] = v;
        return a;
    }

    // ================================================================== firing

    private void emit(Slot w) {
        Object key = keys.keyOf(w.keyId);
        Iterable<V> input;
        ElementList list = null;
        if (incremental) {
            input = single.of(spec.reduce() != null ? cast(w.contents) : spec.aggregate().getResult(w.contents));
        } else {
            list = (ElementList) w.contents;
            evictionView.reset(list);
            if (evictor != null) {
                evictor.evictBefore(cast(evictionView), w.window);
            }
            input = valuesOf(evictionView);
        }
        firings++;
        processCtx.on(w, key);
        collector.begin(w, key);
        spec.process().process(key, processCtx, input, collector);
        collector.end();
        if (evictor != null) {
            evictor.evictAfter(cast(evictionView), w.window);
            buffered -= list.compact(evictionView.evicted);
            if (list.size == 0) {
                w.contents = null;
            }
        }
    }

    /** The values the process function receives from a window's (remaining) elements. */
    private Iterable<V> valuesOf(EvictionView view) {
        if (spec.reduce() != null) {
            Object acc = null;
            for (int i = 0; i < view.size(); i++) {
                if (!view.isEvicted(i)) {
                    acc = acc == null ? view.value(i) : spec.reduce().reduce(cast(acc), cast(view.value(i)));
                }
            }
            return acc == null ? List.of() : single.of(cast(acc));
        }
        if (spec.aggregate() != null) {
            Object acc = spec.aggregate().createAccumulator();
            for (int i = 0; i < view.size(); i++) {
                if (!view.isEvicted(i)) {
                    acc = spec.aggregate().add(cast(view.value(i)), acc);
                }
            }
            return single.of(spec.aggregate().getResult(acc));
        }
        return listValues.of(view);
    }

    private void retractPrevious(Slot w) {
        if (w.lastResults == null) {
            return;
        }
        Object key = keys.keyOf(w.keyId);
        long ts = w.window.maxTimestamp();
        for (Object previous : w.lastResults) {
            retractions++;
            output.retract(key, w.window, cast(previous), ts);
        }
        w.lastResults = null;
    }

    // ================================================================== slots

    private Slot newSlot(int keyId, long start, long end) {
        int index;
        if (freeCount > 0) {
            index = freeSlots[--freeCount];
        } else {
            index = slotBound++;
            if (index >= slots.length) {
                slots = Arrays.copyOf(slots, slots.length * 2);
            }
        }
        Slot w = new Slot(index, keyId, start, end,
                global ? GlobalWindow.get() : new TimeWindow(start, end));
        slots[index] = w;
        insert(w);
        windows++;
        if (keyId >= windowsOfKey.length) {
            windowsOfKey = Arrays.copyOf(windowsOfKey, Math.max(keyId + 1, windowsOfKey.length * 2));
        }
        if (windowsOfKey[keyId]++ == 0) {
            keysWithWindows++;
        }
        if (merging) {
            if (keyId >= mergingWindowsOfKey.length) {
                mergingWindowsOfKey = Arrays.copyOf(mergingWindowsOfKey,
                        Math.max(keyId + 1, mergingWindowsOfKey.length * 2));
            }
            IntArrayList list = mergingWindowsOfKey[keyId];
            if (list == null) {
                list = new IntArrayList(2);
                mergingWindowsOfKey[keyId] = list;
            }
            list.add(index);
        }
        return w;
    }

    /**
     * Removes a window: contents, trigger state (after {@link Trigger#clear} when {@code clearTrigger}), per-window
     * state, every timer still registered for it; then frees the slot and, if it was the key's last window, the key.
     */
    private void removeSlot(Slot w, boolean clearTrigger) {
        if (clearTrigger) {
            triggerCtx.on(w);
            trigger.clear(w.window, triggerCtx);
            if (w.windowState != null || !isPassThrough()) {
                processCtx.on(w, keys.keyOf(w.keyId));
                spec.process().clear(processCtx);
            }
        }
        w.windowState = null;
        w.lastResults = null;
        purge(w);
        for (int i = w.eventTimerCount - 1; i >= 0; i--) {
            deleteEventTimer(w, w.eventTimers[i]);
        }
        for (int i = w.processingTimerCount - 1; i >= 0; i--) {
            deleteProcessingTimer(w, w.processingTimers[i]);
        }
        delete(w);
        slots[w.index] = null;
        if (freeCount == freeSlots.length) {
            freeSlots = Arrays.copyOf(freeSlots, freeCount * 2);
        }
        freeSlots[freeCount++] = w.index;
        windows--;
        int keyId = w.keyId;
        if (merging) {
            IntArrayList list = mergingWindowsOfKey[keyId];
            list.removeElement(w.index);
            if (list.isEmpty()) {
                mergingWindowsOfKey[keyId] = null;
            }
        }
        if (--windowsOfKey[keyId] == 0) {
            keysWithWindows--;
            if (clearTrigger) {
                releaseIfIdle(keyId);
            }
        }
    }

    private boolean isPassThrough() {
        return spec.process() instanceof PassThrough;
    }

    private void releaseIfIdle(int keyId) {
        if (!holds(keyId)) {
            keyRelease.idle(keyId);
        }
    }

    // ---- the (key id, start, end) -> slot table: linear probing, backward-shift deletion

    private static int hash(int keyId, long start, long end) {
        long h = keyId * 0x9E3779B97F4A7C15L + start * 0xC2B2AE3D27D4EB4FL + end * 0x165667B19E3779F9L;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        return (int) (h ^ (h >>> 32));
    }

    private int find(int keyId, long start, long end) {
        int mask = table.length - 1;
        for (int i = hash(keyId, start, end) & mask; ; i = (i + 1) & mask) {
            int s = table[i] - 1;
            if (s < 0) {
                return -1;
            }
            Slot w = slots[s];
            if (w.keyId == keyId && w.start == start && w.end == end) {
                return s;
            }
        }
    }

    private void insert(Slot w) {
        if ((tableSize + 1) * 2 > table.length) {
            int[] old = table;
            table = new int[old.length * 2];
            for (int s : old) {
                if (s != 0) {
                    place(slots[s - 1]);
                }
            }
        }
        place(w);
        tableSize++;
    }

    private void place(Slot w) {
        int mask = table.length - 1;
        int i = hash(w.keyId, w.start, w.end) & mask;
        while (table[i] != 0) {
            i = (i + 1) & mask;
        }
        table[i] = w.index + 1;
    }

    private void delete(Slot w) {
        int mask = table.length - 1;
        int i = hash(w.keyId, w.start, w.end) & mask;
        while (table[i] != w.index + 1) {
            i = (i + 1) & mask;
        }
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            if (table[j] == 0) {
                break;
            }
            Slot moved = slots[table[j] - 1];
            int home = hash(moved.keyId, moved.start, moved.end) & mask;
            boolean between = i <= j ? (i < home && home <= j) : (i < home || home <= j);
            if (!between) {
                table[i] = table[j];
                i = j;
            }
        }
        table[i] = 0;
        tableSize--;
    }

    // ================================================================== metrics, snapshots

    @Override
    public void endOfBatch() {
        published.lazySet(M_WINDOWS, windows);
        published.lazySet(M_BUFFERED, buffered);
        published.lazySet(M_ACCUMULATORS, accumulators);
        published.lazySet(M_KEYS, keysWithWindows);
        published.lazySet(M_FIRINGS, firings);
        published.lazySet(M_RESULTS, results);
        published.lazySet(M_RETRACTIONS, retractions);
        published.lazySet(M_LATE, lateElements);
        published.lazySet(M_TIMERS, timersPending);
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
    public long bufferedEvents() {
        return buffered;
    }

    @Override
    public void writeState(DataOutput out, EventCodec<T> events, EventCodec<Object> keyCodec) {
        throw new IllegalStateException(WindowSnapshots.REASON);
    }

    @Override
    public void readState(DataInput in, EventCodec<T> events, EventCodec<Object> keyCodec) {
        throw new IllegalStateException(WindowSnapshots.REASON);
    }

    // ================================================================== helpers

    /** One live (key, window): contents, trigger state, its timers, per-window state, last results. */
    private static final class Slot {
        final int index;
        final int keyId;
        final long start;
        final long end;
        final Window window;
        Object contents;
        TriggerState<?>[] stateKeys;
        Object[] stateValues;
        int stateCount;
        long[] eventTimers = NO_TIMERS;
        int eventTimerCount;
        long[] processingTimers = NO_TIMERS;
        int processingTimerCount;
        MapStore windowState;
        List<Object> lastResults;

        Slot(int index, int keyId, long start, long end, Window window) {
            this.index = index;
            this.keyId = keyId;
            this.start = start;
            this.end = end;
            this.window = window;
        }

        void forgetEventTimer(long t) {
            eventTimerCount = remove(eventTimers, eventTimerCount, t);
        }

        void forgetProcessingTimer(long t) {
            processingTimerCount = remove(processingTimers, processingTimerCount, t);
        }

        private static int remove(long[] a, int n, long t) {
            for (int i = 0; i < n; i++) {
                if (a[i] == t) {
                    a[i] = a[n - 1];
                    return n - 1;
                }
            }
            return n;
        }

        Object state(TriggerState<?> key) {
            for (int i = 0; i < stateCount; i++) {
                if (stateKeys[i] == key) {
                    return stateValues[i];
                }
            }
            return null;
        }

        void setState(TriggerState<?> key, Object value) {
            for (int i = 0; i < stateCount; i++) {
                if (stateKeys[i] == key) {
                    if (value == null) {
                        stateKeys[i] = stateKeys[stateCount - 1];
                        stateValues[i] = stateValues[stateCount - 1];
                        stateKeys[--stateCount] = null;
                        stateValues[stateCount] = null;
                    } else {
                        stateValues[i] = value;
                    }
                    return;
                }
            }
            if (value == null) {
                return;
            }
            if (stateKeys == null) {
                stateKeys = new TriggerState<?>[2];
                stateValues = new Object[2];
            } else if (stateCount == stateKeys.length) {
                stateKeys = Arrays.copyOf(stateKeys, stateCount * 2);
                stateValues = Arrays.copyOf(stateValues, stateCount * 2);
            }
            stateKeys[stateCount] = key;
            stateValues[stateCount++] = value;
        }
    }

    /** The trigger context of the window being handled; one per operator, re-aimed per call. */
    private final class TriggerCtx implements Trigger.OnMergeContext {
        private Slot w;
        private Slot[] mergedFrom;

        void on(Slot slot) {
            this.w = slot;
            this.mergedFrom = null;
        }

        void mergeOn(Slot result, Slot[] merged) {
            this.w = result;
            this.mergedFrom = merged;
        }

        @Override
        public long currentWatermark() {
            return watermark;
        }

        @Override
        public long currentProcessingTime() {
            return clock.millis();
        }

        @Override
        public void registerEventTimeTimer(long time) {
            registerEventTimer(w, time);
        }

        @Override
        public void deleteEventTimeTimer(long time) {
            deleteEventTimer(w, time);
        }

        @Override
        public void registerProcessingTimeTimer(long time) {
            registerProcessingTimer(w, time);
        }

        @Override
        public void deleteProcessingTimeTimer(long time) {
            deleteProcessingTimer(w, time);
        }

        @Override
        @SuppressWarnings("unchecked")
        public <X> X getState(TriggerState<X> state) {
            return (X) w.state(state);
        }

        @Override
        public <X> void setState(TriggerState<X> state, X value) {
            w.setState(state, value);
        }

        @Override
        @SuppressWarnings("unchecked")
        public <X> void mergeState(TriggerState<X> state) {
            if (mergedFrom == null) {
                throw new IllegalStateException("mergeState outside onMerge");
            }
            if (state.merge() == null) {
                throw new IllegalStateException("trigger state '" + state.name() + "' has no merge function");
            }
            for (Slot m : mergedFrom) {
                X v = (X) m.state(state);
                if (v != null) {
                    X cur = (X) w.state(state);
                    w.setState(state, cur == null ? v : state.merge().apply(cur, v));
                }
            }
        }
    }

    /** The process function's context for the window being evaluated. */
    private final class ProcessCtx implements ProcessWindowFunction.Context {
        private Slot w;
        private Object key;

        void on(Slot slot, Object k) {
            this.w = slot;
            this.key = k;
        }

        @Override
        public Window window() {
            return w.window;
        }

        @Override
        public long currentWatermark() {
            return watermark;
        }

        @Override
        public long currentProcessingTime() {
            return clock.millis();
        }

        @Override
        public KeyedStateStore windowState() {
            if (w.windowState == null) {
                w.windowState = new MapStore();
            }
            return w.windowState;
        }

        @Override
        public KeyedStateStore globalState() {
            int id = w.keyId;
            if (id >= globalStateOfKey.length) {
                globalStateOfKey = Arrays.copyOf(globalStateOfKey, Math.max(id + 1, globalStateOfKey.length * 2));
            }
            if (globalStateOfKey[id] == null) {
                globalStateOfKey[id] = new MapStore();
            }
            return globalStateOfKey[id];
        }

        @Override
        public <X> void output(OutputTag<X> tag, X value) {
            output.sideOutput(tag, value, w.window.maxTimestamp());
        }
    }

    /** Forwards results (or, in retracting mode, gathers them to retract the previous ones first). */
    private final class ResultCollector implements Collector<R> {
        private Slot w;
        private Object key;
        private ArrayList<Object> gathered;

        void begin(Slot slot, Object k) {
            this.w = slot;
            this.key = k;
            if (retracting) {
                gathered = new ArrayList<>(1);
            }
        }

        @Override
        public void collect(R value) {
            if (retracting) {
                gathered.add(value);
            } else {
                results++;
                output.result(key, w.window, value, w.window.maxTimestamp());
            }
        }

        void end() {
            if (!retracting) {
                return;
            }
            retractPrevious(w);
            for (Object value : gathered) {
                results++;
                output.result(key, w.window, cast(value), w.window.maxTimestamp());
            }
            w.lastResults = gathered;
            gathered = null;
        }
    }

    /** A window's element list as evictors see it: evicted positions marked, compacted after the firing. */
    private static final class EvictionView implements Evictor.Elements<Object> {
        private ElementList list;
        boolean[] evicted = new boolean[16];
        private int remaining;

        void reset(ElementList l) {
            this.list = l;
            if (evicted.length < l.size) {
                evicted = new boolean[Math.max(l.size, evicted.length * 2)];
            } else {
                Arrays.fill(evicted, 0, l.size, false);
            }
            remaining = l.size;
        }

        @Override
        public int size() {
            return list.size;
        }

        @Override
        public Object value(int i) {
            return list.values[check(i)];
        }

        @Override
        public long timestamp(int i) {
            return list.timestamps[check(i)];
        }

        @Override
        public boolean isEvicted(int i) {
            return evicted[check(i)];
        }

        @Override
        public void evict(int i) {
            if (!evicted[check(i)]) {
                evicted[i] = true;
                remaining--;
            }
        }

        @Override
        public int remaining() {
            return remaining;
        }

        private int check(int i) {
            if (i < 0 || i >= list.size) {
                throw new IndexOutOfBoundsException("element " + i + " of " + list.size);
            }
            return i;
        }
    }

    /** A one-value iterable, reused. */
    private static final class Single implements Iterable<Object> {
        private Object value;

        @SuppressWarnings("unchecked")
        <X> Iterable<X> of(X v) {
            this.value = v;
            return (Iterable<X>) this;
        }

        @Override
        public Iterator<Object> iterator() {
            return new Iterator<>() {
                private boolean done;

                @Override
                public boolean hasNext() {
                    return !done;
                }

                @Override
                public Object next() {
                    if (done) {
                        throw new NoSuchElementException();
                    }
                    done = true;
                    return value;
                }
            };
        }
    }

    /** The not-evicted values of a window, reused. */
    private static final class ListValues implements Iterable<Object> {
        private EvictionView view;

        @SuppressWarnings("unchecked")
        <X> Iterable<X> of(EvictionView v) {
            this.view = v;
            return (Iterable<X>) this;
        }

        @Override
        public Iterator<Object> iterator() {
            return new Iterator<>() {
                private int next = advance(0);

                private int advance(int from) {
                    int i = from;
                    while (i < view.size() && view.isEvicted(i)) {
                        i++;
                    }
                    return i;
                }

                @Override
                public boolean hasNext() {
                    return next < view.size();
                }

                @Override
                public Object next() {
                    if (next >= view.size()) {
                        throw new NoSuchElementException();
                    }
                    Object v = view.value(next);
                    next = advance(next + 1);
                    return v;
                }
            };
        }
    }

    /** A small named-value store (per window or per key). */
    static final class MapStore implements KeyedStateStore {
        private final HashMap<String, Object> values = new HashMap<>(4);

        @Override
        @SuppressWarnings("unchecked")
        public <X> X get(String name) {
            return (X) values.get(name);
        }

        @Override
        public void put(String name, Object value) {
            if (value == null) {
                values.remove(name);
            } else {
                values.put(name, value);
            }
        }

        boolean isEmpty() {
            return values.isEmpty();
        }
    }
}
