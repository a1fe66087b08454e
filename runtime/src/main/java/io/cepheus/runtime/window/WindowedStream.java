package io.cepheus.runtime.window;

import io.cepheus.runtime.DeadLetter;
import io.cepheus.runtime.DeadLetterHandler;
import io.cepheus.runtime.LateEventHandler;
import io.cepheus.runtime.OutputTag;
import io.cepheus.runtime.internal.shard.OperatorRegistry;
import io.cepheus.runtime.internal.window.PassThrough;
import io.cepheus.runtime.internal.window.SessionWindowOperator;
import io.cepheus.runtime.internal.window.SliceWindowOperator;
import io.cepheus.runtime.internal.window.WindowOperator;
import io.cepheus.runtime.internal.window.WindowSnapshots;
import io.cepheus.runtime.internal.window.WindowSpec;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * A keyed stream cut into windows (Flink's {@code WindowedStream}): configure the trigger, evictor, allowed
 * lateness, late-data output and accumulation mode, then finish with {@code reduce}, {@code aggregate} or
 * {@code process}, which registers the window operator on every shard and returns its {@link WindowResults}.
 *
 * <pre>{@code
 * engine.keyBy(Payment::user)
 *       .window(TumblingEventTimeWindows.of(Duration.ofMinutes(1)))
 *       .allowedLateness(Duration.ofSeconds(30))
 *       .sideOutputLateData((user, p, ts) -> late.add(p))
 *       .reduce((a, b) -> a.amount() >= b.amount() ? a : b)
 *       .results((user, window, largest, ts) -> System.out.println(user + " " + window + " " + largest));
 * }</pre>
 *
 * <p>Non-keyed windows are {@code engine.windowAll(assigner)} (short for {@code engine.all().window(assigner)}): one
 * engine has one key selector, so an engine with all-windows puts every event on one key (and one shard).
 *
 * <p>Configured on the thread that builds the engine, before it starts.
 *
 * @param <T> the element type
 */
public final class WindowedStream<T> {

    private final OperatorRegistry<T> registry;
    private final WindowAssigner<T> assigner;
    private Trigger<T> trigger;
    private Evictor<T> evictor;
    private long lateness;
    private LateEventHandler<T> lateHandler;
    private DeadLetterHandler<T> deadLetters;
    /** Set by the side-output forms: the results' tag handler, found when the engine starts. */
    private OutputTag<T> lateTag;
    private OutputTag<DeadLetter> deadLetterTag;
    private AccumulationMode mode = AccumulationMode.ACCUMULATING;
    private Predicate<? super T> accepts;
    private String description = "window";
    private io.cepheus.nfa.EventCodec<Object> stateCodec;

    /**
     * Made by {@link io.cepheus.runtime.KeyedStream#window} and the window joins; not meant to be called directly.
     *
     * @param registry where the window operator is registered
     * @param assigner puts elements into windows
     */
    public WindowedStream(OperatorRegistry<T> registry, WindowAssigner<T> assigner) {
        this.registry = registry;
        this.assigner = Objects.requireNonNull(assigner, "assigner");
        this.trigger = assigner.defaultTrigger();
    }

    /**
     * @param trigger replaces the assigner's default trigger
     * @return this stream
     */
    public WindowedStream<T> trigger(Trigger<T> trigger) {
        this.trigger = Objects.requireNonNull(trigger, "trigger");
        return this;
    }

    /**
     * @param evictor removes elements before/after the function (windows then keep all elements)
     * @return this
     */
    public WindowedStream<T> evictor(Evictor<T> evictor) {
        this.evictor = Objects.requireNonNull(evictor, "evictor");
        return this;
    }

    /**
     * Keeps each window's state until the watermark passes {@code end - 1 + lateness}; a late element within it
     * re-fires the window. Event time only (processing-time windows are removed at their end).
     *
     * @param lateness at least 0
     * @return this stream
     */
    public WindowedStream<T> allowedLateness(Duration lateness) {
        long ms = lateness.toMillis();
        if (ms < 0) {
            throw new IllegalArgumentException("The allowed lateness cannot be negative.");
        }
        this.lateness = ms;
        return this;
    }

    /**
     * @param handler receives elements dropped as late (counted anyway)
     * @return this stream
     */
    public WindowedStream<T> sideOutputLateData(LateEventHandler<T> handler) {
        this.lateHandler = Objects.requireNonNull(handler, "handler");
        this.lateTag = null;
        return this;
    }

    /**
     * Flink's {@code sideOutputLateData(tag)}: elements dropped as late (counted anyway) go to the side output
     * {@code tag}, record timestamp the element's time. Register its handler on the results,
     * {@link WindowResults#sideOutput}; the engine does not start without one.
     *
     * @param tag the side output
     * @return this stream
     */
    public WindowedStream<T> sideOutputLateData(OutputTag<T> tag) {
        this.lateTag = Objects.requireNonNull(tag, "tag");
        this.lateHandler = null;
        return this;
    }

    /**
     * @param handler receives elements a user function (assigner, trigger, reduce/aggregate) threw on; without
     *                one the exception stops the shard and {@link io.cepheus.runtime.CepEngine#close()} reports it. The element may have
     *                reached some of its windows before the exception.
     * @return this stream
     */
    public WindowedStream<T> deadLetters(DeadLetterHandler<T> handler) {
        this.deadLetters = Objects.requireNonNull(handler, "handler");
        this.deadLetterTag = null;
        return this;
    }

    /**
     * As {@link #deadLetters(DeadLetterHandler)}, but to the side output {@code tag} as {@link DeadLetter} records
     * (elements a user function threw on, and results whose handler threw). Register its handler on the results,
     * {@link WindowResults#sideOutput}; the engine does not start without one.
     *
     * @param tag the side output (e.g. {@code DeadLetter.tag("errors")})
     * @return this stream
     */
    public WindowedStream<T> sideOutputDeadLetters(OutputTag<DeadLetter> tag) {
        this.deadLetterTag = Objects.requireNonNull(tag, "tag");
        this.deadLetters = null;
        return this;
    }

    /**
     * @param mode accumulating (default), discarding or accumulating-and-retracting
     * @return this stream
     */
    public WindowedStream<T> accumulationMode(AccumulationMode mode) {
        this.mode = Objects.requireNonNull(mode, "mode");
        return this;
    }

    /** Restricts the operator to some elements (window joins take their two sides only). */
    WindowedStream<T> accepting(Predicate<? super T> predicate, String what) {
        this.accepts = predicate;
        this.description = what;
        return this;
    }

    /**
     * Gives the codec for the values a process function keeps in {@code windowState()} and {@code globalState()},
     * so that they take part in snapshots ({@link io.cepheus.runtime.CepEngine.Builder#snapshots}). On an engine with snapshots and
     * no such codec, storing a value there fails as an error of the function.
     *
     * @param codec writes and reads every value the function stores
     * @return this stream
     */
    public WindowedStream<T> stateCodec(io.cepheus.nfa.EventCodec<Object> codec) {
        this.stateCodec = Objects.requireNonNull(codec, "codec");
        return this;
    }

    /**
     * Reduces each window to one value (one value kept per window, never its elements).
     *
     * @param function combines two elements
     * @return the results: one value per firing
     */
    public WindowResults<T> reduce(ReduceFunction<T> function) {
        return register(Objects.requireNonNull(function, "function"), null, new PassThrough<>(), "reduce", null);
    }

    /**
     * Reduces incrementally, then hands the one value to a process function for the window's metadata.
     *
     * @param function combines two elements
     * @param process  receives the reduced value
     * @param <R>      its result type
     * @return the results
     */
    public <R> WindowResults<R> reduce(ReduceFunction<T> function, ProcessWindowFunction<T, R> process) {
        return register(Objects.requireNonNull(function, "function"), null,
                Objects.requireNonNull(process, "process"), "reduce+process", null);
    }

    /**
     * Aggregates each window into one accumulator.
     *
     * @param function the aggregate function
     * @param <A>      its accumulator type
     * @param <V>      its result type
     * @return the results
     */
    public <A, V> WindowResults<V> aggregate(AggregateFunction<T, A, V> function) {
        return register(null, Objects.requireNonNull(function, "function"), new PassThrough<>(), "aggregate", null);
    }

    /**
     * Aggregates each window into one accumulator, as {@link #aggregate(AggregateFunction)}, with a codec for the
     * accumulators so that the window takes part in snapshots ({@link io.cepheus.runtime.CepEngine.Builder#snapshots}); not in
     * accumulating-and-retracting mode, where each window keeps the results it emitted last, which have no codec
     * (see the README's "Windows" section for what else a snapshotted window needs).
     *
     * @param function         the aggregate function
     * @param accumulatorCodec writes and reads its accumulators (the snapshot holds one per slice or session, see
     *                         the README's "Windows" section)
     * @param <A>              its accumulator type
     * @param <V>              its result type
     * @return the results
     */
    public <A, V> WindowResults<V> aggregate(AggregateFunction<T, A, V> function,
            io.cepheus.nfa.EventCodec<A> accumulatorCodec) {
        return register(null, Objects.requireNonNull(function, "function"), new PassThrough<>(), "aggregate",
                Objects.requireNonNull(accumulatorCodec, "accumulatorCodec"));
    }

    /**
     * Aggregates incrementally, then hands the result to a process function for the window's metadata.
     *
     * @param function the aggregate function
     * @param process  receives the aggregate's result
     * @param <A>      accumulator type
     * @param <V>      aggregate result type
     * @param <R>      final result type
     * @return the results
     */
    public <A, V, R> WindowResults<R> aggregate(AggregateFunction<T, A, V> function,
            ProcessWindowFunction<V, R> process) {
        return register(null, Objects.requireNonNull(function, "function"), Objects.requireNonNull(process, "process"),
                "aggregate+process", null);
    }

    /**
     * Aggregates incrementally, then hands the result to a process function, as
     * {@link #aggregate(AggregateFunction, ProcessWindowFunction)}, with a codec for the accumulators so that the
     * window takes part in snapshots.
     *
     * @param function         the aggregate function
     * @param process          receives the aggregate's result
     * @param accumulatorCodec writes and reads its accumulators
     * @param <A>              accumulator type
     * @param <V>              aggregate result type
     * @param <R>              final result type
     * @return the results
     */
    public <A, V, R> WindowResults<R> aggregate(AggregateFunction<T, A, V> function,
            ProcessWindowFunction<V, R> process, io.cepheus.nfa.EventCodec<A> accumulatorCodec) {
        return register(null, Objects.requireNonNull(function, "function"), Objects.requireNonNull(process, "process"),
                "aggregate+process", Objects.requireNonNull(accumulatorCodec, "accumulatorCodec"));
    }

    /**
     * Evaluates each window from all its elements (kept in the window until it is removed).
     *
     * @param process the process function
     * @param <R>     its result type
     * @return the results
     */
    public <R> WindowResults<R> process(ProcessWindowFunction<T, R> process) {
        return register(null, null, Objects.requireNonNull(process, "process"), "process", null);
    }

    @SuppressWarnings("unchecked")
    private <V, R> WindowResults<R> register(ReduceFunction<T> reduce, AggregateFunction<T, ?, ?> aggregate,
            ProcessWindowFunction<?, R> process, String function, io.cepheus.nfa.EventCodec<?> accumulatorCodec) {
        registry.checkNotStarted("window " + function + "()");
        Trigger<T> effective = trigger;
        if (mode == AccumulationMode.DISCARDING) {
            effective = PurgingTrigger.of(effective);
        } else if (mode == AccumulationMode.ACCUMULATING_AND_RETRACTING && effective instanceof PurgingTrigger) {
            throw new IllegalArgumentException("accumulating-and-retracting mode needs a trigger that keeps the"
                    + " contents; " + effective + " purges them (use DISCARDING mode instead)");
        }
        if (assigner instanceof MergingWindowAssigner && !effective.canMerge()) {
            throw new UnsupportedOperationException("A merging window assigner (" + assigner + ") cannot be used"
                    + " with a trigger that does not support merging: " + effective);
        }
        String name = description + " " + assigner + " " + function;
        WindowSpec<T, V, R> spec = new WindowSpec<>(assigner, effective, evictor, lateness, reduce,
                (AggregateFunction<T, Object, V>) aggregate, (ProcessWindowFunction<V, R>) process, mode, accepts);
        String refusal = WindowSnapshots.refusal(spec, accumulatorCodec);
        if (registry.snapshotsEnabled() && refusal != null) {
            throw new IllegalStateException("the engine has snapshots enabled (Builder.snapshots), but operator '"
                    + name + "' cannot take part: " + refusal);
        }
        io.cepheus.nfa.EventCodec<Object> accumulators = (io.cepheus.nfa.EventCodec<Object>) accumulatorCodec;
        WindowResults<R> results = new WindowResults<>(registry, mode);
        LateEventHandler<T> late = lateHandler;
        DeadLetterHandler<T> dead = deadLetters;
        OutputTag<T> lateTo = lateTag;
        OutputTag<DeadLetter> deadTo = deadLetterTag;
        boolean snapshots = registry.snapshotsEnabled();
        io.cepheus.nfa.EventCodec<Object> states = stateCodec;
        int id = registry.register(name, (operatorId, shard) -> {
            java.util.concurrent.atomic.AtomicLongArray published =
                    new java.util.concurrent.atomic.AtomicLongArray(WindowOperator.METRICS);
            results.addShard(published);
            var output = results.<T>output(late, lateTo, dead, deadTo, shard.failures());
            if (SliceWindowOperator.supports(spec)) {
                return new SliceWindowOperator<>(operatorId, shard.keys(), shard.timers(), shard.clock(), spec, output,
                        published, accumulators, snapshots, states);
            }
            if (SessionWindowOperator.supports(spec)) {
                return new SessionWindowOperator<>(operatorId, shard.keys(), shard.timers(), shard.clock(), spec,
                        output, published, accumulators);
            }
            return new WindowOperator<>(operatorId, shard.keys(), shard.timers(), shard.clock(), spec, output,
                    published, snapshots, accumulators, states);
        });
        results.id(id);
        return results;
    }
}
