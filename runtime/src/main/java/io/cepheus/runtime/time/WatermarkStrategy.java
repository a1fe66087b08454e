package io.cepheus.runtime.time;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How an input's events get their timestamps and how its watermarks are generated, as Flink's
 * {@code WatermarkStrategy}: a recipe of a {@link WatermarkGenerator}, a {@link TimestampAssigner}, optional
 * idleness detection and the interval of periodic watermark emission.
 *
 * <p>Immutable: every {@code with...} method returns a new strategy and leaves this one as it was, so a
 * strategy can be built once and shared by any number of inputs and threads. The runtime calls
 * {@link #createGenerator(Clock)} once per input and {@link #timestampAssigner()} to stamp events.
 *
 * <pre>{@code
 * WatermarkStrategy<Trade> strategy = WatermarkStrategy
 *         .<Trade>forBoundedOutOfOrderness(Duration.ofSeconds(5))
 *         .withTimestampAssigner((trade, recordTimestamp) -> trade.epochMillis())
 *         .withIdleness(Duration.ofMinutes(1));
 * }</pre>
 *
 * <p>(The type witness {@code .<Trade>} is needed when the assigner reads the event, as in Flink: without it
 * Java infers {@code Object} for the first call.)
 *
 * @param <T> the event type
 */
public final class WatermarkStrategy<T> {

    /** The interval of periodic watermark emission unless changed: 200 ms, Flink's default. */
    public static final Duration DEFAULT_AUTO_WATERMARK_INTERVAL = Duration.ofMillis(200);

    /** Stamps each event with the timestamp it was pushed with, Flink's default assigner. */
    private static final TimestampAssigner<Object> RECORD_TIMESTAMP = (event, recordTimestamp) -> recordTimestamp;

    private final Function<Clock, WatermarkGenerator<T>> generatorFactory;
    private final String generatorDescription;
    /** Null: the record timestamp. */
    private final TimestampAssigner<T> timestampAssigner;
    /** Null: no idleness detection. */
    private final Duration idleTimeout;
    private final Duration autoWatermarkInterval;

    private WatermarkStrategy(Function<Clock, WatermarkGenerator<T>> generatorFactory, String generatorDescription,
            TimestampAssigner<T> timestampAssigner, Duration idleTimeout, Duration autoWatermarkInterval) {
        this.generatorFactory = generatorFactory;
        this.generatorDescription = generatorDescription;
        this.timestampAssigner = timestampAssigner;
        this.idleTimeout = idleTimeout;
        this.autoWatermarkInterval = autoWatermarkInterval;
    }

    private static <T> WatermarkStrategy<T> of(Function<Clock, WatermarkGenerator<T>> factory, String description) {
        return new WatermarkStrategy<>(factory, description, null, null, DEFAULT_AUTO_WATERMARK_INTERVAL);
    }

    /**
     * For events that arrive out of order by at most a known bound: after an event with timestamp {@code T},
     * none older than {@code T - maxOutOfOrderness} is expected. On each periodic emit the watermark is the
     * largest timestamp seen so far minus {@code maxOutOfOrderness} minus 1 ms; nothing is emitted before the
     * first event.
     *
     * <pre>{@code
     * // events at 10_000 then 7_000: the watermark is 10_000 - 3_500 - 1 = 6_499
     * WatermarkStrategy<Reading> s = WatermarkStrategy.forBoundedOutOfOrderness(Duration.ofMillis(3_500));
     * }</pre>
     *
     * @param maxOutOfOrderness the bound; not negative, truncated to whole milliseconds (durations beyond the
     *     range of a long in milliseconds count as {@link Long#MAX_VALUE})
     * @param <T> the event type
     * @return the strategy, with the record timestamp as timestamp assigner until one is set
     * @throws NullPointerException if {@code maxOutOfOrderness} is null
     * @throws IllegalArgumentException if {@code maxOutOfOrderness} is negative
     */
    public static <T> WatermarkStrategy<T> forBoundedOutOfOrderness(Duration maxOutOfOrderness) {
        Objects.requireNonNull(maxOutOfOrderness, "maxOutOfOrderness");
        if (maxOutOfOrderness.isNegative()) {
            throw new IllegalArgumentException("maxOutOfOrderness must not be negative, got " + maxOutOfOrderness);
        }
        long bound = saturatedMillis(maxOutOfOrderness);
        return of(clock -> new BoundedOutOfOrdernessWatermarks<>(bound),
                "boundedOutOfOrderness=" + maxOutOfOrderness);
    }

    /**
     * For events whose timestamps never decrease: the watermark is the largest timestamp seen minus 1 ms, the same
     * as {@link #forBoundedOutOfOrderness} with a zero bound.
     *
     * <pre>{@code
     * WatermarkStrategy<Tick> s = WatermarkStrategy.<Tick>forMonotonousTimestamps()
     *         .withTimestampAssigner((tick, ts) -> tick.time());
     * }</pre>
     *
     * @param <T> the event type
     * @return the strategy
     */
    public static <T> WatermarkStrategy<T> forMonotonousTimestamps() {
        return of(clock -> new BoundedOutOfOrdernessWatermarks<>(0L), "monotonousTimestamps");
    }

    /**
     * For a custom generator, punctuated or periodic.
     *
     * <pre>{@code
     * WatermarkStrategy<Reading> s = WatermarkStrategy.forGenerator(MarkerWatermarks::new);
     * }</pre>
     *
     * @param generatorSupplier makes a new generator each time it is called (one per input; generators are not
     *     shared between inputs or threads)
     * @param <T> the event type
     * @return the strategy
     * @throws NullPointerException if {@code generatorSupplier} is null
     */
    public static <T> WatermarkStrategy<T> forGenerator(Supplier<? extends WatermarkGenerator<T>> generatorSupplier) {
        Objects.requireNonNull(generatorSupplier, "generatorSupplier");
        return of(clock -> Objects.requireNonNull(generatorSupplier.get(),
                "the generator supplier given to WatermarkStrategy.forGenerator returned null"), "custom generator");
    }

    /**
     * For inputs without event time progress: no watermark is ever generated. An input with this strategy holds
     * back the combined watermark of everything it feeds, unless {@link #withIdleness idleness} takes it out.
     *
     * <pre>{@code
     * WatermarkStrategy<Order> s = WatermarkStrategy.noWatermarks();
     * }</pre>
     *
     * @param <T> the event type
     * @return the strategy
     */
    public static <T> WatermarkStrategy<T> noWatermarks() {
        return of(clock -> NoWatermarks.instance(), "noWatermarks");
    }

    /**
     * Returns this strategy with a timestamp assigner, replacing any set before. Without one, events get the
     * timestamp they were pushed with.
     *
     * <pre>{@code
     * WatermarkStrategy.<Trade>forMonotonousTimestamps().withTimestampAssigner((t, ts) -> t.epochMillis());
     * }</pre>
     *
     * @param assigner extracts each event's timestamp; stateless, shared by all threads
     * @return the new strategy
     * @throws NullPointerException if {@code assigner} is null
     */
    public WatermarkStrategy<T> withTimestampAssigner(TimestampAssigner<T> assigner) {
        Objects.requireNonNull(assigner, "timestampAssigner");
        return new WatermarkStrategy<>(generatorFactory, generatorDescription, assigner, idleTimeout,
                autoWatermarkInterval);
    }

    /** @return the idleness timeout set by {@link #withIdleness}, if any */
    public java.util.Optional<Duration> idleTimeout() {
        return java.util.Optional.ofNullable(idleTimeout);
    }

    /**
     * Returns this strategy with idleness detection, replacing any timeout set before: an input that sent no
     * event for {@code idleTimeout} of the runtime clock's time, as observed at periodic emits, is marked idle so
     * it no longer holds back the combined watermark; its next event marks it active again. The engine's
     * shards also mark a source idle when nothing at all has come from it for {@code idleTimeout}, so a source
     * whose thread just stops calling {@code send} or {@code tick} does not hold the watermark back either; any
     * record from it makes it active again. It is never marked idle before {@code idleTimeout} has passed since its last event, and is marked within about the timeout
     * plus two {@link #autoWatermarkInterval() periodic intervals}.
     *
     * <pre>{@code
     * WatermarkStrategy.<Trade>forBoundedOutOfOrderness(Duration.ofSeconds(5)).withIdleness(Duration.ofMinutes(1));
     * }</pre>
     *
     * @param idleTimeout at least one millisecond, truncated to whole milliseconds (durations beyond the range
     *     of a long in milliseconds count as {@link Long#MAX_VALUE}, that is never)
     * @return the new strategy
     * @throws NullPointerException if {@code idleTimeout} is null
     * @throws IllegalArgumentException if {@code idleTimeout} is shorter than one millisecond
     */
    public WatermarkStrategy<T> withIdleness(Duration idleTimeout) {
        requireAtLeastOneMilli(idleTimeout, "idleTimeout");
        return new WatermarkStrategy<>(generatorFactory, generatorDescription, timestampAssigner, idleTimeout,
                autoWatermarkInterval);
    }

    /**
     * Returns this strategy with another interval of periodic watermark emission (Flink sets this on the
     * execution config; here it travels with the strategy). Shorter intervals make event time advance in finer
     * steps at the cost of more watermark records.
     *
     * <pre>{@code
     * WatermarkStrategy.<Trade>forMonotonousTimestamps().withAutoWatermarkInterval(Duration.ofMillis(50));
     * }</pre>
     *
     * @param interval at least one millisecond, truncated to whole milliseconds
     * @return the new strategy
     * @throws NullPointerException if {@code interval} is null
     * @throws IllegalArgumentException if {@code interval} is shorter than one millisecond
     */
    public WatermarkStrategy<T> withAutoWatermarkInterval(Duration interval) {
        requireAtLeastOneMilli(interval, "autoWatermarkInterval");
        return new WatermarkStrategy<>(generatorFactory, generatorDescription, timestampAssigner, idleTimeout,
                interval);
    }

    /**
     * Makes the generator for one input: a new instance per call (except for stateless generators), owned by the
     * thread that drives that input. With idleness configured, it is wrapped in idleness detection measured on
     * {@code clock}.
     *
     * @param clock the processing-time clock the generator may read (idleness is measured on it)
     * @return the generator
     * @throws NullPointerException if {@code clock} is null, or a custom generator supplier returned null
     */
    public WatermarkGenerator<T> createGenerator(Clock clock) {
        Objects.requireNonNull(clock, "clock");
        WatermarkGenerator<T> generator = generatorFactory.apply(clock);
        if (idleTimeout == null) {
            return generator;
        }
        return new IdlenessDetectingWatermarks<>(generator, saturatedMillis(idleTimeout), clock);
    }

    /**
     * @return the assigner set by {@link #withTimestampAssigner}, or one returning the record timestamp (which is
     *     {@link TimestampAssigner#NO_TIMESTAMP} for an event pushed without one)
     */
    @SuppressWarnings("unchecked")
    public TimestampAssigner<T> timestampAssigner() {
        return timestampAssigner != null ? timestampAssigner : (TimestampAssigner<T>) RECORD_TIMESTAMP;
    }

    /** @return the interval at which the runtime should call {@link WatermarkGenerator#onPeriodicEmit} */
    public Duration autoWatermarkInterval() {
        return autoWatermarkInterval;
    }

    /** @return {@link #autoWatermarkInterval()} in whole milliseconds, {@code >= 1} */
    public long autoWatermarkIntervalMillis() {
        return saturatedMillis(autoWatermarkInterval);
    }

    @Override
    public String toString() {
        return "WatermarkStrategy[" + generatorDescription
                + ", timestampAssigner=" + (timestampAssigner == null ? "record timestamp" : "custom")
                + (idleTimeout == null ? "" : ", idleTimeout=" + idleTimeout)
                + ", autoWatermarkInterval=" + autoWatermarkInterval + "]";
    }

    private static void requireAtLeastOneMilli(Duration duration, String name) {
        Objects.requireNonNull(duration, name);
        // the sign first: toMillis of a hugely negative duration would overflow and saturate to a valid-looking value
        if (duration.isNegative() || saturatedMillis(duration) < 1) {
            throw new IllegalArgumentException(name + " must be at least 1 ms, got " + duration);
        }
    }

    /** Whole milliseconds of a non-negative duration, {@link Long#MAX_VALUE} if it has more. */
    private static long saturatedMillis(Duration nonNegative) {
        try {
            return nonNegative.toMillis();
        } catch (ArithmeticException beyondLong) {
            return Long.MAX_VALUE;
        }
    }
}
