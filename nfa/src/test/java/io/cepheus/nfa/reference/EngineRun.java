package io.cepheus.nfa.reference;

import io.cepheus.nfa.CompiledPattern;
import io.cepheus.nfa.Match;
import io.cepheus.nfa.MatchSink;
import io.cepheus.nfa.NfaCompiler;
import io.cepheus.nfa.NfaMatcher;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.nfa.NfaState;
import io.cepheus.nfa.OverflowPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The result of running a {@link Scenario} through the NFA engine the way the runtime would for one key:
 * every event in order with its timestamp, then {@code advanceTime(Long.MAX_VALUE)} as at the end of a
 * bounded input.
 *
 * @param matches         the complete matches, in emission order, as stage name to events
 * @param emittedAt       for each match, the stream position of the event whose {@code process} call emitted
 *                        it, or the number of events if the final {@code advanceTime} did
 * @param timeouts        how many timed-out partial matches were reported
 * @param bufferedEvents  {@link NfaMatcher#bufferedEvents()} after the final time advance
 * @param bufferedEntries {@link NfaMatcher#bufferedEntries()} after the final time advance
 * @param stateEmpty      {@link NfaState#isEmpty()} after the final time advance
 * @param partialMatches  {@link NfaState#partialMatchCount()} after the final time advance
 */
public record EngineRun(List<Map<String, List<RefEvent>>> matches, List<Integer> emittedAt, int timeouts, int bufferedEvents,
        int bufferedEntries, boolean stateEmpty, int partialMatches) {

    /**
     * The bound on partial matches is far above anything a 12-event stream can create, and overflow fails
     * loudly, so that a dropped partial match can never pass for a semantic difference.
     */
    private static final NfaOptions OPTIONS = NfaOptions.defaults().withMaxPartialMatchesPerKey(10_000_000)
            .withOverflowPolicy(OverflowPolicy.FAIL).withProcessingTime(() -> 0L);

    /**
     * @param scenario the pattern and stream
     * @return what the engine emitted and what it still holds afterwards
     */
    public static EngineRun of(Scenario scenario) {
        Recorder r = new Recorder(scenario);
        NfaState state = r.matcher.newState("key");
        for (RefEvent e : scenario.events()) {
            r.step = e.index();
            r.matcher.process(state, e, e.ts(), r);
            r.checkEntryCount(state);
        }
        r.step = scenario.events().size();
        r.matcher.advanceTime(state, Long.MAX_VALUE, r);
        r.checkEntryCount(state);
        return r.result(state.isEmpty(), state.partialMatchCount());
    }

    /**
     * Runs the scenario as the runtime treats a key: no state while it has nothing open (a state is freed once
     * {@link NfaState#isEmpty()}), and none made for an event {@link NfaMatcher#ignoredByNewState} says a new
     * state would ignore.
     *
     * @param scenario the pattern and stream
     * @param asked    counts the events that found no state
     * @param skipped  counts those of them that were skipped
     * @return what the engine emitted and what it still holds afterwards
     */
    public static EngineRun withIdleKeysFreed(Scenario scenario, AtomicLong asked, AtomicLong skipped) {
        Recorder r = new Recorder(scenario);
        NfaState state = null;
        for (RefEvent e : scenario.events()) {
            r.step = e.index();
            if (state == null) {
                asked.incrementAndGet();
                if (r.matcher.ignoredByNewState(e)) {
                    skipped.incrementAndGet();
                    continue;
                }
                state = r.matcher.newState("key");
            }
            r.matcher.process(state, e, e.ts(), r);
            r.checkEntryCount(state);
            if (state.isEmpty()) {
                r.matcher.release(state);
                state = null;
            }
        }
        r.step = scenario.events().size();
        if (state != null) {
            r.matcher.advanceTime(state, Long.MAX_VALUE, r);
        }
        return r.result(state == null || state.isEmpty(), state == null ? 0 : state.partialMatchCount());
    }

    /** A matcher for the scenario's pattern, and what it emits, with the stream position of each match. */
    private static final class Recorder implements MatchSink<RefEvent> {
        final NfaMatcher<RefEvent> matcher;
        final List<Map<String, List<RefEvent>>> matches = new ArrayList<>();
        final List<Integer> emittedAt = new ArrayList<>();
        int step;
        int timeouts;

        Recorder(Scenario scenario) {
            CompiledPattern<RefEvent> compiled = NfaCompiler.compile(scenario.spec().toPattern());
            matcher = compiled.newMatcher(OPTIONS);
        }

        @Override
        public void onMatch(Match<RefEvent> match) {
            matches.add(match.asMap());
            emittedAt.add(step);
        }

        @Override
        public void onTimeout(Match<RefEvent> partialMatch, long timeoutTimestamp) {
            timeouts++;
        }

        /** The key's own count of the entries it keeps alive is the matcher's, as it is the only key. */
        void checkEntryCount(NfaState state) {
            if (state.bufferEntryCount() != matcher.bufferedEntries()) {
                throw new AssertionError("after event " + step + " the key counts " + state.bufferEntryCount()
                        + " buffer entries, the matcher holds " + matcher.bufferedEntries());
            }
        }

        EngineRun result(boolean stateEmpty, int partialMatches) {
            return new EngineRun(List.copyOf(matches), List.copyOf(emittedAt), timeouts, matcher.bufferedEvents(),
                    matcher.bufferedEntries(), stateEmpty, partialMatches);
        }
    }
}
