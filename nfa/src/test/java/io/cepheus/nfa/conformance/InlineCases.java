package io.cepheus.nfa.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import io.cepheus.nfa.Match;
import io.cepheus.nfa.MatchSink;
import io.cepheus.nfa.NfaCompiler;
import io.cepheus.nfa.NfaMatcher;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.nfa.NfaState;
import io.cepheus.pattern.Pattern;
import java.util.ArrayList;
import java.util.List;

/**
 * Cases written inside a test in the case-file format, with the output Flink CEP 2.3 gave for them written
 * below in the expected-file format (FORMAT.md): run and judged exactly as the conformance files are.
 */
final class InlineCases {

    private InlineCases() {
    }

    /**
     * @param caseText     one case, as in a {@code .case} file
     * @param expectedText its expected output, as in an {@code .expected} file ({@code == name} first)
     */
    static void assertOutput(String caseText, String expectedText) {
        List<ConformanceCase> cases = CaseParser.parse(caseText, "inline case");
        assertEquals(1, cases.size(), "one case per call");
        ConformanceCase c = cases.get(0);
        List<String> expected = ExpectedOutput.parse(expectedText, "inline expected").get(c.name());
        assertNotNull(expected, "no '== " + c.name() + "' in the expected text");
        judge(c.name(), expected, SingleKeyDriver.run(c));
    }

    /**
     * For what the pattern language cannot write (groups): the pattern built in Java, fed the events in order
     * and then time {@code Long.MAX_VALUE}, as a case with the default end watermark.
     *
     * @param name         the case name
     * @param pattern      the pattern
     * @param events       the {@code events:} line, timestamps in order, no watermarks
     * @param expectedText the expected output, {@code == name} first
     */
    static void assertOutput(String name, Pattern<Ev> pattern, String events, String expectedText) {
        List<String> expected = ExpectedOutput.parse(expectedText, "inline expected").get(name);
        assertNotNull(expected, "no '== " + name + "' in the expected text");
        List<String> out = new ArrayList<>();
        out.add("== " + name);
        NfaMatcher<Ev> matcher = NfaCompiler.compile(pattern)
                .newMatcher(NfaOptions.defaults().withProcessingTime(() -> 0L));
        NfaState state = matcher.newState("key");
        MatchSink<Ev> sink = new MatchSink<>() {
            @Override
            public void onMatch(Match<Ev> match) {
                out.add("MATCH " + MatchFormat.format(match.asMap()));
            }

            @Override
            public void onTimeout(Match<Ev> partialMatch, long timeoutTimestamp) {
                out.add("TIMEOUT@" + timeoutTimestamp + " " + MatchFormat.format(partialMatch.asMap()));
            }
        };
        for (InputToken token : CaseParser.parseEvents(events)) {
            Ev e = ((InputToken.Event) token).event();
            matcher.process(state, e, e.ts(), sink);
        }
        matcher.advanceTime(state, Long.MAX_VALUE, sink);
        judge(name, expected, new CaseOutcome(name, out, null));
    }

    private static void judge(String name, List<String> expected, CaseOutcome outcome) {
        if (outcome.crash() != null || !ConformanceComparator.matches(expected, outcome.lines())) {
            fail(CaseFileRunner.diff("inline", name, expected, outcome.lines()), outcome.crash());
        }
    }
}
