package io.cepheus.runtime.window;

import io.cepheus.runtime.internal.shard.OperatorRegistry;
import java.util.Objects;
import java.util.function.Function;

/**
 * An inner window join of two sides of an engine's stream (Flink's {@code a.join(b).where(k).equalTo(k)
 * .window(assigner).apply(f)}): every left/right pair of a key in the same window, emitted when the window
 * fires, with the window's max timestamp. Runs as a coGroup over both sides, so each firing (early, on time,
 * late) emits all pairs of the window so far.
 *
 * @param <T> the engine's element type
 * @param <L> left type
 * @param <R> right type
 */
public final class JoinedStreams<T, L, R> {

    private final OperatorRegistry<T> registry;
    private final Function<? super T, ? extends L> left;
    private final Function<? super T, ? extends R> right;

    /**
     * Made by {@link io.cepheus.runtime.KeyedStream#join}; not meant to be called directly.
     *
     * @param registry where the join's window operator is registered
     * @param left     the left value of an element, or null
     * @param right    the right value of an element, or null
     */
    public JoinedStreams(OperatorRegistry<T> registry, Function<? super T, ? extends L> left,
            Function<? super T, ? extends R> right) {
        this.registry = registry;
        this.left = Objects.requireNonNull(left, "left");
        this.right = Objects.requireNonNull(right, "right");
    }

    /**
     * @param assigner the windows both sides share
     * @return the windowed join
     */
    public WithWindow<T, L, R> window(WindowAssigner<T> assigner) {
        registry.checkNotStarted("join().window()");
        return new WithWindow<>(windowOf(registry, assigner, left, right, "join"), left, right);
    }

    static <T, L, R> WindowedStream<T> windowOf(OperatorRegistry<T> registry, WindowAssigner<T> assigner,
            Function<? super T, ? extends L> left, Function<? super T, ? extends R> right, String what) {
        return new WindowedStream<>(registry, assigner)
                .accepting(e -> left.apply(e) != null || right.apply(e) != null, what);
    }

    /**
     * A window join with its windows: optionally set trigger, evictor, lateness, late output, then apply.
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
         * @param function joins each pair
         * @param <OUT>    result type
         * @return the results
         */
        public <OUT> WindowResults<OUT> apply(JoinFunction<L, R, OUT> function) {
            Objects.requireNonNull(function, "function");
            return coGroup((ls, rs, out) -> {
                for (L l : ls) {
                    for (R r : rs) {
                        out.collect(function.join(l, r));
                    }
                }
            });
        }

        /**
         * @param function joins each pair into zero or more results
         * @param <OUT>    result type
         * @return the results
         */
        public <OUT> WindowResults<OUT> apply(FlatJoinFunction<L, R, OUT> function) {
            Objects.requireNonNull(function, "function");
            return coGroup((ls, rs, out) -> {
                for (L l : ls) {
                    for (R r : rs) {
                        function.join(l, r, out);
                    }
                }
            });
        }
    }
}
