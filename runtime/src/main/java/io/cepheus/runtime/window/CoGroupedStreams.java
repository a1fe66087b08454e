package io.cepheus.runtime.window;

import io.cepheus.runtime.internal.shard.OperatorRegistry;
import java.util.Objects;
import java.util.function.Function;

/**
 * A window coGroup of two sides of an engine's stream (Flink's {@code a.coGroup(b).where(k).equalTo(k)
 * .window(assigner).apply(f)}): per key and window firing, the function receives all left and all right
 * elements of the window, either list possibly empty, which gives left, right and full outer window joins.
 *
 * @param <T> the engine's element type
 * @param <L> left type
 * @param <R> right type
 */
public final class CoGroupedStreams<T, L, R> {

    private final OperatorRegistry<T> registry;
    private final Function<? super T, ? extends L> left;
    private final Function<? super T, ? extends R> right;

    /**
     * Made by {@link io.cepheus.runtime.KeyedStream#coGroup}; not meant to be called directly.
     *
     * @param registry where the coGroup's window operator is registered
     * @param left     the left value of an element, or null
     * @param right    the right value of an element, or null
     */
    public CoGroupedStreams(OperatorRegistry<T> registry, Function<? super T, ? extends L> left,
            Function<? super T, ? extends R> right) {
        this.registry = registry;
        this.left = Objects.requireNonNull(left, "left");
        this.right = Objects.requireNonNull(right, "right");
    }

    /**
     * @param assigner the windows both sides share
     * @return the windowed coGroup
     */
    public WithWindow<T, L, R> window(WindowAssigner<T> assigner) {
        registry.checkNotStarted("coGroup().window()");
        return new WithWindow<>(JoinedStreams.windowOf(registry, assigner, left, right, "coGroup"), left, right);
    }

    /**
     * A coGroup with its windows: optionally set trigger, evictor, lateness, late output, then apply.
     *
     * @param <T> the engine's element type
     * @param <L> left type
     * @param <R> right type
     */
    public static final class WithWindow<T, L, R> extends WindowedSides<T, L, R, WithWindow<T, L, R>> {

        WithWindow(WindowedStream<T> windows, Function<? super T, ? extends L> left,
                Function<? super T, ? extends R> right) {
            super(windows, left, right);
        }

        @Override
        WithWindow<T, L, R> self() {
            return this;
        }

        /**
         * @param function receives both lists of each window firing
         * @param <OUT>    result type
         * @return the results
         */
        public <OUT> WindowResults<OUT> apply(CoGroupFunction<L, R, OUT> function) {
            Objects.requireNonNull(function, "function");
            return coGroup(function);
        }
    }
}
