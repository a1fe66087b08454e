package io.cepheus.runtime.internal.window;

import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.window.AggregateFunction;
import io.cepheus.runtime.window.ReduceFunction;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * What a {@link WindowOperator}'s windows hold: one reduced value or accumulator (incremental functions without
 * evictor) or an {@link ElementList}; adds elements, merges windows' contents, purges them, and counts buffered
 * elements and accumulators for the metrics. Owned by the shard thread.
 *
 * @param <T> the element type
 */
final class WindowContents<T> {

    private final boolean incremental;
    private final ReduceFunction<T> reduce;
    private final AggregateFunction<T, Object, ?> aggregate;
    private long buffered;
    private long accumulators;

    WindowContents(WindowSpec<T, ?, ?> spec) {
        this.incremental = spec.incremental();
        this.reduce = spec.reduce();
        this.aggregate = spec.aggregate();
    }

    /** @return elements held in element lists */
    long buffered() {
        return buffered;
    }

    /** @return reduced values and accumulators held */
    long accumulators() {
        return accumulators;
    }

    @SuppressWarnings("unchecked")
    private static <X> X cast(Object o) {
        return (X) o;
    }

    void add(WindowSlot w, T event, long timestamp) {
        if (incremental) {
            if (reduce != null) {
                if (w.contents == null) {
                    w.contents = event;
                    accumulators++;
                } else {
                    w.contents = reduce.reduce(cast(w.contents), event);
                }
            } else {
                Object acc = w.contents;
                boolean fresh = acc == null;
                if (fresh) {
                    acc = aggregate.createAccumulator();
                }
                w.contents = aggregate.add(event, acc);
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

    /** Moves {@code from}'s contents into {@code into} (merging windows); the counters follow the contents. */
    void moveInto(WindowSlot into, WindowSlot from) {
        if (from.contents == null) {
            return;
        }
        if (into.contents == null) {
            into.contents = from.contents;
        } else if (incremental) {
            into.contents = reduce != null ? reduce.reduce(cast(into.contents), cast(from.contents))
                    : aggregate.merge(into.contents, from.contents);
            accumulators--;
        } else {
            ((ElementList) into.contents).addAll((ElementList) from.contents);
        }
        from.contents = null;
    }

    /** Empties the window. */
    void purge(WindowSlot w) {
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

    /**
     * Writes a window's contents (for snapshots): its elements with their timestamps, its reduced value (an
     * element) or its accumulator.
     *
     * @param elementCodec     writes elements
     * @param accumulatorCodec writes accumulators (null unless the function is an aggregate)
     */
    void writeTo(WindowSlot w, DataOutput out, EventCodec<Object> elementCodec,
            EventCodec<Object> accumulatorCodec) throws IOException {
        if (w.contents == null) {
            out.writeInt(-1);
        } else if (incremental) {
            out.writeInt(1);
            (reduce != null ? elementCodec : accumulatorCodec).write(w.contents, out);
        } else {
            ElementList list = (ElementList) w.contents;
            out.writeInt(list.size);
            for (int i = 0; i < list.size; i++) {
                out.writeLong(list.timestamps[i]);
                elementCodec.write(list.values[i], out);
            }
        }
    }

    /** Reads what {@link #writeTo} wrote into the empty window {@code w}, counting what it holds. */
    void readFrom(WindowSlot w, DataInput in, EventCodec<Object> elementCodec,
            EventCodec<Object> accumulatorCodec) throws IOException {
        int n = in.readInt();
        if (n == -1) {
            return;
        }
        if (incremental) {
            if (n != 1) {
                throw new IOException("an incremental window's contents of " + n + " values");
            }
            w.contents = (reduce != null ? elementCodec : accumulatorCodec).read(in);
            accumulators++;
            return;
        }
        if (n < 1) {
            throw new IOException("a window's contents of " + n + " elements");
        }
        ElementList list = new ElementList();
        for (int i = 0; i < n; i++) {
            long timestamp = in.readLong();
            list.add(elementCodec.read(in), timestamp);
        }
        w.contents = list;
        buffered += n;
    }

    /** After an evictor: drops the evicted elements, emptying the window if none is left. */
    void compact(WindowSlot w, boolean[] evicted) {
        ElementList list = (ElementList) w.contents;
        buffered -= list.compact(evicted);
        if (list.size == 0) {
            w.contents = null;
        }
    }
}
