package io.cepheus.runtime.internal.window;

import io.cepheus.runtime.window.AccumulationMode;
import io.cepheus.runtime.window.AggregateFunction;
import io.cepheus.runtime.window.Evictor;
import io.cepheus.runtime.window.ProcessWindowFunction;
import io.cepheus.runtime.window.ReduceFunction;
import io.cepheus.runtime.window.Trigger;
import io.cepheus.runtime.window.WindowAssigner;
import java.util.function.Predicate;

/**
 * A window operator's configuration, validated by the stream builders: the assigner, trigger (already wrapped
 * for discarding mode), optional evictor, allowed lateness, the incremental function (reduce or aggregate, or
 * none) and the process function that turns the window's values into results.
 *
 * @param assigner  puts elements into windows
 * @param trigger   decides firing
 * @param evictor   null for none
 * @param lateness  allowed lateness in ms, at least 0
 * @param reduce    incremental reduce, or null
 * @param aggregate incremental aggregate, or null (not both)
 * @param process   receives the window's values: every element (no incremental function) or the one
 *                  pre-aggregated value
 * @param mode      the accumulation mode
 * @param accepts   the elements this operator takes (joins: either side); null for all
 * @param <T> the element type
 * @param <V> the values the process function receives
 * @param <R> the result type
 */
public record WindowSpec<T, V, R>(WindowAssigner<T> assigner, Trigger<T> trigger, Evictor<T> evictor, long lateness,
        ReduceFunction<T> reduce, AggregateFunction<T, Object, V> aggregate, ProcessWindowFunction<V, R> process,
        AccumulationMode mode, Predicate<? super T> accepts) {

    /** @return whether windows keep one value (reduce or aggregate without evictor) instead of their elements */
    public boolean incremental() {
        return evictor == null && (reduce != null || aggregate != null);
    }
}
