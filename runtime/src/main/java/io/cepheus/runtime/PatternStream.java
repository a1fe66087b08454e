package io.cepheus.runtime;

import io.cepheus.nfa.CompiledPattern;
import io.cepheus.nfa.Match;
import io.cepheus.runtime.internal.cep.CepOperator;
import io.cepheus.runtime.internal.shard.UserFailures;
import io.cepheus.runtime.time.Clock;
import java.util.Comparator;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * One pattern registered on an engine's keyed stream: set where its matches, timeouts and late events go
 * before the engine starts. Every shard runs its own operator for the pattern, over the keys it owns.
 *
 * @param <T> the event type
 */
public final class PatternStream<T> {

    private final CepEngine<T> engine;
    private final int id;
    private final CompiledPattern<T> pattern;
    private final Comparator<? super T> tieBreaker;
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
    /** What {@link #process} is to users, named when it throws: "process function", "flatSelect function"... */
    private volatile String processName = "process function";
    private volatile boolean processingTime;
    private final SideOutputs sideOutputs = new SideOutputs("PatternStream");


    PatternStream(CepEngine<T> engine, int id, CompiledPattern<T> pattern, Comparator<? super T> tieBreaker) {
        this.engine = engine;
        this.id = id;
        this.pattern = pattern;
        this.tieBreaker = tieBreaker;
    }

    /**
     * @param handler receives every complete match
     * @return this stream
     */
    public PatternStream<T> select(MatchHandler<T> handler) {
        engine.checkNotStarted("select()");
        this.matches = Objects.requireNonNull(handler, "handler");
        return this;
    }

    /**
     * Flink's {@code select}: makes one result of each match ({@code null} for none) and hands it to
     * {@code results} with the match's key and record timestamp. Instead of {@link #select(MatchHandler)} and
     * {@link #process}.
     *
     * @param function makes the result
     * @param results  receives each result
     * @param <R>      the result type
     * @return this stream
     */
    public <R> PatternStream<T> select(PatternSelectFunction<T, R> function, PatternResultHandler<R> results) {
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(results, "results");
        return matchFunction("select function", (key, match, ctx) -> {
            R result = function.select(match);
            if (result != null) {
                results.onResult(key, result, ctx.timestamp());
            }
        });
    }

    /**
     * Flink's {@code flatSelect}: makes zero or more results of each match and hands each to {@code results} with
     * the match's key and record timestamp, as the function emits it. Instead of {@link #select(MatchHandler)}
     * and {@link #process}.
     *
     * <pre>{@code
     * engine.keyBy(Txn::card).pattern(smallThenLarge)
     *       .flatSelect((match, out) -> match.events("large").forEach(t -> out.accept(new Alert(t))),
     *                   (card, alert, ts) -> alerts.publish(alert));
     * }</pre>
     *
     * @param function makes the results
     * @param results  receives each result
     * @param <R>      the result type
     * @return this stream
     */
    public <R> PatternStream<T> flatSelect(PatternFlatSelectFunction<T, R> function,
            PatternResultHandler<R> results) {
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(results, "results");
        return matchFunction("flatSelect function", (key, match, ctx) -> {
            long timestamp = ctx.timestamp();
            function.flatSelect(match, result -> results.onResult(key, result, timestamp));
        });
    }

    private PatternStream<T> matchFunction(String name, PatternProcessFunction<T> function) {
        engine.checkNotStarted(name.substring(0, name.indexOf(' ')) + "()");
        if (this.process != null) {
            throw new IllegalStateException("pattern " + id + " already has a " + processName
                    + "; a pattern stream takes one of select, flatSelect and process");
        }
        this.process = function;
        this.processName = name;
        return this;
    }

    /**
     * Handles matches with a process function (time and side outputs) instead of {@link #select}.
     *
     * @param function called for every complete match
     * @return this stream
     */
    public PatternStream<T> process(PatternProcessFunction<T> function) {
        return matchFunction("process function", Objects.requireNonNull(function, "function"));
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
        engine.checkNotStarted("sideOutput()");
        sideOutputs.register(tag, handler);
        return this;
    }

    /**
     * @param handler receives every timed-out partial match (the timeout side output)
     * @return this stream
     */
    public PatternStream<T> timeouts(TimeoutHandler<T> handler) {
        engine.checkNotStarted("timeouts()");
        this.timeouts = Objects.requireNonNull(handler, "handler");
        this.timeoutRoute = null;
        return this;
    }

    /**
     * Sends each timed-out partial match, turned into a record by {@code function}, to the side output {@code tag}
     * (record timestamp: the timeout time), instead of a {@link #timeouts} handler: Flink's
     * {@code select(timeoutTag, timeoutFunction, selectFunction)}.
     *
     * <pre>{@code
     * OutputTag<String> unshipped = OutputTag.of("unshipped", String.class);
     * engine.keyBy(Order::id).pattern(placedThenShipped)
     *       .sideOutputTimeouts(unshipped, (partial, ts) -> partial.events("placed").get(0).id())
     *       .sideOutput(unshipped, (orderId, ts) -> alerts.send(orderId + " not shipped by " + ts));
     * }</pre>
     *
     * @param tag      the side output; register its handler with {@link #sideOutput} (the engine does not start
     *                 without one)
     * @param function makes the record (null: none)
     * @param <L>      the record type
     * @return this stream
     */
    public <L> PatternStream<T> sideOutputTimeouts(OutputTag<L> tag, PatternTimeoutFunction<T, L> function) {
        engine.checkNotStarted("sideOutputTimeouts()");
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(function, "function");
        this.timeoutRoute = sides -> {
            SideOutputHandler<L> out = sides.handler(tag, "timed-out partial matches of pattern " + id);
            return (key, partialMatch, timeoutTimestamp) -> {
                L record = function.timeout(partialMatch, timeoutTimestamp);
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
        engine.checkNotStarted("lateEvents()");
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
        engine.checkNotStarted("sideOutputLateData()");
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
        engine.checkNotStarted("deadLetters()");
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
        engine.checkNotStarted("sideOutputDeadLetters()");
        Objects.requireNonNull(tag, "tag");
        this.deadLetterRoute = sides -> DeadLetter.to(sides.handler(tag, "dead letters of pattern " + id));
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
        engine.checkNotStarted("inProcessingTime()");
        this.processingTime = true;
        return this;
    }

    boolean isProcessingTime() {
        return processingTime;
    }

    /** @return the pattern's position on the engine, also its operators' id on every shard */
    public int id() {
        return id;
    }

    /** @return the compiled pattern */
    public CompiledPattern<T> pattern() {
        return pattern;
    }

    /**
     * @param watermark the shard's current watermark, read when a process function asks
     * @param clock     the engine's processing-time clock
     * @param failures  where what the user's handlers throw is reported (see {@link UserCodeException})
     * @return the output one shard's operator for this pattern writes to (one per shard: single-threaded)
     */
    CepOperator.Output<T> output(LongSupplier watermark, Clock clock, UserFailures failures) {
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
            throw new IllegalStateException("pattern " + id + " has both select(handler) and a " + processName
                    + ": choose one");
        }
        String functionName = processName;
        ProcessContext ctx = new ProcessContext(sides, watermark, clock);
        boolean wantsTimeouts = t != (Object) NO_TIMEOUTS;
        String operator = "pattern " + id;
        return new CepOperator.Output<>() {
            @Override
            public boolean wantsTimeouts() {
                return wantsTimeouts; // without a handler, timed-out partial matches are counted, not built
            }

            @Override
            public void deadLetter(Object key, T event, long timestamp, RuntimeException error) {
                failedInput(error instanceof io.cepheus.nfa.PartialMatchLimitException ? "partial-match bound"
                        : "condition", key, event, timestamp, error);
            }

            @Override
            public void skipFailed(Object key, long timestamp, io.cepheus.nfa.SkipStrategyException error) {
                // not an input's failure (the event was matched) nor a handler's: the error handler decides
                failures.report(new UserCodeException("after-match skip strategy", operator, key, timestamp, error));
            }

            @Override
            public void match(Object key, Match<T> match, long timestamp) {
                try {
                    if (f == null) {
                        m.onMatch(key, match, timestamp);
                    } else {
                        ctx.timestamp = timestamp;
                        f.processMatch(key, match, ctx);
                    }
                } catch (RuntimeException e) {
                    failedOutput(f == null ? "match handler" : functionName, key, match, timestamp, e);
                }
            }

            @Override
            public void timeout(Object key, Match<T> partialMatch, long timeoutTimestamp) {
                try {
                    t.onTimeout(key, partialMatch, timeoutTimestamp);
                } catch (RuntimeException e) {
                    failedOutput("timeout handler", key, partialMatch, timeoutTimestamp, e);
                }
            }

            @Override
            public void late(Object key, T event, long timestamp) {
                try {
                    l.onLateEvent(key, event, timestamp);
                } catch (RuntimeException e) {
                    failedInput("late-event handler", key, event, timestamp,
                            new UserCodeException("late-event handler", operator, key, timestamp, e));
                }
            }

            /** User code threw on an input event: the dead-letter handler gets it, or else the error handler. */
            private void failedInput(String function, Object key, T event, long timestamp, RuntimeException error) {
                if (d == null) {
                    failures.report(error instanceof UserCodeException u ? u
                            : new UserCodeException(function, operator, key, timestamp, error));
                    return;
                }
                try {
                    d.onDeadLetter(key, event, timestamp, error);
                } catch (RuntimeException e) {
                    failures.report(new UserCodeException("dead-letter handler", operator, key, timestamp, e));
                }
            }

            /** A handler threw on an output: the dead-letter handler gets it, or else the error handler. */
            private void failedOutput(String function, Object key, Match<T> output, long timestamp,
                    RuntimeException error) {
                UserCodeException failure = new UserCodeException(function, operator, key, timestamp, error);
                if (d == null) {
                    failures.report(failure);
                    return;
                }
                try {
                    d.onFailedOutput(key, output, timestamp, failure);
                } catch (UserCodeException rethrown) {
                    failures.report(rethrown);
                } catch (RuntimeException e) {
                    failures.report(new UserCodeException("dead-letter handler", operator, key, timestamp, e));
                }
            }
        };
    }

    /** The context of one shard's process-function calls; reused for each match (single-threaded). */
    private static final class ProcessContext implements PatternProcessFunction.Context {
        private final SideOutputs.Frozen sideOutputs;
        private final LongSupplier watermark;
        private final Clock clock;
        long timestamp;

        ProcessContext(SideOutputs.Frozen sideOutputs, LongSupplier watermark, Clock clock) {
            this.sideOutputs = sideOutputs;
            this.watermark = watermark;
            this.clock = clock;
        }

        @Override
        public long timestamp() {
            return timestamp;
        }

        @Override
        public long currentWatermark() {
            return watermark.getAsLong();
        }

        @Override
        public long currentProcessingTime() {
            return clock.millis();
        }

        @Override
        public <X> void output(OutputTag<X> tag, X value) {
            sideOutputs.emit(tag, value, timestamp);
        }
    }

    Comparator<? super T> tieBreaker() {
        return tieBreaker;
    }
}
