package io.cepheus.runtime.internal.window;

import io.cepheus.runtime.Collector;
import io.cepheus.runtime.window.CoGroupFunction;
import io.cepheus.runtime.window.ProcessWindowFunction;
import java.util.ArrayList;
import java.util.function.Function;

/**
 * A window join or coGroup as a process function over the union of both sides (as Flink runs joins: coGroup
 * over a tagged union): splits a window's elements into its left and right lists, in arrival order, and hands
 * both to the coGroup function.
 *
 * @param <T>   the engine's element type
 * @param <L>   left type
 * @param <R>   right type
 * @param <OUT> result type
 */
public final class CoGroupWindowFunction<T, L, R, OUT> implements ProcessWindowFunction<T, OUT> {

    private final Function<? super T, ? extends L> left;
    private final Function<? super T, ? extends R> right;
    private final CoGroupFunction<L, R, OUT> function;

    /**
     * @param left     the left value of an element, or null
     * @param right    the right value of an element, or null
     * @param function receives both lists
     */
    public CoGroupWindowFunction(Function<? super T, ? extends L> left, Function<? super T, ? extends R> right,
            CoGroupFunction<L, R, OUT> function) {
        this.left = left;
        this.right = right;
        this.function = function;
    }

    @Override
    public void process(Object key, Context context, Iterable<T> elements, Collector<OUT> out) {
        ArrayList<L> lefts = new ArrayList<>();
        ArrayList<R> rights = new ArrayList<>();
        for (T e : elements) {
            L l = left.apply(e);
            if (l != null) {
                lefts.add(l);
            }
            R r = right.apply(e);
            if (r != null) {
                rights.add(r);
            }
        }
        function.coGroup(lefts, rights, out);
    }
}
