package io.cepheus.runtime.internal.window;

import io.cepheus.runtime.Collector;
import io.cepheus.runtime.window.ProcessWindowFunction;

/**
 * The process function of a plain reduce or aggregate: emits the pre-aggregated value as the result.
 *
 * @param <V> the value type
 */
public final class PassThrough<V> implements ProcessWindowFunction<V, V> {

    @Override
    public void process(Object key, Context context, Iterable<V> elements, Collector<V> out) {
        for (V v : elements) {
            out.collect(v);
        }
    }
}
