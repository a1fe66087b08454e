package io.cepheus.runtime.internal.window;

import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.Collector;
import io.cepheus.runtime.OutputTag;
import io.cepheus.runtime.internal.shard.KeyDictionary;
import io.cepheus.runtime.internal.shard.RestoreScope;
import io.cepheus.runtime.window.AccumulationMode;
import io.cepheus.runtime.window.Evictor;
import io.cepheus.runtime.window.KeyedStateStore;
import io.cepheus.runtime.window.MergingWindowAssigner;
import io.cepheus.runtime.window.ProcessWindowFunction;
import io.cepheus.runtime.window.Window;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Evaluates {@link WindowOperator}'s windows when they fire: evictors before and after, the window's values
 * (the one incremental value, or the remaining elements, reduced or aggregated if the function asks), the process
 * function with its context (window and per-key state, side outputs), and the results, which in
 * accumulating-and-retracting mode first withdraw the window's previous ones. Counts firings, results and
 * retractions. Owned by the shard thread.
 *
 * @param <T> the element type
 * @param <V> the values the process function receives
 * @param <R> the result type
 */
final class WindowEmitter<T, V, R> {

    private final WindowSpec<T, V, R> spec;
    private final KeyDictionary keys;
    private final WindowOutput<T, R> output;
    private final WindowTime time;
    private final WindowContents<T> contents;
    private final Evictor<T> evictor;
    private final boolean retracting;
    private final String stateRefusal;
    private MapStore[] globalStateOfKey = new MapStore[64];
    private long firings;
    private long results;
    private long retractions;

    private final ProcessCtx processCtx = new ProcessCtx();
    private final ResultCollector collector = new ResultCollector();
    private final EvictionView evictionView = new EvictionView();
    private final SingleValue single = new SingleValue();
    private final RemainingValues remainingValues = new RemainingValues();

    /**
     * @param stateRefusal why the process function may not store state (an engine with snapshots, and no codec
     *                     for the state), or null if it may
     */
    WindowEmitter(WindowSpec<T, V, R> spec, KeyDictionary keys, WindowOutput<T, R> output, WindowTime time,
            WindowContents<T> contents, String stateRefusal) {
        this.stateRefusal = stateRefusal;
        this.spec = spec;
        this.keys = keys;
        this.output = output;
        this.time = time;
        this.contents = contents;
        this.evictor = spec.evictor();
        this.retracting = spec.mode() == AccumulationMode.ACCUMULATING_AND_RETRACTING;
    }

    long firings() {
        return firings;
    }

    long results() {
        return results;
    }

    long retractions() {
        return retractions;
    }

    /**
     * Writes the counters and the process function's per-key state (for snapshots).
     *
     * @param stateCodec writes the state's values; null if the function keeps none (then there is none to write)
     */
    void writeTo(DataOutput out, EventCodec<Object> keyCodec,
            EventCodec<Object> stateCodec) throws IOException {
        out.writeLong(firings);
        out.writeLong(results);
        out.writeLong(retractions);
        int n = 0;
        for (int id = 0; id < globalStateOfKey.length; id++) {
            n += hasGlobalState(id) ? 1 : 0;
        }
        out.writeInt(n);
        for (int id = 0; id < globalStateOfKey.length; id++) {
            if (hasGlobalState(id)) {
                keyCodec.write(keys.keyOf(id), out);
                globalStateOfKey[id].writeTo(out, stateCodec);
            }
        }
    }

    /** Reads what {@link #writeTo} wrote into this fresh emitter (the key dictionary already restored). */
    void readFrom(DataInput in, EventCodec<Object> keyCodec, EventCodec<Object> stateCodec, RestoreScope scope)
            throws IOException {
        firings = scope.counted(firings, in.readLong());
        results = scope.counted(results, in.readLong());
        retractions = scope.counted(retractions, in.readLong());
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("window state of " + n + " keys");
        }
        for (int i = 0; i < n; i++) {
            Object key = keyCodec.read(in);
            if (!scope.keeps(key)) {
                newStore().readFrom(in, stateCodec); // another shard's key: read and let go
                continue;
            }
            int id = keys.idOf(key);
            if (id >= globalStateOfKey.length) {
                globalStateOfKey = Arrays.copyOf(globalStateOfKey, Math.max(id + 1, globalStateOfKey.length * 2));
            }
            if (globalStateOfKey[id] != null) {
                throw new IOException("key " + key + " has its window state twice");
            }
            MapStore store = newStore();
            store.readFrom(in, stateCodec);
            globalStateOfKey[id] = store;
        }
    }

    /** @return an empty store for the process function's state, which refuses values where they have no codec */
    MapStore newStore() {
        return new MapStore(stateRefusal);
    }

    /** @return whether the process function keeps per-key state for {@code keyId} */
    boolean hasGlobalState(int keyId) {
        return keyId < globalStateOfKey.length && globalStateOfKey[keyId] != null
                && !globalStateOfKey[keyId].isEmpty();
    }

    @SuppressWarnings("unchecked")
    private static <X> X cast(Object o) {
        return (X) o;
    }

    /** Fires the window: evaluates its contents (not empty) and emits the results. */
    void emit(WindowSlot w) {
        Object key = keys.keyOf(w.keyId);
        Iterable<V> input;
        if (spec.incremental()) {
            input = single.of(spec.reduce() != null ? cast(w.contents) : spec.aggregate().getResult(w.contents));
        } else {
            evictionView.reset((ElementList) w.contents);
            if (evictor != null) {
                evictor.evictBefore(cast(evictionView), w.window);
            }
            input = valuesOf(evictionView);
        }
        firings++;
        processCtx.on(w);
        collector.begin(w, key);
        spec.process().process(key, processCtx, input, collector);
        collector.end();
        if (evictor != null) {
            evictor.evictAfter(cast(evictionView), w.window);
            contents.compact(w, evictionView.evicted);
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
        return remainingValues.of(view);
    }

    /** Withdraws the window's last results (accumulating-and-retracting mode), if any. */
    void retractPrevious(WindowSlot w) {
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

    /** Lets the process function clear its state of a window being removed. */
    void clearWindow(WindowSlot w) {
        if (w.windowState != null || !(spec.process() instanceof PassThrough)) {
            processCtx.on(w);
            spec.process().clear(processCtx);
        }
    }

    /** The process function's context for the window being evaluated. */
    private final class ProcessCtx implements ProcessWindowFunction.Context {
        private WindowSlot w;

        void on(WindowSlot slot) {
            this.w = slot;
        }

        @Override
        public Window window() {
            return w.window;
        }

        @Override
        public long currentWatermark() {
            return time.watermark();
        }

        @Override
        public long currentProcessingTime() {
            return time.processingTime();
        }

        @Override
        public KeyedStateStore windowState() {
            if (spec.assigner() instanceof MergingWindowAssigner) {
                // as Flink: a merge would have to combine the states of the windows it replaces
                throw new UnsupportedOperationException("per-window state is not allowed with a merging window"
                        + " assigner (" + spec.assigner() + ", window " + w.window + "); keep state across a key's"
                        + " windows in globalState()");
            }
            if (w.windowState == null) {
                w.windowState = newStore();
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
                globalStateOfKey[id] = newStore();
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
        private WindowSlot w;
        private Object key;
        private ArrayList<Object> gathered;

        void begin(WindowSlot slot, Object k) {
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
}
