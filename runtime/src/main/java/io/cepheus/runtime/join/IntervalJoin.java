package io.cepheus.runtime.join;

import io.cepheus.runtime.internal.join.SideCodecs;
import io.cepheus.runtime.internal.shard.OperatorRegistry;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * An interval join being configured: both inputs are elements of the engine's keyed stream, told apart by the
 * side selectors; a left and a right element of the same key join when
 * {@code left.ts + lower <= right.ts <= left.ts + upper}. Event time.
 *
 * <pre>{@code
 * engine.keyBy(Event::orderId)
 *       .intervalJoin(Order.class, Payment.class)
 *       .between(Duration.ZERO, Duration.ofMinutes(5))
 *       .leftOuter()                                  // orders without payment come with null
 *       .process((order, payment, ctx, out) -> out.collect(payment == null ? "UNPAID " + order : "PAID " + order))
 *       .results((key, line, ts) -> System.out.println(line));
 * }</pre>
 *
 * <p>Configured on the thread that sets up the engine, before it starts.
 *
 * @param <T> the engine's event type
 * @param <L> the left elements' type
 * @param <R> the right elements' type
 */
public final class IntervalJoin<T, L, R> {

    private final OperatorRegistry<T> registry;
    private final Function<? super T, ? extends L> leftSide;
    private final Function<? super T, ? extends R> rightSide;
    private Long lower;
    private Long upper;
    private boolean lowerExclusive;
    private boolean upperExclusive;
    private boolean leftOuter;
    private boolean rightOuter;
    /** Whether each side's elements are the events themselves (sides chosen by class), so the event codec fits. */
    private final boolean sidesAreEvents;
    private io.cepheus.nfa.EventCodec<L> leftCodec;
    private io.cepheus.nfa.EventCodec<R> rightCodec;

    /**
     * Made by {@link io.cepheus.runtime.KeyedStream#intervalJoin}; not meant to be called directly.
     *
     * @param registry       where the join's operator is registered
     * @param leftSide       the left element of an event, or null
     * @param rightSide      the right element of an event, or null
     * @param sidesAreEvents whether the elements are the events themselves (sides chosen by class), so the
     *                       engine's event codec writes them
     */
    public IntervalJoin(OperatorRegistry<T> registry, Function<? super T, ? extends L> leftSide,
            Function<? super T, ? extends R> rightSide, boolean sidesAreEvents) {
        this.registry = registry;
        this.leftSide = Objects.requireNonNull(leftSide, "leftSide");
        this.rightSide = Objects.requireNonNull(rightSide, "rightSide");
        this.sidesAreEvents = sidesAreEvents;
    }

    /**
     * Gives codecs for the elements the join buffers, so that it takes part in snapshots
     * ({@link io.cepheus.runtime.CepEngine.Builder#snapshots}). Needed only when the sides are selected by functions: with sides
     * selected by class the elements are events, written with the engine's event codec.
     *
     * @param left  writes and reads left elements
     * @param right writes and reads right elements
     * @return this join
     */
    public IntervalJoin<T, L, R> snapshotCodecs(io.cepheus.nfa.EventCodec<L> left, io.cepheus.nfa.EventCodec<R> right) {
        registry.checkNotStarted("snapshotCodecs()");
        this.leftCodec = Objects.requireNonNull(left, "left");
        this.rightCodec = Objects.requireNonNull(right, "right");
        return this;
    }

    /**
     * Sets the interval, both bounds inclusive unless made exclusive: a right element joins a left one when
     * {@code right.ts ∈ [left.ts + lower, left.ts + upper]}. Either bound may be negative.
     *
     * @param lower the lower bound (milliseconds are kept)
     * @param upper the upper bound
     * @return this join
     * @throws IllegalArgumentException if {@code lower > upper} (checked before exclusiveness shifts them, as
     *                                  Flink does: {@code [0, 0]} with an exclusive bound is accepted and never joins)
     */
    public IntervalJoin<T, L, R> between(Duration lower, Duration upper) {
        registry.checkNotStarted("between()");
        long lo = millis(lower, "lower");
        long hi = millis(upper, "upper");
        if (lo > hi) {
            throw new IllegalArgumentException("lowerBound <= upperBound must be fulfilled: lower " + lo
                    + " ms is above upper " + hi + " ms");
        }
        this.lower = lo;
        this.upper = hi;
        return this;
    }

    /** @return this join, the lower bound excluded (it moves up by 1 ms) */
    public IntervalJoin<T, L, R> lowerBoundExclusive() {
        registry.checkNotStarted("lowerBoundExclusive()");
        this.lowerExclusive = true;
        return this;
    }

    /** @return this join, the upper bound excluded (it moves down by 1 ms) */
    public IntervalJoin<T, L, R> upperBoundExclusive() {
        registry.checkNotStarted("upperBoundExclusive()");
        this.upperExclusive = true;
        return this;
    }

    /**
     * Emits each left element that found no partner once its interval has closed (the watermark passed
     * {@code left.ts + upper}): the join function receives it with a {@code null} right element. Flink's interval
     * join is inner only.
     *
     * @return this join
     */
    public IntervalJoin<T, L, R> leftOuter() {
        registry.checkNotStarted("leftOuter()");
        this.leftOuter = true;
        return this;
    }

    /**
     * Emits each right element that found no partner once the watermark passed {@code right.ts - lower}, with a
     * {@code null} left element.
     *
     * @return this join
     */
    public IntervalJoin<T, L, R> rightOuter() {
        registry.checkNotStarted("rightOuter()");
        this.rightOuter = true;
        return this;
    }

    /** @return this join, both {@link #leftOuter()} and {@link #rightOuter()} */
    public IntervalJoin<T, L, R> fullOuter() {
        return leftOuter().rightOuter();
    }

    /**
     * Registers the join with the engine.
     *
     * @param function called for every pair (and unmatched element of an outer side)
     * @param <OUT>    its results' type
     * @return the registered join, to say where results, late and unmatched elements go
     * @throws IllegalStateException if {@link #between} was not called, or the engine takes snapshots and the
     *                               sides, selected by functions, have no {@link #snapshotCodecs}
     */
    public <OUT> IntervalJoinStream<T, L, R, OUT> process(ProcessJoinFunction<L, R, OUT> function) {
        Objects.requireNonNull(function, "function");
        if (lower == null) {
            throw new IllegalStateException("call between(lower, upper) before process()");
        }
        if (registry.snapshotsEnabled() && !sidesAreEvents && leftCodec == null) {
            throw new IllegalStateException("interval join [" + lower + ", " + upper + "]: this engine takes"
                    + " snapshots (Builder.snapshots), and this join's sides are selected by functions, so its"
                    + " elements need codecs of their own: call snapshotCodecs(left, right) (sides selected by class"
                    + " are events, written with the engine's event codec)");
        }
        long lo = lowerExclusive ? lower + 1 : lower;
        long hi = upperExclusive ? upper - 1 : upper;
        return new IntervalJoinStream<>(registry, leftSide, rightSide, lo, hi, leftOuter, rightOuter, function,
                SideCodecs.of(sidesAreEvents, leftCodec, rightCodec));
    }

    private static long millis(Duration d, String name) {
        Objects.requireNonNull(d, name);
        try {
            return d.toMillis();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(name + " bound " + d + " does not fit in a long of milliseconds", e);
        }
    }
}
