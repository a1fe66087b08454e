package io.cepheus.nfa;

import io.cepheus.pattern.Pattern;
import java.util.ArrayList;
import java.util.List;

/** Runs a pattern over one key's events and writes each match as its event names, e.g. {@code "a b1 c"}. */
final class Run implements MatchSink<TestEvent> {

    final List<String> matches = new ArrayList<>();
    final List<String> timeouts = new ArrayList<>();

    static Run of(Pattern<TestEvent> pattern, String events) {
        NfaMatcher<TestEvent> matcher = NfaCompiler.compile(pattern).newMatcher();
        NfaState state = matcher.newState("k");
        Run run = new Run();
        for (TestEvent e : TestEvent.stream(events)) {
            matcher.process(state, e, e.ts(), run);
        }
        matcher.advanceTime(state, Long.MAX_VALUE, run);
        return run;
    }

    @Override
    public void onMatch(Match<TestEvent> match) {
        matches.add(words(match));
    }

    @Override
    public void onTimeout(Match<TestEvent> partialMatch, long timeoutTimestamp) {
        timeouts.add(words(partialMatch) + " @" + timeoutTimestamp);
    }

    private static String words(Match<TestEvent> match) {
        StringBuilder sb = new StringBuilder();
        for (TestEvent e : match.allEvents()) {
            sb.append(sb.length() == 0 ? "" : " ").append(e.name());
        }
        return sb.toString();
    }
}
