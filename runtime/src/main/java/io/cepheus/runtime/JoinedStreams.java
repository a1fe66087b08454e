package io.cepheus.runtime;

import io.cepheus.runtime.internal.window.CoGroupWindowFunction;
import io.cepheus.runtime.window.CoGroupFunction;
import io.cepheus.runtime.window.Evictor;
import io.cepheus.runtime.window.FlatJoinFunction;
import io.cepheus.runtime.window.JoinFunction;
import io.cepheus.runtime.window.Trigger;
import io.cepheus.runtime.window.WindowAssigner;
import java.time.Duration;
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

    private final CepEngine<T> engine;
    private final Function<? super T, ? extends L> left;
    private final Function<? super T, ? extends R> right;

    JoinedStreams(CepEngine<T> engine, Function<? super T, ? extends L> left, Function<? super T, ? extends R> right) {
        this.engine = engine;
        this.left = Objects.requireNonNull(left, "left");
        this.right = Objects.requireNonNull(right, "right");
    }

    static <T, S> Function<T, S> side(Class<S> type) {
        Objects.requireNonNull(type, "type");
        return e -> type.isInstance(e) ? type.cast(e) : null;
    }

    /** @param assigner the windows both sides share @return the windowed join */
    public WithWindow<T, L, R> window(WindowAssigner<T> assigner) {
        engine.checkNotStarted("join().window()");
        return new WithWindow<>(windowOf(engine, assigner, left, right, "join"), left, right);
    }

    static <T, L, R> WindowedStream<T> windowOf(CepEngine<T> engine, WindowAssigner<T> assigner,
            Function<? super T, ? extends L> left, Function<? super T, ? extends R> right, String what) {
        return new WindowedStream<>(engine, assigner)
                .accepting(e -> left.apply(e) != null || right.apply(e) != null, what);
    }

    /**
     * A window join with its windows: optionally set trigger, evictor, lateness, late output, then apply.
     *
     * @param <T> the engine's element type
     * @param <L> left type
     * @param <R> right type
     */
    public static final class WithWindow<T, L, R> {
        private final WindowedStream<T> windows;
        private final Function<? super T, ? extends L> left;
        private final Function<? super T, ? extends R> right;

        WithWindow(WindowedStream<T> windows, Function<? super T, ? extends L> left,
                Function<? super T, ? extends R> right) {
            this.windows = windows;
            this.left = left;
            this.right = right;
        }

        /** @param trigger replaces the assigner's trigger @return this */
        public WithWindow<T, L, R> trigger(Trigger<T> trigger) {
            windows.trigger(trigger);
            return this;
        }

        /** @param evictor evicts elements of either side @return this */
        public WithWindow<T, L, R> evictor(Evictor<T> evictor) {
            windows.evictor(evictor);
            return this;
        }

        /** @param lateness allowed lateness, at least 0 @return this */
        public WithWindow<T, L, R> allowedLateness(Duration lateness) {
            windows.allowedLateness(lateness);
            return this;
        }

        /**
         * @param handler receives elements of either side that no window took (Flink drops them silently)
         * @return this
         */
        public WithWindow<T, L, R> sideOutputLateData(LateEventHandler<T> handler) {
            windows.sideOutputLateData(handler);
            return this;
        }

        /**
         * Flink's {@code sideOutputLateData(tag)}: elements of either side that no window took go to the side
         * output {@code tag} (counted anyway). Register its handler on the results, {@link WindowResults#sideOutput};
         * the engine does not start without one.
         *
         * @param tag the side output, of the engine's element type
         * @return this
         */
        public WithWindow<T, L, R> sideOutputLateData(OutputTag<T> tag) {
            windows.sideOutputLateData(tag);
            return this;
        }

        /**
         * @param handler receives elements the assigner or trigger threw on, and results (or late elements) whose
         *                handler threw, and the window goes on; without one such an exception goes to the shard's
         *                error handling ({@link CepEngine#close()} reports it). The join function itself runs on a
         *                whole window at its firing, so what it throws always goes there.
         * @return this
         */
        public WithWindow<T, L, R> deadLetters(DeadLetterHandler<T> handler) {
            windows.deadLetters(handler);
            return this;
        }

        /**
         * As {@link #deadLetters(DeadLetterHandler)}, to the side output {@code tag} as {@link DeadLetter} records.
         * Register its handler on the results, {@link WindowResults#sideOutput}; the engine does not start without
         * one.
         *
         * @param tag the side output (e.g. {@code DeadLetter.tag("errors")})
         * @return this
         */
        public WithWindow<T, L, R> sideOutputDeadLetters(OutputTag<DeadLetter> tag) {
            windows.sideOutputDeadLetters(tag);
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

        private <OUT> WindowResults<OUT> coGroup(CoGroupFunction<L, R, OUT> function) {
            return windows.process(new CoGroupWindowFunction<>(left, right, function));
        }
    }
}
