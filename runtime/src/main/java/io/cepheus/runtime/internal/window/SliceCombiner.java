package io.cepheus.runtime.internal.window;

import io.cepheus.runtime.window.AggregateFunction;
import io.cepheus.runtime.window.ReduceFunction;

/**
 * Combines slice values (reduced values or accumulators) in time order for {@link SliceTable}: the one place that
 * knows whether values are immutable (reduce) or mutable accumulators (aggregate). Stateless apart from the user
 * function, so it may be shared by all keys of an operator; used on the shard thread.
 */
interface SliceCombiner {

    /** @return a value equal to {@code value} that the caller owns (may change through {@link #combine}) */
    Object copy(Object value);

    /**
     * @param owned a value the caller owns (from {@link #copy} or an earlier combine); may be changed
     * @param next  the later value; never changed
     * @return {@code owned} followed by {@code next}
     */
    Object combine(Object owned, Object next);

    /**
     * Reduced values are treated as immutable: a copy is the value itself, a combination a new value (the reduce
     * function must not change its arguments, as everywhere in the window operators).
     */
    static SliceCombiner of(ReduceFunction<Object> reduce) {
        return new SliceCombiner() {
            @Override
            public Object copy(Object value) {
                return value;
            }

            @Override
            public Object combine(Object owned, Object next) {
                return reduce.reduce(owned, next);
            }
        };
    }

    /**
     * Accumulators may be mutable: a copy merges into a new accumulator, a combination merges into the owned one
     * ({@link AggregateFunction#merge} never changes its second argument and returns the first or a new one).
     */
    static SliceCombiner of(AggregateFunction<?, Object, ?> aggregate) {
        return new SliceCombiner() {
            @Override
            public Object copy(Object value) {
                return aggregate.merge(aggregate.createAccumulator(), value);
            }

            @Override
            public Object combine(Object owned, Object next) {
                return aggregate.merge(owned, next);
            }
        };
    }
}
