package io.cepheus.runtime.internal.window;

import io.cepheus.runtime.window.AggregateFunction;
import io.cepheus.runtime.window.ReduceFunction;

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

    /** After an evictor: drops the evicted elements, emptying the window if none is left. */
    void compact(WindowSlot w, boolean[] evicted) {
        ElementList list = (ElementList) w.contents;
        buffered -= list.compact(evicted);
        if (list.size == 0) {
            w.contents = null;
        }
    }
}
