package io.cepheus.runtime;

import io.cepheus.runtime.internal.window.CoGroupWindowFunction;
import io.cepheus.runtime.window.CoGroupFunction;
import io.cepheus.runtime.window.Evictor;
import io.cepheus.runtime.window.Trigger;
import io.cepheus.runtime.window.WindowAssigner;
import java.time.Duration;
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

    private final CepEngine<T> engine;
    private final Function<? super T, ? extends L> left;
    private final Function<? super T, ? extends R> right;

    CoGroupedStreams(CepEngine<T> engine, Function<? super T, ? extends L> left,
            Function<? super T, ? extends R> right) {
        this.engine = engine;
        this.left = Objects.requireNonNull(left, "left");
        this.right = Objects.requireNonNull(right, "right");
    }

    /** @param assigner the windows both sides share @return the windowed coGroup */
    public WithWindow<T, L, R> window(WindowAssigner<T> assigner) {
        engine.checkNotStarted("coGroup().window()");
        return new WithWindow<>(JoinedStreams.windowOf(engine, assigner, left, right, "coGroup"), left, right);
    }

    /**
     * A coGroup with its windows: optionally set trigger, evictor, lateness, late output, then apply.
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

        /** @param handler receives elements that no window took @return this */
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
         * @param function receives both lists of each window firing
         * @param <OUT>    result type
         * @return the results
         */
        public <OUT> WindowResults<OUT> apply(CoGroupFunction<L, R, OUT> function) {
            Objects.requireNonNull(function, "function");
            return windows.process(new CoGroupWindowFunction<>(left, right, function));
        }
    }
}
