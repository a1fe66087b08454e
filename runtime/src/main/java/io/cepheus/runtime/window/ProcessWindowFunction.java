package io.cepheus.runtime.window;

import io.cepheus.runtime.Collector;
import io.cepheus.runtime.OutputTag;

/**
 * Evaluates a window from all its values, with the window's metadata. Alone it receives every element of the
 * window; after a {@link ReduceFunction} or {@link AggregateFunction} it receives the one pre-aggregated value.
 *
 * @param <IN>  the values it receives
 * @param <OUT> the results it emits
 */
@FunctionalInterface
public interface ProcessWindowFunction<IN, OUT> {

    /**
     * @param key      the key
     * @param context  window, time, state and side outputs
     * @param elements the window's values (valid only during the call)
     * @param out      receives results, emitted with the window's max timestamp
     */
    void process(Object key, Context context, Iterable<IN> elements, Collector<OUT> out);

    /**
     * Called when the window is removed (cleanup time): clean up what {@link Context#windowState()} does not hold.
     *
     * @param context the window's context
     */
    default void clear(Context context) {
    }

    /** What the function may read and write besides its elements. Valid only during the call. */
    interface Context {
        /** @return the window */
        Window window();

        /** @return the current watermark */
        long currentWatermark();

        /** @return the current processing time */
        long currentProcessingTime();

        /**
         * @return state of this key and window, cleared with the window
         * @throws UnsupportedOperationException with a merging assigner (sessions), as in Flink: a merge would have
         *                                       to combine the states of the windows it replaces
         */
        KeyedStateStore windowState();

        /** @return state of this key across its windows, kept until removed */
        KeyedStateStore globalState();

        /**
         * Emits {@code value} to a side output (handler set on the window's results).
         *
         * @param tag   the side output
         * @param value the record
         * @param <X>   its type
         */
        <X> void output(OutputTag<X> tag, X value);
    }
}
