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
        CompiledPattern<RefEvent> compiled = NfaCompiler.compile(scenario.spec().toPattern());
        NfaMatcher<RefEvent> matcher = compiled.newMatcher(OPTIONS);
        NfaState state = matcher.newState("key");
        List<Map<String, List<RefEvent>>> matches = new ArrayList<>();
        List<Integer> emittedAt = new ArrayList<>();
        int[] step = {0};
        int[] timeouts = {0};
        MatchSink<RefEvent> sink = new MatchSink<>() {
            @Override
            public void onMatch(Match<RefEvent> match) {
                matches.add(match.asMap());
                emittedAt.add(step[0]);
            }

            @Override
            public void onTimeout(Match<RefEvent> partialMatch, long timeoutTimestamp) {
                timeouts[0]++;
            }
        };
        for (RefEvent e : scenario.events()) {
            step[0] = e.index();
            matcher.process(state, e, e.ts(), sink);
        }
        step[0] = scenario.events().size();
        matcher.advanceTime(state, Long.MAX_VALUE, sink);
        return new EngineRun(List.copyOf(matches), List.copyOf(emittedAt), timeouts[0], matcher.bufferedEvents(), matcher.bufferedEntries(),
                state.isEmpty(), state.partialMatchCount());
    }
}
