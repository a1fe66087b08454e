package io.cepheus.runtime;

import io.cepheus.nfa.NfaCompiler;
import io.cepheus.pattern.Pattern;
import java.util.Comparator;

/**
 * An engine's events partitioned by key: every pattern registered here is matched per key, and all of them
 * share the routing, the event-time buffering per shard and the shard's key dictionary.
 *
 * @param <T> the event type
 */
public final class KeyedStream<T> {

    private final CepEngine<T> engine;

    KeyedStream(CepEngine<T> engine) {
        this.engine = engine;
    }

    /**
     * Registers a pattern, matched per key in event time.
     *
     * @param pattern the pattern (compiled now: a malformed one is rejected here)
     * @return the pattern stream, to say where matches, timeouts and late events go
     */
    public PatternStream<T> pattern(Pattern<T> pattern) {
        return pattern(pattern, null);
    }

    /**
     * Registers a pattern with a comparator that orders a key's events of equal timestamp (before arrival
     * order, which decides otherwise).
     *
     * @param pattern    the pattern
     * @param tieBreaker orders events with equal timestamps
     * @return the pattern stream
     */
    public PatternStream<T> pattern(Pattern<T> pattern, Comparator<? super T> tieBreaker) {
        return engine.register(NfaCompiler.compile(pattern), tieBreaker);
    }
}
