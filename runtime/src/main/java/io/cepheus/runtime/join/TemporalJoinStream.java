package io.cepheus.runtime.join;

import io.cepheus.runtime.DeadLetter;
import io.cepheus.runtime.DeadLetterHandler;
import io.cepheus.runtime.LateEventHandler;
import io.cepheus.runtime.OutputTag;
import io.cepheus.runtime.SideOutputHandler;
import io.cepheus.runtime.internal.join.TemporalJoinOperator;
import io.cepheus.runtime.internal.output.FailureRoute;
import io.cepheus.runtime.internal.output.SideOutputs;
import io.cepheus.runtime.internal.shard.OperatorRegistry;
import io.cepheus.runtime.internal.shard.UserFailures;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;

/**
 * A temporal join registered on an engine (see {@link TemporalJoin}). Stream elements and versions behind the
 * watermark ({@code ts < watermark}) are late: counted and sent to their late handler. Of a key's versions at or
 * before the watermark only the latest is kept; each key's latest version stays for as long as the engine runs.
 *
 * @param <T>   the engine's event type
 * @param <S>   the stream elements' type
 * @param <V>   the versions' type
 * @param <OUT> the result type
 */
public final class TemporalJoinStream<T, S, V, OUT> {

    private final OperatorRegistry<T> registry;
    private final TemporalJoinFunction<S, V, OUT> function;
    private volatile JoinResultHandler<OUT> results = (k, r, ts) -> { };
    private volatile UnmatchedHandler<S> unmatched = (k, e, ts, at) -> { };
    private volatile LateEventHandler<S> lateElements = (k, e, ts) -> { };
    private volatile LateEventHandler<V> lateVersions = (k, e, ts) -> { };
    private volatile DeadLetterHandler<Object> deadLetters;
    /** Where late elements, late versions and dead letters go instead of their handlers, when set. */
    private volatile OutputTag<S> lateElementsTag;
    private volatile OutputTag<V> lateVersionsTag;
    private volatile OutputTag<DeadLetter> deadLetterTag;
    private final SideOutputs sideOutputs = new SideOutputs("TemporalJoinStream");
    private final List<AtomicLongArray> counters = new CopyOnWriteArrayList<>();

    TemporalJoinStream(OperatorRegistry<T> registry, Function<? super T, ? extends S> streamSide,
            Function<? super T, ? extends V> versionSide, boolean joinMissingWithNull,
            TemporalJoinFunction<S, V, OUT> function, io.cepheus.runtime.internal.join.SideCodecs codecs) {
        this.registry = registry;
        this.function = function;
        registry.register("temporalJoin" + (joinMissingWithNull ? " missingAsNull" : ""), (id, shard) -> {
            AtomicLongArray published = new AtomicLongArray(TemporalJoinOperator.COUNTERS);
            counters.add(published);
            TemporalJoinOperator<T, S, V> operator = new TemporalJoinOperator<>(id, streamSide, versionSide,
                    joinMissingWithNull, shard.keys(), shard.timers(), output(shard.failures(), "temporal join " + id),
                    published);
            operator.snapshotCodecs(codecs);
            return operator;
        });
    }

    /**
     * @param handler receives each non-null result with the element's key and timestamp
     * @return this join
     */
    public TemporalJoinStream<T, S, V, OUT> results(JoinResultHandler<OUT> handler) {
        registry.checkNotStarted("results()");
        this.results = Objects.requireNonNull(handler, "handler");
        return this;
    }

    /**
     * @param handler receives elements with no version at their timestamp (unless they join with null);
     *                counted anyway
     * @return this join
     */
    public TemporalJoinStream<T, S, V, OUT> unmatched(UnmatchedHandler<S> handler) {
        registry.checkNotStarted("unmatched()");
        this.unmatched = Objects.requireNonNull(handler, "handler");
        return this;
    }

    /**
     * @param handler receives stream elements behind the watermark; counted anyway
     * @return this join
     */
    public TemporalJoinStream<T, S, V, OUT> lateElements(LateEventHandler<S> handler) {
        registry.checkNotStarted("lateElements()");
        this.lateElements = Objects.requireNonNull(handler, "handler");
        this.lateElementsTag = null;
        return this;
    }

    /**
     * Stream elements behind the watermark go to the side output {@code tag}, with their timestamp (counted
     * anyway), instead of to a {@link #lateElements} handler. Register its handler with {@link #sideOutput}; the
     * engine does not start without one.
     *
     * @param tag the side output, of the stream elements' type
     * @return this join
     */
    public TemporalJoinStream<T, S, V, OUT> sideOutputLateElements(OutputTag<S> tag) {
        registry.checkNotStarted("sideOutputLateElements()");
        this.lateElementsTag = Objects.requireNonNull(tag, "tag");
        return this;
    }

    /**
     * @param handler receives versions behind the watermark; counted anyway
     * @return this join
     */
    public TemporalJoinStream<T, S, V, OUT> lateVersions(LateEventHandler<V> handler) {
        registry.checkNotStarted("lateVersions()");
        this.lateVersions = Objects.requireNonNull(handler, "handler");
        this.lateVersionsTag = null;
        return this;
    }

    /**
     * As {@link #sideOutputLateElements}, for versions behind the watermark.
     *
     * @param tag the side output, of the versions' type
     * @return this join
     */
    public TemporalJoinStream<T, S, V, OUT> sideOutputLateVersions(OutputTag<V> tag) {
        registry.checkNotStarted("sideOutputLateVersions()");
        this.lateVersionsTag = Objects.requireNonNull(tag, "tag");
        return this;
    }

    /**
     * Routes elements the join function (or a handler) threw on to {@code handler} and goes on; without it such
     * an exception stops the shard and {@link io.cepheus.runtime.CepEngine#close()} reports it.
     *
     * @param handler receives the element, its timestamp and the exception
     * @return this join
     */
    public TemporalJoinStream<T, S, V, OUT> deadLetters(DeadLetterHandler<Object> handler) {
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
    public TemporalJoinStream<T, S, V, OUT> sideOutputDeadLetters(OutputTag<DeadLetter> tag) {
        registry.checkNotStarted("sideOutputDeadLetters()");
        this.deadLetterTag = Objects.requireNonNull(tag, "tag");
        return this;
    }

    /**
     * Registers where the records routed to {@code tag} go (late elements, late versions, dead letters).
     *
     * @param tag     the side output
     * @param handler receives its records, with their timestamps
     * @param <X>     their type
     * @return this join
     */
    public <X> TemporalJoinStream<T, S, V, OUT> sideOutput(OutputTag<X> tag, SideOutputHandler<X> handler) {
        registry.checkNotStarted("sideOutput()");
        sideOutputs.register(tag, handler);
        return this;
    }

    /** @return the counters summed over the shards, as of each shard's latest batch; any thread */
    public TemporalJoinMetrics metrics() {
        long[] sum = new long[TemporalJoinOperator.COUNTERS];
        for (AtomicLongArray c : counters) {
            for (int i = 0; i < sum.length; i++) {
                sum[i] += c.get(i);
            }
        }
        return new TemporalJoinMetrics(sum[TemporalJoinOperator.BUFFERED], sum[TemporalJoinOperator.VERSIONS],
                sum[TemporalJoinOperator.JOINED], sum[TemporalJoinOperator.UNMATCHED],
                sum[TemporalJoinOperator.LATE_ELEMENTS], sum[TemporalJoinOperator.LATE_VERSIONS],
                sum[TemporalJoinOperator.DEAD_LETTERS]);
    }

    private TemporalJoinOperator.Output<S, V> output(UserFailures failures, String operator) {
        JoinResultHandler<OUT> res = results;
        UnmatchedHandler<S> um = unmatched;
        SideOutputs.Frozen sides = sideOutputs.freeze();
        LateEventHandler<S> le = sides.lateOutput(lateElements, lateElementsTag, "late elements of " + operator);
        LateEventHandler<V> lv = sides.lateOutput(lateVersions, lateVersionsTag, "late versions of " + operator);
        DeadLetterHandler<Object> dead = sides.deadLetterOutput(deadLetters, deadLetterTag,
                "dead letters of " + operator);
        FailureRoute<Object> route = new FailureRoute<>(dead, failures, operator);
        return new TemporalJoinOperator.Output<>() {
            @Override
            public void joined(Object key, S element, V version, long timestamp) {
                OUT out = function.join(element, version);
                if (out != null) {
                    res.onResult(key, out, timestamp);
                }
            }

            @Override
            public void unmatched(Object key, S element, long timestamp) {
                um.onUnmatched(key, element, timestamp, timestamp);
            }

            @Override
            public void lateElement(Object key, S element, long timestamp) {
                route.late(le, "late-event handler", key, element, timestamp);
            }

            @Override
            public void lateVersion(Object key, V version, long timestamp) {
                route.late(lv, "late-event handler", key, version, timestamp);
            }

            @Override
            public void deadLetter(Object key, Object element, long timestamp, RuntimeException error) {
                route.failedInput("join function", key, element, timestamp, error);
            }
        };
    }
}
