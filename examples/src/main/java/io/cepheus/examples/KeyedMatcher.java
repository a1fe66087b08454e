package io.cepheus.examples;

import io.cepheus.nfa.MatchSink;
import io.cepheus.nfa.NfaCompiler;
import io.cepheus.nfa.NfaMatcher;
import io.cepheus.nfa.NfaState;
import io.cepheus.pattern.Pattern;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Runs one pattern over a stream split by key, with one {@link NfaState} per key in a {@code HashMap}. This
 * is the job the Cepheus runtime will take over (with worker threads and watermarks); the demo does it by
 * hand to show the NFA step API underneath.
 *
 * @param <T> the event type
 */
final class KeyedMatcher<T> {

    private final NfaMatcher<T> matcher;
    private final Function<T, String> keyOf;
    private final MatchSink<T> sink;
    private final Map<String, NfaState> states = new HashMap<>();

    /**
     * @param pattern what to look for
     * @param keyOf   which key an event belongs to; the pattern is matched within each key separately
     * @param sink    receives the matches
     */
    KeyedMatcher(Pattern<T> pattern, Function<T, String> keyOf, MatchSink<T> sink) {
        this.matcher = NfaCompiler.compile(pattern).newMatcher();
        this.keyOf = keyOf;
        this.sink = sink;
    }

    /**
     * @param event the next event of its key; a key's events must come in time order
     * @param ts    the event's time
     */
    void process(T event, long ts) {
        String key = keyOf.apply(event);
        NfaState state = states.computeIfAbsent(key, matcher::newState);
        matcher.process(state, event, ts, sink);
        if (state.isEmpty()) {
            // nothing is pending for this key: forget it rather than keep an idle state for every user ever seen
            states.remove(key);
        }
    }

    /** The stream has ended: move every key's time to the end, which releases or times out what is pending. */
    void finish() {
        for (NfaState state : states.values()) {
            matcher.advanceTime(state, Long.MAX_VALUE, sink);
        }
        states.clear();
    }
}
