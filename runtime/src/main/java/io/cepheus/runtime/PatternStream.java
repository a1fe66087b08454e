package io.cepheus.runtime;

import io.cepheus.nfa.CompiledPattern;
import io.cepheus.nfa.Match;
import io.cepheus.runtime.internal.cep.CepOperator;
import java.util.Comparator;
import java.util.Objects;

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
    private volatile MatchHandler<T> matches = (k, m, ts) -> { };
    private volatile TimeoutHandler<T> timeouts = (k, m, ts) -> { };
    private volatile LateEventHandler<T> lateEvents = (k, e, ts) -> { };
    private volatile DeadLetterHandler<T> deadLetters;

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
     * @param handler receives every timed-out partial match (the timeout side output)
     * @return this stream
     */
    public PatternStream<T> timeouts(TimeoutHandler<T> handler) {
        engine.checkNotStarted("timeouts()");
        this.timeouts = Objects.requireNonNull(handler, "handler");
        return this;
    }

    /**
     * @param handler receives every late event (the late-data side output); late events are counted anyway
     * @return this stream
     */
    public PatternStream<T> lateEvents(LateEventHandler<T> handler) {
        engine.checkNotStarted("lateEvents()");
        this.lateEvents = Objects.requireNonNull(handler, "handler");
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
        return this;
    }

    /** @return the pattern's position on the engine, also its operators' id on every shard */
    public int id() {
        return id;
    }

    /** @return the compiled pattern */
    public CompiledPattern<T> pattern() {
        return pattern;
    }

    CepOperator.Output<T> output() {
        MatchHandler<T> m = matches;
        TimeoutHandler<T> t = timeouts;
        LateEventHandler<T> l = lateEvents;
        DeadLetterHandler<T> d = deadLetters;
        return new CepOperator.Output<>() {
            @Override
            public void deadLetter(Object key, T event, long timestamp, RuntimeException error) {
                if (d == null) {
                    throw error;
                }
                d.onDeadLetter(key, event, timestamp, error);
            }

            @Override
            public void match(Object key, Match<T> match, long timestamp) {
                m.onMatch(key, match, timestamp);
            }

            @Override
            public void timeout(Object key, Match<T> partialMatch, long timeoutTimestamp) {
                t.onTimeout(key, partialMatch, timeoutTimestamp);
            }

            @Override
            public void late(Object key, T event, long timestamp) {
                l.onLateEvent(key, event, timestamp);
            }
        };
    }

    Comparator<? super T> tieBreaker() {
        return tieBreaker;
    }
}
