package io.cepheus.runtime.internal.window;

import io.cepheus.runtime.window.AggregateFunction;
import io.cepheus.runtime.window.ReduceFunction;

/**
 * A window's incremental function, a {@link ReduceFunction} or an {@link AggregateFunction}, behind one set of
 * calls on an untyped accumulator (a reduced value or an aggregate's accumulator), for the fast-path operators
 * that keep one accumulator per slice or session. Stateless apart from the user function; used on the shard thread.
 *
 * @param <T> the element type
 * @param <R> the result type
 */
final class IncrementalFunction<T, R> {

    private final ReduceFunction<T> reduce;
    private final AggregateFunction<T, Object, R> aggregate;

    /** @param spec a configuration with an incremental reduce or aggregate */
    @SuppressWarnings("unchecked")
    IncrementalFunction(WindowSpec<T, ?, ?> spec) {
        this.reduce = spec.reduce();
        this.aggregate = (AggregateFunction<T, Object, R>) spec.aggregate();
        if ((reduce == null) == (aggregate == null)) {
            throw new IllegalArgumentException("a window needs exactly one of reduce and aggregate: " + spec);
        }
    }

    /**
     * @param acc the accumulator so far, or null for none yet
     * @return the accumulator with {@code event} added (the same object when an aggregate changes it in place)
     */
    Object add(Object acc, T event) {
        if (reduce != null) {
            return acc == null ? event : reduce.reduce(cast(acc), event);
        }
        return aggregate.add(event, acc == null ? aggregate.createAccumulator() : acc);
    }

    /** @return {@code into} followed by {@code from} ({@code from} is not changed) */
    Object merge(Object into, Object from) {
        return reduce != null ? reduce.reduce(cast(into), cast(from)) : aggregate.merge(into, from);
    }

    /** @return the window result of an accumulator */
    R result(Object acc) {
        return reduce != null ? cast(acc) : aggregate.getResult(acc);
    }

    /** @return how {@link SliceTable} combines accumulators of this function */
    SliceCombiner combiner() {
        return reduce != null ? SliceCombiner.of(IncrementalFunction.<ReduceFunction<Object>>cast(reduce))
                : SliceCombiner.of(aggregate);
    }

    @SuppressWarnings("unchecked")
    private static <X> X cast(Object o) {
        return (X) o;
    }
}
