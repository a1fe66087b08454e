package io.cepheus.runtime.join;

import io.cepheus.runtime.Collector;
import io.cepheus.runtime.DeadLetter;
import io.cepheus.runtime.DeadLetterHandler;
import io.cepheus.runtime.LateEventHandler;
import io.cepheus.runtime.OutputTag;
import io.cepheus.runtime.SideOutputHandler;
import io.cepheus.runtime.internal.join.IntervalJoinOperator;
import io.cepheus.runtime.internal.join.SideCodecs;
import io.cepheus.runtime.internal.output.CallContext;
import io.cepheus.runtime.internal.output.FailureRoute;
import io.cepheus.runtime.internal.output.SideOutputs;
import io.cepheus.runtime.internal.shard.OperatorRegistry;
import io.cepheus.runtime.internal.shard.UserFailures;
import io.cepheus.runtime.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * An interval join registered on an engine (see {@link IntervalJoin}): set where its results, late and unmatched
 * elements go before the engine starts, and read its {@link #metrics()} at any time. Every shard runs its own
 * operator over the keys it owns; handlers run on the shard threads.
 *
 * <ul>
 *   <li>An element is late if its timestamp is below the join's watermark (the minimum of both inputs'), as in
 *       Flink: it goes to its side's late handler and is counted, never joined.</li>
 *   <li>A left element is held until the watermark passes {@code left.ts + upper}, a right element until it
 *       passes {@code right.ts - lower}; then it is dropped, and if it never found a partner it is unmatched:
 *       counted, given to the join function with a null partner on an outer side, and to the side's unmatched
 *       handler if set.</li>
 * </ul>
 *
 * @param <T>   the engine's event type
 * @param <L>   the left elements' type
 * @param <R>   the right elements' type
 * @param <OUT> the join function's results' type
 */
public final class IntervalJoinStream<T, L, R, OUT> {

    private final OperatorRegistry<T> registry;
    private final ProcessJoinFunction<L, R, OUT> function;
    private final boolean leftOuter;
    private final boolean rightOuter;
    private final long lower;
    private final long upper;
    private volatile JoinResultHandler<OUT> results = (k, r, ts) -> { };
    private volatile LateEventHandler<L> lateLeft = (k, e, ts) -> { };
    private volatile LateEventHandler<R> lateRight = (k, e, ts) -> { };
    private volatile UnmatchedHandler<L> unmatchedLeft;
    private volatile UnmatchedHandler<R> unmatchedRight;
    private volatile DeadLetterHandler<Object> deadLetters;
    /** Where late elements and dead letters go instead of their handlers, when set (Flink's {@code OutputTag}s). */
    private volatile OutputTag<L> lateLeftTag;
    private volatile OutputTag<R> lateRightTag;
    private volatile OutputTag<DeadLetter> deadLetterTag;
    private final SideOutputs sideOutputs = new SideOutputs("IntervalJoinStream");
    /** Each shard's published counters (one array per shard operator, written by its thread). */
    private final List<AtomicLongArray> counters = new CopyOnWriteArrayList<>();


    IntervalJoinStream(OperatorRegistry<T> registry, Function<? super T, ? extends L> leftSide,
            Function<? super T, ? extends R> rightSide, long lower, long upper, boolean leftOuter,
            boolean rightOuter, ProcessJoinFunction<L, R, OUT> function, SideCodecs codecs) {
        this.registry = registry;
        this.function = function;
        this.leftOuter = leftOuter;
        this.rightOuter = rightOuter;
        this.lower = lower;
        this.upper = upper;
        String description = "intervalJoin[" + lower + "," + upper + "]" + (leftOuter ? " leftOuter" : "")
                + (rightOuter ? " rightOuter" : "");
        registry.register(description, (id, shard) -> {
            AtomicLongArray published = new AtomicLongArray(IntervalJoinOperator.COUNTERS);
            counters.add(published);
            IntervalJoinOperator<T, L, R> operator = new IntervalJoinOperator<>(id, leftSide, rightSide, lower, upper,
                    shard.keys(), shard.timers(),
                    output(shard::watermark, shard.clock(), shard.failures(), "interval join " + id), published);
            operator.snapshotCodecs(codecs);
            return operator;
        });
    }

    /**
     * @param handler receives every result the join function emits, with the pair's key and timestamp
     * @return this join
     */
    public IntervalJoinStream<T, L, R, OUT> results(JoinResultHandler<OUT> handler) {
        registry.checkNotStarted("results()");
        this.results = Objects.requireNonNull(handler, "handler");
        return this;
    }

    /**
     * @param handler receives left elements behind the watermark (Flink's {@code sideOutputLeftLateData});
     *                counted anyway
     * @return this join
     */
    public IntervalJoinStream<T, L, R, OUT> lateLeft(LateEventHandler<L> handler) {
        registry.checkNotStarted("lateLeft()");
        this.lateLeft = Objects.requireNonNull(handler, "handler");
        this.lateLeftTag = null;
        return this;
    }

    /**
     * Flink's {@code sideOutputLeftLateData(tag)}: left elements behind the watermark go to the side output
     * {@code tag}, with their timestamp (counted anyway), instead of to a {@link #lateLeft} handler. Register its
     * handler with {@link #sideOutput}; the engine does not start without one.
     *
     * @param tag the side output, of the left elements' type
     * @return this join
     */
    public IntervalJoinStream<T, L, R, OUT> sideOutputLeftLateData(OutputTag<L> tag) {
        registry.checkNotStarted("sideOutputLeftLateData()");
        this.lateLeftTag = Objects.requireNonNull(tag, "tag");
        return this;
    }

    /**
     * @param handler receives right elements behind the watermark; counted anyway
     * @return this join
     */
    public IntervalJoinStream<T, L, R, OUT> lateRight(LateEventHandler<R> handler) {
        registry.checkNotStarted("lateRight()");
        this.lateRight = Objects.requireNonNull(handler, "handler");
        this.lateRightTag = null;
        return this;
    }

    /**
     * Flink's {@code sideOutputRightLateData(tag)}: as {@link #sideOutputLeftLateData}, for right elements.
     *
     * @param tag the side output, of the right elements' type
     * @return this join
     */
    public IntervalJoinStream<T, L, R, OUT> sideOutputRightLateData(OutputTag<R> tag) {
        registry.checkNotStarted("sideOutputRightLateData()");
        this.lateRightTag = Objects.requireNonNull(tag, "tag");
        return this;
    }

    /**
     * Receives left elements whose interval closed without a partner, at that moment (besides the join
     * function's null-partner call of a left outer join); works for inner joins too.
     *
     * @param handler the unmatched-left output
     * @return this join
     */
    public IntervalJoinStream<T, L, R, OUT> unmatchedLeft(UnmatchedHandler<L> handler) {
        registry.checkNotStarted("unmatchedLeft()");
        this.unmatchedLeft = Objects.requireNonNull(handler, "handler");
        return this;
    }

    /**
     * As {@link #unmatchedLeft}, for right elements.
     *
     * @param handler the unmatched-right output
     * @return this join
     */
    public IntervalJoinStream<T, L, R, OUT> unmatchedRight(UnmatchedHandler<R> handler) {
        registry.checkNotStarted("unmatchedRight()");
        this.unmatchedRight = Objects.requireNonNull(handler, "handler");
        return this;
    }

    /**
     * Routes pairs (and unmatched elements) the join function threw on to {@code handler}, reported with the
     * later element of the pair, and goes on; without it such an exception stops the shard and
     * {@link io.cepheus.runtime.CepEngine#close()} reports it.
     *
     * @param handler receives the element, its timestamp and the exception
     * @return this join
     */
    public IntervalJoinStream<T, L, R, OUT> deadLetters(DeadLetterHandler<Object> handler) {
        registry.checkNotStarted("deadLetters()");
        this.deadLetters = Objects.requireNonNull(handler, "handler");
        this.deadLetterTag = null;
        return this;
    }

    /**
     * As {@link #deadLetters(DeadLetterHandler)}, to the side output {@code tag} as {@link DeadLetter} records.
     * Register its handler with {@link #sideOutput}; the engine does not start without one.
     *
     * @param tag the side output (e.g. {@code DeadLetter.tag("errors")})
     * @return this join
     */
    public IntervalJoinStream<T, L, R, OUT> sideOutputDeadLetters(OutputTag<DeadLetter> tag) {
        registry.checkNotStarted("sideOutputDeadLetters()");
        this.deadLetterTag = Objects.requireNonNull(tag, "tag");
        return this;
    }

    /**
     * Registers where records the join function emits to {@code tag} go.
     *
     * @param tag     the side output
     * @param handler receives its records, with the pair's timestamp
     * @param <X>     their type
     * @return this join
     */
    public <X> IntervalJoinStream<T, L, R, OUT> sideOutput(OutputTag<X> tag, SideOutputHandler<X> handler) {
        registry.checkNotStarted("sideOutput()");
        sideOutputs.register(tag, handler);
        return this;
    }

    /** @return the effective lower bound in ms (exclusiveness applied) */
    public long lowerBound() {
        return lower;
    }

    /** @return the effective upper bound in ms (exclusiveness applied) */
    public long upperBound() {
        return upper;
    }

    /** @return the counters summed over the shards, as of each shard's latest batch; any thread */
    public IntervalJoinMetrics metrics() {
        long[] sum = new long[IntervalJoinOperator.COUNTERS];
        for (AtomicLongArray c : counters) {
            for (int i = 0; i < sum.length; i++) {
                sum[i] += c.get(i);
            }
        }
        return new IntervalJoinMetrics(sum[IntervalJoinOperator.BUFFERED_LEFT],
                sum[IntervalJoinOperator.BUFFERED_RIGHT], sum[IntervalJoinOperator.PEAK_LEFT],
                sum[IntervalJoinOperator.PEAK_RIGHT], sum[IntervalJoinOperator.PAIRS],
                sum[IntervalJoinOperator.UNMATCHED_LEFT], sum[IntervalJoinOperator.UNMATCHED_RIGHT],
                sum[IntervalJoinOperator.LATE_LEFT], sum[IntervalJoinOperator.LATE_RIGHT],
                sum[IntervalJoinOperator.DEAD_LETTERS]);
    }

    /** The output of one shard's operator (single-threaded: its context and collector are reused). */
    private IntervalJoinOperator.Output<L, R> output(LongSupplier watermark, Clock clock, UserFailures failures,
            String operator) {
        JoinResultHandler<OUT> res = results;
        SideOutputs.Frozen sides = sideOutputs.freeze();
        LateEventHandler<L> ll = sides.lateOutput(lateLeft, lateLeftTag, "late left elements of " + operator);
        LateEventHandler<R> lr = sides.lateOutput(lateRight, lateRightTag, "late right elements of " + operator);
        UnmatchedHandler<L> ul = unmatchedLeft;
        UnmatchedHandler<R> ur = unmatchedRight;
        DeadLetterHandler<Object> dead = sides.deadLetterOutput(deadLetters, deadLetterTag,
                "dead letters of " + operator);
        FailureRoute<Object> route = new FailureRoute<>(dead, failures, operator);
        JoinContext ctx = new JoinContext(sides, watermark, clock, res);
        return new IntervalJoinOperator.Output<>() {
            @Override
            public void pair(Object key, L left, long leftTs, R right, long rightTs, long timestamp) {
                ctx.set(key, leftTs, rightTs, timestamp);
                function.processElement(left, right, ctx, ctx);
            }

            @Override
            public void unmatchedLeft(Object key, L left, long timestamp, long closedAt) {
                if (leftOuter) {
                    ctx.set(key, timestamp, Long.MIN_VALUE, closedAt);
                    function.processElement(left, null, ctx, ctx);
                }
                if (ul != null) {
                    ul.onUnmatched(key, left, timestamp, closedAt);
                }
            }

            @Override
            public void unmatchedRight(Object key, R right, long timestamp, long closedAt) {
                if (rightOuter) {
                    ctx.set(key, Long.MIN_VALUE, timestamp, closedAt);
                    function.processElement(null, right, ctx, ctx);
                }
                if (ur != null) {
                    ur.onUnmatched(key, right, timestamp, closedAt);
                }
            }

            @Override
            public void lateLeft(Object key, L left, long timestamp) {
                route.late(ll, "late-event handler", key, left, timestamp);
            }

            @Override
            public void lateRight(Object key, R right, long timestamp) {
                route.late(lr, "late-event handler", key, right, timestamp);
            }

            @Override
            public void deadLetter(Object key, Object element, long timestamp, RuntimeException error) {
                route.failedInput("join function", key, element, timestamp, error);
            }
        };
    }

    /** Context and collector of one shard's join-function calls; reused for each pair. */
    private final class JoinContext extends CallContext implements ProcessJoinFunction.Context, Collector<OUT> {
        private final JoinResultHandler<OUT> results;
        private Object key;
        private long leftTimestamp;
        private long rightTimestamp;

        JoinContext(SideOutputs.Frozen sideOutputs, LongSupplier watermark, Clock clock,
                JoinResultHandler<OUT> results) {
            super(sideOutputs, watermark, clock);
            this.results = results;
        }

        void set(Object key, long leftTs, long rightTs, long ts) {
            this.key = key;
            this.leftTimestamp = leftTs;
            this.rightTimestamp = rightTs;
            this.timestamp = ts;
        }

        @Override
        public void collect(OUT result) {
            results.onResult(key, result, timestamp);
        }

        @Override
        public Object key() {
            return key;
        }

        @Override
        public long leftTimestamp() {
            return leftTimestamp;
        }

        @Override
        public long rightTimestamp() {
            return rightTimestamp;
        }
    }
}
