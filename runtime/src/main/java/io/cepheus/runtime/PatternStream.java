package io.cepheus.runtime;

import io.cepheus.nfa.CompiledPattern;
import io.cepheus.nfa.Match;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.nfa.PartialMatchLimitException;
import io.cepheus.nfa.SkipStrategyException;
import io.cepheus.runtime.internal.cep.CepOperator;
import io.cepheus.runtime.internal.cep.TraceQuestion;
import io.cepheus.runtime.internal.shard.KeyInspection;
import io.cepheus.runtime.internal.output.CallContext;
import io.cepheus.runtime.internal.output.FailureRoute;
import io.cepheus.runtime.internal.output.SideOutputs;
import io.cepheus.runtime.internal.shard.OperatorRegistry;
import io.cepheus.runtime.internal.shard.ShardRecord;
import io.cepheus.runtime.internal.shard.UserFailures;
import io.cepheus.runtime.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * One pattern registered on an engine's keyed stream: set where its matches, timeouts and late events go
 * before the engine starts. Every shard runs its own operator for the pattern, over the keys it owns.
 *
 * @param <T> the event type
 */
public final class PatternStream<T> {

    private final OperatorRegistry<T> registry;
    private final int id;
    private final CompiledPattern<T> pattern;
    private static final MatchHandler<Object> DEFAULT_MATCHES = (k, m, ts) -> { };
    @SuppressWarnings({"unchecked", "rawtypes"})
    private volatile MatchHandler<T> matches = (MatchHandler) DEFAULT_MATCHES;
    private static final TimeoutHandler<Object> NO_TIMEOUTS = (k, m, ts) -> { };
    @SuppressWarnings({"unchecked", "rawtypes"})
    private volatile TimeoutHandler<T> timeouts = (TimeoutHandler) NO_TIMEOUTS;
    private volatile LateEventHandler<T> lateEvents = (k, e, ts) -> { };
    private volatile DeadLetterHandler<T> deadLetters;
    /** Set by the side-output forms ({@link #sideOutputLateData} ...): they find their tag's handler at start. */
    private volatile Function<SideOutputs.Frozen, LateEventHandler<T>> lateRoute;
    private volatile Function<SideOutputs.Frozen, TimeoutHandler<T>> timeoutRoute;
    private volatile Function<SideOutputs.Frozen, DeadLetterHandler<T>> deadLetterRoute;
    private volatile PatternProcessFunction<T> process;
    private volatile boolean processingTime;
    private final SideOutputs sideOutputs = new SideOutputs("PatternStream");
    /** The pattern's operator on each shard, for its published counters. */
    private final List<CepOperator<T>> operators = new CopyOnWriteArrayList<>();
    private final boolean countsStages;

    /** Registers the pattern: every shard runs its own operator for it, over the keys it owns. */
    PatternStream(OperatorRegistry<T> registry, CompiledPattern<T> pattern, Comparator<? super T> tieBreaker,
            NfaOptions options) {
        this.registry = registry;
        this.pattern = pattern;
        this.countsStages = options.stageCounters();
        this.id = registry.register(describe(pattern), (operatorId, shard) -> {
            CepOperator<T> operator = new CepOperator<>(operatorId, pattern, options, tieBreaker, shard.keys(),
                    shard.timers(), output(operatorId, shard::watermark, shard.clock(), shard.failures()));
            if (processingTime) {
                operator.inProcessingTime(shard.clock());
            } else {
                operator.shareBuffer(shard.patternBuffer(tieBreaker));
            }
            operators.add(operator);
            return operator;
        });
    }

    /**
     * What a snapshot calls a pattern: stage names alone would let a state continue under another window,
     * quantifier or contiguity, so the structure's fingerprint is part of it. Conditions cannot be compared.
     */
    private static String describe(CompiledPattern<?> pattern) {
        return "pattern " + pattern.stageNames()
                + (pattern.windowMillis() > 0 ? " within " + pattern.windowMillis() + " ms" : "") + ", "
                + pattern.skipStrategy().kind() + ", structure " + Long.toHexString(pattern.structureFingerprint());
    }

    /**
     * Where the matches go. The handler makes whatever results the application wants of each match, none, one or
     * several (what Flink writes with {@code select} and {@code flatSelect}), and hands them on itself.
     *
     * @param handler receives every complete match
     * @return this stream
     */
    public PatternStream<T> select(MatchHandler<T> handler) {
        registry.checkNotStarted("select()");
        this.matches = Objects.requireNonNull(handler, "handler");
        return this;
    }

    /**
     * Handles matches with a process function instead of {@link #select}, Flink's {@code process}: as a match
     * handler, with the match's record time, the watermark, processing time and side outputs
     * ({@code ctx.output(tag, result)}).
     *
     * @param function called for every complete match
     * @return this stream
     */
    public PatternStream<T> process(PatternProcessFunction<T> function) {
        registry.checkNotStarted("process()");
        Objects.requireNonNull(function, "function");
        if (this.process != null) {
            throw new IllegalStateException("pattern " + id + " already has a process function; a pattern stream"
                    + " takes one of select and process");
        }
        this.process = function;
        return this;
    }

    /**
     * Registers where records emitted to {@code tag} by the process function go.
     *
     * @param tag     the side output
     * @param handler receives its records
     * @param <X>     their type
     * @return this stream
     */
    public <X> PatternStream<T> sideOutput(OutputTag<X> tag, SideOutputHandler<X> handler) {
        registry.checkNotStarted("sideOutput()");
        sideOutputs.register(tag, handler);
        return this;
    }

    /**
     * @param handler receives every timed-out partial match (the timeout side output)
     * @return this stream
     */
    public PatternStream<T> timeouts(TimeoutHandler<T> handler) {
        registry.checkNotStarted("timeouts()");
        this.timeouts = Objects.requireNonNull(handler, "handler");
        this.timeoutRoute = null;
        return this;
    }

    /**
     * Sends each timed-out partial match, turned into a record by {@code function}, to the side output {@code tag}
     * with the timeout time as its record timestamp, instead of a {@link #timeouts} handler: Flink's
     * {@code select(timeoutTag, timeoutFunction, selectFunction)}.
     *
     * <pre>{@code
     * OutputTag<String> unshipped = OutputTag.of("unshipped", String.class);
     * engine.keyBy(Order::id).pattern(placedThenShipped)
     *       .sideOutputTimeouts(unshipped, partial -> partial.events("placed").get(0).id())
     *       .sideOutput(unshipped, (orderId, ts) -> alerts.send(orderId + " not shipped by " + ts));
     * }</pre>
     *
     * @param tag      the side output; register its handler with {@link #sideOutput} (the engine does not start
     *                 without one)
     * @param function makes the record (null: none)
     * @param <L>      the record type
     * @return this stream
     */
    public <L> PatternStream<T> sideOutputTimeouts(OutputTag<L> tag,
            Function<? super Match<T>, ? extends L> function) {
        registry.checkNotStarted("sideOutputTimeouts()");
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(function, "function");
        this.timeoutRoute = sides -> {
            SideOutputHandler<L> out = sides.handler(tag, "timed-out partial matches of pattern " + id);
            return (key, partialMatch, timeoutTimestamp) -> {
                L record = function.apply(partialMatch);
                if (record != null) {
                    out.onOutput(record, timeoutTimestamp);
                }
            };
        };
        return this;
    }

    /**
     * @param handler receives every late event (the late-data side output); late events are counted anyway
     * @return this stream
     */
    public PatternStream<T> lateEvents(LateEventHandler<T> handler) {
        registry.checkNotStarted("lateEvents()");
        this.lateEvents = Objects.requireNonNull(handler, "handler");
        this.lateRoute = null;
        return this;
    }

    /**
     * Sends late events to the side output {@code tag} (record timestamp: the event's time), instead of a
     * {@link #lateEvents} handler: Flink's {@code sideOutputLateData}. Late events are counted either way.
     *
     * @param tag the side output; register its handler with {@link #sideOutput} (the engine does not start
     *            without one)
     * @return this stream
     */
    public PatternStream<T> sideOutputLateData(OutputTag<T> tag) {
        registry.checkNotStarted("sideOutputLateData()");
        Objects.requireNonNull(tag, "tag");
        this.lateRoute = sides -> {
            SideOutputHandler<T> out = sides.handler(tag, "late events of pattern " + id);
            return (key, event, timestamp) -> out.onOutput(event, timestamp);
        };
        return this;
    }

    /**
     * Routes events that a condition threw on to {@code handler} (the dead-letter side output) and goes on with
     * the next event; without it, such an exception stops the shard and {@link CepEngine#close()} reports it.
     *
     * @param handler receives the event and the exception (a {@link io.cepheus.nfa.ConditionException} naming
     *                the stage)
     * @return this stream
     */
    public PatternStream<T> deadLetters(DeadLetterHandler<T> handler) {
        registry.checkNotStarted("deadLetters()");
        this.deadLetters = Objects.requireNonNull(handler, "handler");
        this.deadLetterRoute = null;
        return this;
    }

    /**
     * Sends what user code threw on to the side output {@code tag} as {@link DeadLetter} records (record
     * timestamp: the event's or output's), instead of a {@link #deadLetters} handler, and goes on: events a
     * condition threw on, and matches or timed-out partial matches whose handler or function threw.
     *
     * @param tag the side output (e.g. {@code DeadLetter.tag("errors")}); register its handler with
     *            {@link #sideOutput} (the engine does not start without one)
     * @return this stream
     */
    public PatternStream<T> sideOutputDeadLetters(OutputTag<DeadLetter> tag) {
        registry.checkNotStarted("sideOutputDeadLetters()");
        Objects.requireNonNull(tag, "tag");
        this.deadLetterRoute = sides -> sides.deadLetterOutput(null, tag, "dead letters of pattern " + id);
        return this;
    }

    /**
     * Matches this pattern in processing time (Flink's {@code inProcessingTime()}): events are matched as they
     * arrive at their shard, in arrival order, stamped with the engine clock's time; windows and timeouts
     * follow that clock, and watermarks do not apply (nothing is late).
     *
     * @return this stream
     */
    public PatternStream<T> inProcessingTime() {
        registry.checkNotStarted("inProcessingTime()");
        this.processingTime = true;
        return this;
    }

    /** @return the pattern's position on the engine, also its operators' id on every shard */
    public int id() {
        return id;
    }

    /**
     * Lists a key's open partial matches: the NFA state each waits in, the events it took by stage, when it times
     * out. The shard that owns the key answers, between two records of its input, so the answer is the key's state
     * at one point of its input and never races it. Any thread, once the engine runs; under a
     * {@link CepTestHarness} the answer comes with the next {@link CepTestHarness#runUntilIdle()}.
     *
     * @param key the key
     * @return completed with the partial matches (empty if the key has none, or is unknown); a closing engine still
     *     answers the questions in its inboxes
     * @throws IllegalStateException if the engine is not running or takes no more input
     */
    @SuppressWarnings("unchecked")
    public java.util.concurrent.CompletableFuture<List<io.cepheus.nfa.PartialMatch<T>>> partialMatches(Object key) {
        java.util.concurrent.CompletableFuture<Object> answer = new java.util.concurrent.CompletableFuture<>();
        registry.control().ask(Objects.requireNonNull(key, "key"),
                new ShardRecord.Query(id, key, KeyInspection.PARTIAL_MATCHES, answer));
        return answer.thenApply(a -> (List<io.cepheus.nfa.PartialMatch<T>>) a);
    }

    /** The entries a trace keeps at most unless told otherwise: its latest ones. */
    public static final int DEFAULT_TRACE_ENTRIES = 10_000;

    /**
     * Starts tracing a key (afresh, if it was traced): from the next record of its shard's input, what happens to the
     * key's partial matches is recorded, event by event, with the watermark's moves and the key's late events (see
     * {@link io.cepheus.runtime.explain.Explanation}). The trace keeps its latest {@link #DEFAULT_TRACE_ENTRIES}
     * entries. Other keys are not slowed: untraced work tests one field per event. Any thread, once the engine runs;
     * the request travels through the key's shard inbox behind what producers sent before it.
     *
     * @param key the key
     * @return completed once the shard traces the key
     * @throws IllegalStateException if the engine is not running or takes no more input
     */
    public java.util.concurrent.CompletableFuture<Void> startTrace(Object key) {
        return startTrace(key, DEFAULT_TRACE_ENTRIES);
    }

    /**
     * As {@link #startTrace(Object)}, keeping at most {@code maxEntries} entries (the latest).
     *
     * @param key        the key
     * @param maxEntries the bound on the entries kept, at least 1
     * @return completed once the shard traces the key
     * @throws IllegalArgumentException if {@code maxEntries} is below 1
     * @throws IllegalStateException    if the engine is not running or takes no more input
     */
    public java.util.concurrent.CompletableFuture<Void> startTrace(Object key, int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be at least 1, not " + maxEntries);
        }
        return askTrace(key, new TraceQuestion(TraceQuestion.Kind.START, null, maxEntries)).thenApply(x -> null);
    }

    /**
     * The trace of a key so far; tracing goes on. Answered by the key's shard between two records of its input.
     *
     * @param key the key
     * @return completed with the trace, or with null if the key is not traced
     * @throws IllegalStateException if the engine is not running or takes no more input
     */
    public java.util.concurrent.CompletableFuture<io.cepheus.runtime.explain.Explanation> explain(Object key) {
        return askTrace(key, new TraceQuestion(TraceQuestion.Kind.READ, null, 0));
    }

    /**
     * Stops tracing a key.
     *
     * @param key the key
     * @return completed with its trace, or with null if it was not traced
     * @throws IllegalStateException if the engine is not running or takes no more input
     */
    public java.util.concurrent.CompletableFuture<io.cepheus.runtime.explain.Explanation> stopTrace(Object key) {
        return askTrace(key, new TraceQuestion(TraceQuestion.Kind.STOP, null, 0));
    }

    private java.util.concurrent.CompletableFuture<io.cepheus.runtime.explain.Explanation> askTrace(Object key,
            TraceQuestion question) {
        java.util.concurrent.CompletableFuture<Object> answer = new java.util.concurrent.CompletableFuture<>();
        registry.control().ask(Objects.requireNonNull(key, "key"), new ShardRecord.Query(id, key, question, answer));
        return answer.thenApply(a -> (io.cepheus.runtime.explain.Explanation) a);
    }

    /**
     * @return the pattern's counters summed over the shards, as of each shard's latest batch (zeros before the
     *         engine starts); any thread
     */
    public PatternMetrics metrics() {
        PatternMetrics sum = new PatternMetrics(id, 0, 0, 0, 0, 0, 0, 0, 0, List.of());
        for (CepOperator<T> operator : operators) {
            sum = sum.plus(operator.publishedPatternMetrics());
        }
        return sum;
    }

    /**
     * @return whether the pattern counts per stage ({@link PatternMetrics#stages()}): the engine's
     *     {@code NfaOptions.withStageCounters(true)}
     */
    public boolean countsStages() {
        return countsStages;
    }

    /** @return the compiled pattern */
    public CompiledPattern<T> pattern() {
        return pattern;
    }

    /**
     * @param operatorId the pattern's operator id (its position on the engine)
     * @param watermark  the shard's current watermark, read when a process function asks
     * @param clock      the engine's processing-time clock
     * @param failures   where what the user's handlers throw is reported (see {@link UserCodeException})
     * @return the output one shard's operator for this pattern writes to (one per shard: single-threaded)
     */
    private CepOperator.Output<T> output(int operatorId, LongSupplier watermark, Clock clock, UserFailures failures) {
        SideOutputs.Frozen sides = sideOutputs.freeze();
        MatchHandler<T> m = matches;
        Function<SideOutputs.Frozen, TimeoutHandler<T>> tr = timeoutRoute;
        Function<SideOutputs.Frozen, LateEventHandler<T>> lr = lateRoute;
        Function<SideOutputs.Frozen, DeadLetterHandler<T>> dr = deadLetterRoute;
        TimeoutHandler<T> t = tr != null ? tr.apply(sides) : timeouts;
        LateEventHandler<T> l = lr != null ? lr.apply(sides) : lateEvents;
        DeadLetterHandler<T> d = dr != null ? dr.apply(sides) : deadLetters;
        PatternProcessFunction<T> f = process;
        if (f != null && matches != DEFAULT_MATCHES) {
            throw new IllegalStateException("pattern " + operatorId + " has both select(handler) and a process"
                    + " function: choose one");
        }
        ProcessContext ctx = new ProcessContext(sides, watermark, clock);
        boolean wantsTimeouts = t != (Object) NO_TIMEOUTS;
        FailureRoute<T> route = new FailureRoute<>(d, failures, "pattern " + operatorId);
        return new CepOperator.Output<>() {
            @Override
            public boolean wantsTimeouts() {
                return wantsTimeouts; // without a handler, timed-out partial matches are counted, not built
            }

            @Override
            public void deadLetter(Object key, T event, long timestamp, RuntimeException error) {
                route.failedInput(error instanceof PartialMatchLimitException ? "partial-match bound" : "condition",
                        key, event, timestamp, error);
            }

            @Override
            public void skipFailed(Object key, long timestamp, SkipStrategyException error) {
                // not an input's failure (the event was matched) nor a handler's: the error handler decides
                route.failed("after-match skip strategy", key, timestamp, error);
            }

            @Override
            public void match(Object key, Match<T> match, long timestamp) {
                try {
                    if (f == null) {
                        m.onMatch(key, match, timestamp);
                    } else {
                        ctx.at(timestamp);
                        f.processMatch(key, match, ctx);
                    }
                } catch (RuntimeException e) {
                    route.failedOutput(f == null ? "match handler" : "process function", key, match, timestamp, e);
                }
            }

            @Override
            public void timeout(Object key, Match<T> partialMatch, long timeoutTimestamp) {
                try {
                    t.onTimeout(key, partialMatch, timeoutTimestamp);
                } catch (RuntimeException e) {
                    route.failedOutput("timeout handler", key, partialMatch, timeoutTimestamp, e);
                }
            }

            @Override
            public void late(Object key, T event, long timestamp) {
                route.late(l, "late-event handler", key, event, timestamp);
            }
        };
    }

    /** The context of one shard's process-function calls; reused for each match (single-threaded). */
    private static final class ProcessContext extends CallContext implements PatternProcessFunction.Context {
        ProcessContext(SideOutputs.Frozen sideOutputs, LongSupplier watermark, Clock clock) {
            super(sideOutputs, watermark, clock);
        }

        void at(long recordTimestamp) {
            this.timestamp = recordTimestamp;
        }
    }
}
