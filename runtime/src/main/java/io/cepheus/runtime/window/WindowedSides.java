package io.cepheus.runtime.window;

import io.cepheus.runtime.DeadLetter;
import io.cepheus.runtime.DeadLetterHandler;
import io.cepheus.runtime.LateEventHandler;
import io.cepheus.runtime.OutputTag;
import io.cepheus.runtime.internal.window.CoGroupWindowFunction;
import java.time.Duration;
import java.util.function.Function;

/**
 * The settings a window join and a coGroup share once their windows are chosen (trigger, evictor, lateness, late
 * and dead-letter outputs), for {@link JoinedStreams.WithWindow} and {@link CoGroupedStreams.WithWindow}: both run
 * as a coGroup over one {@link WindowedStream} of both sides. Configured on the thread that sets up the engine.
 *
 * @param <T> the engine's element type
 * @param <L> left type
 * @param <R> right type
 * @param <S> the public type the settings return, for chaining
 */
abstract class WindowedSides<T, L, R, S extends WindowedSides<T, L, R, S>> {
    private final WindowedStream<T> windows;
    private final Function<? super T, ? extends L> left;
    private final Function<? super T, ? extends R> right;

    WindowedSides(WindowedStream<T> windows, Function<? super T, ? extends L> left,
            Function<? super T, ? extends R> right) {
        this.windows = windows;
        this.left = left;
        this.right = right;
    }

    /** @return this, as the public type */
    abstract S self();

    /**
     * @param trigger replaces the assigner's trigger
     * @return this
     */
    public S trigger(Trigger<T> trigger) {
        windows.trigger(trigger);
        return self();
    }

    /**
     * @param evictor evicts elements of either side
     * @return this
     */
    public S evictor(Evictor<T> evictor) {
        windows.evictor(evictor);
        return self();
    }

    /**
     * @param lateness allowed lateness, at least 0
     * @return this
     */
    public S allowedLateness(Duration lateness) {
        windows.allowedLateness(lateness);
        return self();
    }

    /**
     * @param handler receives elements of either side that no window took (Flink drops them silently)
     * @return this
     */
    public S sideOutputLateData(LateEventHandler<T> handler) {
        windows.sideOutputLateData(handler);
        return self();
    }

    /**
     * Flink's {@code sideOutputLateData(tag)}: elements of either side that no window took go to the side
     * output {@code tag} (counted anyway). Register its handler on the results, {@link WindowResults#sideOutput};
     * the engine does not start without one.
     *
     * @param tag the side output, of the engine's element type
     * @return this
     */
    public S sideOutputLateData(OutputTag<T> tag) {
        windows.sideOutputLateData(tag);
        return self();
    }

    /**
     * @param handler receives elements the assigner or trigger threw on, and results (or late elements) whose
     *                handler threw, and the window goes on; without one such an exception goes to the shard's
     *                error handling ({@link io.cepheus.runtime.CepEngine#close()} reports it). The join function itself runs on a
     *                whole window at its firing, so what it throws always goes there.
     * @return this
     */
    public S deadLetters(DeadLetterHandler<T> handler) {
        windows.deadLetters(handler);
        return self();
    }

    /**
     * As {@link #deadLetters(DeadLetterHandler)}, to the side output {@code tag} as {@link DeadLetter} records.
     * Register its handler on the results, {@link WindowResults#sideOutput}; the engine does not start without
     * one.
     *
     * @param tag the side output (e.g. {@code DeadLetter.tag("errors")})
     * @return this
     */
    public S sideOutputDeadLetters(OutputTag<DeadLetter> tag) {
        windows.sideOutputDeadLetters(tag);
        return self();
    }

    /** Registers the coGroup of both sides' elements of each window firing with {@code function}. */
    <OUT> WindowResults<OUT> coGroup(CoGroupFunction<L, R, OUT> function) {
        return windows.process(new CoGroupWindowFunction<>(left, right, function));
    }
}
