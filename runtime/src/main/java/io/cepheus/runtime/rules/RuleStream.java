package io.cepheus.runtime.rules;

import io.cepheus.nfa.CompiledPattern;
import io.cepheus.nfa.Match;
import io.cepheus.nfa.NfaCompiler;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.nfa.PartialMatchLimitException;
import io.cepheus.nfa.SkipStrategyException;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.DeadLetterHandler;
import io.cepheus.runtime.LateEventHandler;
import io.cepheus.runtime.internal.cep.CepOperator;
import io.cepheus.runtime.internal.cep.RuleCommand;
import io.cepheus.runtime.internal.cep.RuleSetOperator;
import io.cepheus.runtime.internal.cep.TraceQuestion;
import io.cepheus.runtime.internal.output.FailureRoute;
import io.cepheus.runtime.internal.shard.EngineControl;
import io.cepheus.runtime.internal.shard.OperatorRegistry;
import io.cepheus.runtime.internal.shard.ShardContext;
import io.cepheus.runtime.internal.shard.ShardRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A live rule set on an engine's keyed stream: patterns with an id and a version, matched per key in event time
 * like any pattern, that can be added, replaced (by a higher version) and removed while the engine runs, from any
 * thread. Every match and timeout names its {@link RuleVersion}.
 *
 * <pre>{@code
 * RuleStream<Payment> rules = engine.keyBy(Payment::card).rules()
 *         .select((rule, card, match, ts) -> alerts.send(rule, card, match))
 *         .timeouts((rule, card, partial, ts) -> { })
 *         .lateEvents((card, payment, ts) -> { });
 * rules.put("card-testing", 1, cardTesting);            // before start: the set the engine starts with
 * engine.start();
 * RuleChange change = rules.put("card-testing", 2, stricter, RetirePolicy.DISCARD).join();
 * }</pre>
 *
 * <p>A change made while the engine runs travels through every shard's inbox and takes effect at one point of every
 * producer's input: the events a producer sent before it are matched by the old rule set, those sent after by the new
 * one, on every shard. The returned future completes, with where each shard applied it ({@link RuleChange}), once
 * every shard has; what is chained to it never runs on a shard's thread. A change waits while a snapshot is being
 * taken, and a snapshot while a change is sent. The version replaced or removed drains or is discarded
 * ({@link RetirePolicy}; {@code DRAIN} by default).
 *
 * <p>All versions share one event-time buffer per shard (each event waits for the watermark once, however many rules
 * watch it); late events are reported once, for the rule set. Configure the handlers before the engine starts; they
 * run on the shards' threads.
 *
 * @param <T> the event type
 */
public final class RuleStream<T> {

    private final OperatorRegistry<T> registry;
    private final EngineControl control;
    private final int id;
    private final List<RuleSetOperator<T>> operators = new CopyOnWriteArrayList<>();
    /** The versions in force, as of the latest change sent (guarded by this). */
    private final Map<String, InForce<T>> inForce = new LinkedHashMap<>();
    /** Whether the shards were built: from then on a change travels through the inboxes (guarded by this). */
    private boolean built;
    private final List<RestoredRules> restoreReports = new CopyOnWriteArrayList<>();
    /** Changes sent and not yet applied by every shard. */
    private final java.util.Queue<RuleCommand<T>> unapplied = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private volatile RuleMatchHandler<T> matches = (rule, key, match, ts) -> { };
    private volatile RuleTimeoutHandler<T> timeouts;
    private volatile LateEventHandler<T> lateEvents = (key, event, ts) -> { };
    private volatile DeadLetterHandler<T> deadLetters;

    /** A version in force, with its compiled pattern. */
    private record InForce<T>(RuleVersion rule, CompiledPattern<T> pattern) {
    }

    /**
     * Made by {@link io.cepheus.runtime.KeyedStream#rules()}; not meant to be called directly.
     *
     * @param registry   the engine's registry (an internal type)
     * @param options    NFA options for every rule
     * @param tieBreaker orders a key's events of equal timestamp before arrival order; null for none
     */
    public RuleStream(OperatorRegistry<T> registry, NfaOptions options, Comparator<? super T> tieBreaker) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.control = registry.control();
        control.onStopped(this::failUnapplied);
        this.id = registry.register("rule set", (operatorId, shard) -> {
            RuleSetOperator<T> op = new RuleSetOperator<>(operatorId, spec(), options, tieBreaker, shard, false);
            operators.add(op);
            return op;
        });
    }

    // ------------------------------------------------------------------ handlers

    /**
     * @param handler receives every match of every rule, with the rule's version
     * @return this stream
     */
    public RuleStream<T> select(RuleMatchHandler<T> handler) {
        registry.checkNotStarted("select()");
        this.matches = Objects.requireNonNull(handler, "handler");
        return this;
    }

    /**
     * @param handler receives every timed-out partial match of every rule (the timeout side output); without one,
     *                timeouts are only counted
     * @return this stream
     */
    public RuleStream<T> timeouts(RuleTimeoutHandler<T> handler) {
        registry.checkNotStarted("timeouts()");
        this.timeouts = Objects.requireNonNull(handler, "handler");
        return this;
    }

    /**
     * @param handler receives every late event (its timestamp not after the watermark when it arrived), once for the
     *                rule set; late events are counted anyway
     * @return this stream
     */
    public RuleStream<T> lateEvents(LateEventHandler<T> handler) {
        registry.checkNotStarted("lateEvents()");
        this.lateEvents = Objects.requireNonNull(handler, "handler");
        return this;
    }

    /**
     * Routes events a rule's condition threw on (an expression that overflowed, say) to {@code handler} and goes
     * on; without it, such an exception stops the shard and the engine's close reports it.
     *
     * @param handler receives the event and the exception (a {@link io.cepheus.nfa.ConditionException} naming the
     *                stage, its message naming the rule)
     * @return this stream
     */
    public RuleStream<T> deadLetters(DeadLetterHandler<T> handler) {
        registry.checkNotStarted("deadLetters()");
        this.deadLetters = Objects.requireNonNull(handler, "handler");
        return this;
    }

    // ------------------------------------------------------------------ changes

    /**
     * Puts a rule in force ({@link RetirePolicy#DRAIN} for a version it replaces).
     *
     * @param ruleId  the rule's id
     * @param version its version: higher than the version in force, if any
     * @param pattern the pattern (compiled now: a malformed one is refused here, and nothing changes)
     * @return completed once every shard applied the change (at once before the engine starts)
     * @throws io.cepheus.pattern.MalformedPatternException if the pattern is refused
     * @throws IllegalArgumentException if the version does not replace the one in force
     * @throws IllegalStateException    if the engine takes no more changes (closing, stopped)
     */
    public CompletableFuture<RuleChange> put(String ruleId, int version, Pattern<T> pattern) {
        return put(ruleId, version, pattern, RetirePolicy.DRAIN);
    }

    /**
     * Puts a rule in force, replacing the version in force of the same id, if any, with the given policy.
     *
     * @param ruleId  the rule's id
     * @param version its version: higher than the version in force, if any
     * @param pattern the pattern
     * @param policy  what happens to the replaced version's partial matches
     * @return completed once every shard applied the change
     * @throws io.cepheus.pattern.MalformedPatternException if the pattern is refused
     * @throws IllegalArgumentException if the version does not replace the one in force
     * @throws IllegalStateException    if the engine takes no more changes
     */
    public CompletableFuture<RuleChange> put(String ruleId, int version, Pattern<T> pattern, RetirePolicy policy) {
        RuleVersion rule = new RuleVersion(ruleId, version);
        Objects.requireNonNull(policy, "policy");
        CompiledPattern<T> compiled = NfaCompiler.compile(Objects.requireNonNull(pattern, "pattern"));
        synchronized (this) {
            InForce<T> current = inForce.get(ruleId);
            if (current != null && version <= current.rule().version()) {
                throw new IllegalArgumentException("rule '" + ruleId + "': version " + version + " does not replace "
                        + current.rule() + ", which is in force: a replacement needs a higher version");
            }
            RuleCommand<T> c = new RuleCommand<>(current == null ? RuleChange.Kind.ADDED : RuleChange.Kind.REPLACED,
                    rule, compiled, current == null ? null : current.rule(), policy, control.shards(),
                    control.isDrivenByCaller());
            CompletableFuture<RuleChange> done = send(c);
            inForce.put(ruleId, new InForce<>(rule, compiled));
            return done;
        }
    }

    /**
     * Removes a rule ({@link RetirePolicy#DRAIN}).
     *
     * @param ruleId the rule's id
     * @return completed once every shard applied the change
     * @throws IllegalArgumentException if no version of it is in force
     * @throws IllegalStateException    if the engine takes no more changes
     */
    public CompletableFuture<RuleChange> remove(String ruleId) {
        return remove(ruleId, RetirePolicy.DRAIN);
    }

    /**
     * Removes a rule with the given policy.
     *
     * @param ruleId the rule's id
     * @param policy what happens to its partial matches
     * @return completed once every shard applied the change
     * @throws IllegalArgumentException if no version of it is in force
     * @throws IllegalStateException    if the engine takes no more changes
     */
    public CompletableFuture<RuleChange> remove(String ruleId, RetirePolicy policy) {
        Objects.requireNonNull(policy, "policy");
        synchronized (this) {
            InForce<T> current = inForce.get(Objects.requireNonNull(ruleId, "ruleId"));
            if (current == null) {
                throw new IllegalArgumentException("no version of rule '" + ruleId + "' is in force; in force: "
                        + rules());
            }
            RuleCommand<T> c = new RuleCommand<>(RuleChange.Kind.REMOVED, null, null, current.rule(), policy,
                    control.shards(), control.isDrivenByCaller());
            CompletableFuture<RuleChange> done = send(c);
            inForce.remove(ruleId);
            return done;
        }
    }

    /** Sends a change to every shard, or, before the engine is built, makes it part of the set it starts with. */
    private CompletableFuture<RuleChange> send(RuleCommand<T> c) {
        if (!built) {
            registry.checkNotStarted("a rule change before the engine runs");
            return CompletableFuture.completedFuture(c.beforeStart());
        }
        if (!control.isRunning()) {
            throw new IllegalStateException("the engine is starting: change the rules before start() or once it"
                    + " returned");
        }
        control.broadcast(new ShardRecord.Control(id, c));
        unapplied.add(c);
        c.future().whenComplete((change, failure) -> unapplied.remove(c));
        return c.future();
    }

    /** The engine stopped: a change some shard never applied will never be. */
    private void failUnapplied() {
        for (RuleCommand<T> c : unapplied) {
            c.failed(new IllegalStateException("the engine stopped before every shard applied this change (a shard"
                    + " failed first): see the engine's failure"));
        }
    }

    /** @return the rule versions in force, as of the latest change made (applied or on its way), in order of id */
    public synchronized List<RuleVersion> rules() {
        List<RuleVersion> out = new ArrayList<>();
        for (InForce<T> f : inForce.values()) {
            out.add(f.rule());
        }
        out.sort(Comparator.comparing(RuleVersion::id));
        return out;
    }

    // ------------------------------------------------------------------ reading

    /** @return the rule set's position on the engine, also its operators' id on every shard */
    public int id() {
        return id;
    }

    /**
     * Lists a key's open partial matches in every rule version that has some (the version in force, and versions
     * being drained): for each, the NFA state it waits in, the events it took by stage, when it times out. The shard
     * that owns the key answers, between two records of its input, so the answer never races the key's state. Any
     * thread, once the engine runs; under a {@link io.cepheus.runtime.CepTestHarness} the answer comes with the next
     * {@code runUntilIdle()}.
     *
     * @param key the key
     * @return completed with the partial matches by rule version, in the order the versions came into force (empty if
     *     the key has none); a closing engine still answers the questions in its inboxes
     * @throws IllegalStateException if the engine is not running or takes no more input
     */
    @SuppressWarnings("unchecked")
    public CompletableFuture<Map<RuleVersion, List<io.cepheus.nfa.PartialMatch<T>>>> partialMatches(Object key) {
        CompletableFuture<Object> answer = new CompletableFuture<>();
        control.ask(Objects.requireNonNull(key, "key"),
                new io.cepheus.runtime.internal.shard.ShardRecord.Query(id, key,
                        io.cepheus.runtime.internal.shard.KeyInspection.PARTIAL_MATCHES, answer));
        return answer.thenApply(a -> (Map<RuleVersion, List<io.cepheus.nfa.PartialMatch<T>>>) a);
    }

    /**
     * Starts tracing a key for one rule (afresh, if it was traced): every version of the rule present on the key's
     * shard, and every version put in force later, records what happens to the key's partial matches (see
     * {@link io.cepheus.runtime.explain.Explanation}), keeping its latest
     * {@link io.cepheus.runtime.PatternStream#DEFAULT_TRACE_ENTRIES} entries. Any thread, once the engine runs.
     *
     * <p>A version sees the key's events that could begin or extend one of its partial matches: an event the rule
     * set's index shows cannot begin the rule, on a key where the version holds nothing, does not reach it and is not
     * in its trace.
     *
     * @param ruleId the rule
     * @param key    the key
     * @return completed once the shard traces the key
     * @throws IllegalStateException if the engine is not running or takes no more input
     */
    public CompletableFuture<Void> startTrace(String ruleId, Object key) {
        return askTrace(ruleId, key, TraceQuestion.Kind.START).thenApply(x -> null);
    }

    /**
     * The traces of a key for one rule so far, by version; tracing goes on.
     *
     * @param ruleId the rule
     * @param key    the key
     * @return completed with the traces by version, in the order the versions came into force (empty if the key is
     *     not traced for the rule, or no version of it is present)
     * @throws IllegalStateException if the engine is not running or takes no more input
     */
    public CompletableFuture<Map<RuleVersion, io.cepheus.runtime.explain.Explanation>> explain(String ruleId,
            Object key) {
        return askTrace(ruleId, key, TraceQuestion.Kind.READ);
    }

    /**
     * Stops tracing a key for one rule.
     *
     * @param ruleId the rule
     * @param key    the key
     * @return completed with its traces by version, as {@link #explain} answers
     * @throws IllegalStateException if the engine is not running or takes no more input
     */
    public CompletableFuture<Map<RuleVersion, io.cepheus.runtime.explain.Explanation>> stopTrace(String ruleId,
            Object key) {
        return askTrace(ruleId, key, TraceQuestion.Kind.STOP);
    }

    @SuppressWarnings("unchecked")
    private CompletableFuture<Map<RuleVersion, io.cepheus.runtime.explain.Explanation>> askTrace(String ruleId,
            Object key, TraceQuestion.Kind kind) {
        CompletableFuture<Object> answer = new CompletableFuture<>();
        control.ask(Objects.requireNonNull(key, "key"), new io.cepheus.runtime.internal.shard.ShardRecord.Query(id,
                key, new TraceQuestion(kind, Objects.requireNonNull(ruleId, "ruleId"),
                        io.cepheus.runtime.PatternStream.DEFAULT_TRACE_ENTRIES), answer));
        return answer.thenApply(a -> (Map<RuleVersion, io.cepheus.runtime.explain.Explanation>) a);
    }

    /**
     * @return every rule version's counters summed over the shards, as of each shard's latest batch, the versions
     *         being retired and those gone too; any thread
     */
    public List<RuleMetrics> metrics() {
        Map<RuleVersion, RuleMetrics> sum = new LinkedHashMap<>();
        for (RuleSetOperator<T> op : operators) {
            for (RuleMetrics m : op.publishedRuleMetrics()) {
                sum.merge(m.rule(), m, RuleMetrics::plus);
            }
        }
        List<RuleMetrics> out = new ArrayList<>(sum.values());
        out.sort(Comparator.comparing((RuleMetrics m) -> m.rule().id()).thenComparingInt(m -> m.rule().version()));
        return out;
    }

    /** @return late events over the shards, as of each shard's latest batch; any thread */
    public long lateEvents() {
        long late = 0;
        for (RuleSetOperator<T> op : operators) {
            late += op.publishedLateEvents();
        }
        return late;
    }

    /**
     * @return what restoring the snapshot given to {@code restoreFrom} did with its rules, summed over the shards;
     *         empty lists if the engine was not restored
     */
    public RestoredRules restored() {
        Map<RuleVersion, Boolean> kept = new LinkedHashMap<>();
        Map<RuleVersion, Boolean> empty = new LinkedHashMap<>();
        Map<RuleVersion, long[]> dropped = new LinkedHashMap<>();
        for (RestoredRules shard : restoreReports) {
            shard.kept().forEach(r -> kept.put(r, true));
            shard.startedEmpty().forEach(r -> empty.put(r, true));
            for (RestoredRules.Dropped d : shard.dropped()) {
                long[] held = dropped.computeIfAbsent(d.rule(), r -> new long[2]);
                held[0] += d.partialMatches();
                held[1] += d.keys();
            }
        }
        empty.keySet().removeAll(kept.keySet()); // kept on one shard, empty on another (no keys there): kept
        List<RestoredRules.Dropped> droppedList = new ArrayList<>();
        dropped.forEach((r, held) -> droppedList.add(new RestoredRules.Dropped(r, held[0], held[1])));
        return new RestoredRules(new ArrayList<>(kept.keySet()), new ArrayList<>(empty.keySet()), droppedList);
    }

    // ------------------------------------------------------------------ the shards' side

    private RuleSetOperator.Spec<T> spec() {
        synchronized (this) {
            built = true;
        }
        return new RuleSetOperator.Spec<>() {
            @Override
            public CepOperator.Output<T> output(RuleVersion rule, ShardContext<T> shard) {
                return RuleStream.this.output(rule, shard);
            }

            @Override
            public RuleSetOperator.LateOutput<T> lateOutput(ShardContext<T> shard) {
                FailureRoute<T> route = new FailureRoute<>(deadLetters, shard.failures(), "rule set " + id);
                LateEventHandler<T> late = lateEvents;
                return (key, event, ts) -> route.late(late, "late-event handler", key, event, ts);
            }

            @Override
            public Map<RuleVersion, CompiledPattern<T>> initial() {
                synchronized (RuleStream.this) {
                    Map<RuleVersion, CompiledPattern<T>> out = new LinkedHashMap<>();
                    for (InForce<T> f : inForce.values()) {
                        out.put(f.rule(), f.pattern());
                    }
                    return out;
                }
            }

            @Override
            public void restored(RestoredRules shardReport) {
                restoreReports.add(shardReport);
            }
        };
    }

    /** @return where one version's results go on one shard (single-threaded, like the shard) */
    private CepOperator.Output<T> output(RuleVersion rule, ShardContext<T> shard) {
        RuleMatchHandler<T> m = matches;
        RuleTimeoutHandler<T> t = timeouts;
        FailureRoute<T> route = new FailureRoute<>(deadLetters, shard.failures(), "rule " + rule);
        return new CepOperator.Output<>() {
            @Override
            public boolean wantsTimeouts() {
                return t != null;
            }

            @Override
            public void deadLetter(Object key, T event, long timestamp, RuntimeException error) {
                route.failedInput(error instanceof PartialMatchLimitException ? "partial-match bound" : "condition",
                        key, event, timestamp, error);
            }

            @Override
            public void skipFailed(Object key, long timestamp, SkipStrategyException error) {
                route.failed("after-match skip strategy", key, timestamp, error);
            }

            @Override
            public void match(Object key, Match<T> match, long timestamp) {
                try {
                    m.onMatch(rule, key, match, timestamp);
                } catch (RuntimeException e) {
                    route.failedOutput("match handler", key, match, timestamp, e);
                }
            }

            @Override
            public void timeout(Object key, Match<T> partialMatch, long timeoutTimestamp) {
                try {
                    t.onTimeout(rule, key, partialMatch, timeoutTimestamp);
                } catch (RuntimeException e) {
                    route.failedOutput("timeout handler", key, partialMatch, timeoutTimestamp, e);
                }
            }

            @Override
            public void late(Object key, T event, long timestamp) {
                // a version never sees a late event: the rule set reports it once, before buffering
            }
        };
    }
}
