package io.cepheus.nfa.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.conformance.ConformanceDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The reference matcher on its own, so that it can be trusted as an oracle: against the conformance cases
 * of its subset (what Flink CEP 2.3 actually emitted), Flink's documented examples, examples from Flink's
 * own NFA tests, and the corners of the definition (window boundary, iterative conditions in the relaxed
 * rule, optional stages at either end).
 */
class ReferenceMatcherTest {

    // ------------------------------------------------------------------ conformance cases (observed Flink)

    @ParameterizedTest(name = "conformance case {0}")
    @ValueSource(strings = {"01", "02", "03", "04", "09", "11", "12", "13", "14", "16", "17", "18", "19", "20",
            "21", "22", "24", "33", "39", "41", "42", "52"})
    void agreesWithFlinkOnConformanceCase(String number) throws IOException {
        ConformanceCaseSubset.Case c = ConformanceCaseSubset.read(caseFile(number));
        List<String> actual = ReferenceMatcher.matches(c.spec(), c.events()).stream()
                .map(ConformanceCaseSubset::render).sorted().collect(Collectors.toList());
        List<String> expected = c.matches().stream().sorted().collect(Collectors.toList());
        assertEquals(expected, actual, c.name() + "\n" + c.spec());
    }

    private static Path caseFile(String number) throws IOException {
        // these numbered cases are the repository's own, whatever -Dcepheus.conformance.dir points the suite at
        Path dir = ConformanceDirectory.locate(null, Path.of("").toAbsolutePath(), ConformanceDirectory.SUITE).chosen();
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith(number + "-")
                    && p.getFileName().toString().endsWith(".case")).findFirst()
                    .orElseThrow(() -> new AssertionError("no conformance case " + number + " in " + dir));
        }
    }

    // ------------------------------------------------------------------ Flink's documentation (cep.md)

    /** "a b" over "a c b1 b2" with each contiguity, from the section on combining patterns. */
    @Test
    void documentedContiguityExample() {
        String events = "a0@1 c0@2 b1@3 b2@4";
        assertMatches("begin a where type=a ; next b where type=b", events);
        assertMatches("begin a where type=a ; followedBy b where type=b", events, "a=a0 b=b1");
        assertMatches("begin a where type=a ; followedByAny b where type=b", events, "a=a0 b=b1", "a=a0 b=b2");
    }

    /**
     * "a b+ c" over "a b1 d1 b2 d2 b3 c", b reached with followedByAny, from the section on contiguity within
     * looping patterns. The relaxed and non-deterministic lines of the documentation are checked; its
     * strict line ({a b3 c} only) fits no single choice of contiguity for c together with the other two
     * lines, so it is left out.
     */
    @Test
    void documentedLoopingContiguityExample() {
        String events = "a0@1 b1@2 d1@3 b2@4 d2@5 b3@6 c0@7";
        String pattern = "begin a where type=a ; followedByAny b where type=b oneOrMore";
        assertMatches(pattern + " ; followedBy c where type=c", events,
                "a=a0 b=b1 c=c0", "a=a0 b=b1,b2 c=c0", "a=a0 b=b1,b2,b3 c=c0", "a=a0 b=b2 c=c0",
                "a=a0 b=b2,b3 c=c0", "a=a0 b=b3 c=c0");
        assertMatches(pattern + " allowCombinations ; followedBy c where type=c", events,
                "a=a0 b=b1 c=c0", "a=a0 b=b1,b2 c=c0", "a=a0 b=b1,b3 c=c0", "a=a0 b=b1,b2,b3 c=c0",
                "a=a0 b=b2 c=c0", "a=a0 b=b2,b3 c=c0", "a=a0 b=b3 c=c0");
    }

    /** {@code consecutive()} and the default over "C D A1 A2 A3 D A4 B", from the documentation. */
    @Test
    void documentedConsecutiveExample() {
        String events = "c0@1 d0@2 a1@3 a2@4 a3@5 d0@6 a4@7 b0@8";
        String start = "begin s where type=c ; followedBy m where type=a oneOrMore";
        String end = " ; followedBy e where type=b";
        assertMatches(start + " consecutive" + end, events,
                "s=c0 m=a1 e=b0", "s=c0 m=a1,a2 e=b0", "s=c0 m=a1,a2,a3 e=b0");
        assertMatches(start + end, events,
                "s=c0 m=a1 e=b0", "s=c0 m=a1,a2 e=b0", "s=c0 m=a1,a2,a3 e=b0", "s=c0 m=a1,a2,a3,a4 e=b0");
    }

    /**
     * {@code allowCombinations()} over the same input. The documentation lists all 15 non-empty subsets of
     * A1..A4, but Flink itself does not do that: conformance case 19 (observed on Flink 2.3) shows that the
     * loop's first event still follows its stage's {@code followedBy}, so it must be A1, and only the 8
     * subsets starting with A1 match. The reference follows Flink's behaviour, not that documentation line.
     */
    @Test
    void allowCombinationsKeepsTheRelaxedRuleForTheFirstEvent() {
        assertMatches("begin s where type=c ; followedBy m where type=a oneOrMore allowCombinations"
                        + " ; followedBy e where type=b", "c0@1 d0@2 a1@3 a2@4 a3@5 d0@6 a4@7 b0@8",
                "s=c0 m=a1 e=b0", "s=c0 m=a1,a2 e=b0", "s=c0 m=a1,a3 e=b0", "s=c0 m=a1,a4 e=b0",
                "s=c0 m=a1,a2,a3 e=b0", "s=c0 m=a1,a2,a4 e=b0", "s=c0 m=a1,a3,a4 e=b0", "s=c0 m=a1,a2,a3,a4 e=b0");
    }

    // ------------------------------------------------------------------ Flink's NFAITCase

    /** NFAITCase#testStrictContinuityNoResultsAfterZeroOrMore. */
    @Test
    void strictStageAfterSkippedOrTakenZeroOrMore() {
        assertMatches("begin s where type=d ; followedBy m where type=a oneOrMore optional ; next e where type=b",
                "d0@1 a1@2 a2@3 c0@4 b0@5");
    }

    /** NFAITCase#testStrictContinuityResultsAfterZeroOrMore. */
    @Test
    void strictStageAfterZeroOrMoreWithCombinations() {
        assertMatches("begin s where type=d ; followedByAny m where type=a oneOrMore optional allowCombinations"
                + " ; next e where type=b", "d0@1 a1@2 a2@3 b0@5", "s=d0 m=a1,a2 e=b0", "s=d0 m=a2 e=b0");
    }

    /** NFAITCase#testNextZeroOrMore: a consecutive zero-or-more cannot start after a gap. */
    @Test
    void skippedZeroOrMoreLetsTheNextStageUseItsOwnContiguity() {
        assertMatches("begin s where type=s ; next m where type=m oneOrMore optional consecutive"
                + " ; followedBy e where type=e", "s0@1 x0@2 m1@3 m2@4 m3@5 e0@6", "s=s0 e=e0");
    }

    /** NFAITCase#testTimes: times(2) allowCombinations after next. */
    @Test
    void timesWithCombinationsAfterNext() {
        assertMatches("begin s where type=c ; next m where type=a times 2 allowCombinations"
                + " ; followedBy e where type=b", "c0@1 a1@2 a2@3 a3@4 b0@6", "s=c0 m=a1,a2 e=b0", "s=c0 m=a1,a3 e=b0");
    }

    /** NFAITCase#testBeginWithAtLeastOne: every non-empty subset when the loop begins the pattern. */
    @Test
    void beginWithCombinations() {
        assertMatches("begin m where type=a oneOrMore allowCombinations ; followedBy e where type=b",
                "a1@3 a2@4 a3@5 b0@6", "m=a1,a2,a3 e=b0", "m=a1,a2 e=b0", "m=a1,a3 e=b0", "m=a2,a3 e=b0",
                "m=a1 e=b0", "m=a2 e=b0", "m=a3 e=b0");
    }

    /** TimesOrMoreITCase#testTimesOrMoreNonStrict (no window): at least two, any combination. */
    @Test
    void timesOrMoreWithCombinations() {
        assertMatches("begin s where type=c ; followedByAny m where type=a timesOrMore 2 allowCombinations"
                        + " ; followedBy e where type=b", "c0@1 f0@2 a1@3 f0@4 a2@5 a3@6 b0@7",
                "s=c0 m=a1,a2,a3 e=b0", "s=c0 m=a1,a2 e=b0", "s=c0 m=a1,a3 e=b0", "s=c0 m=a2,a3 e=b0");
    }

    /** TimesOrMoreITCase#testTimesOrMoreStrictOptional2: an optional consecutive loop after next. */
    @Test
    void optionalConsecutiveTimesOrMoreAfterNext() {
        assertMatches("begin s where type=c ; next m where type=a timesOrMore 2 consecutive optional"
                        + " ; followedBy e where type=b", "c0@1 a1@3 a2@5 a3@6 b0@7",
                "s=c0 m=a1,a2,a3 e=b0", "s=c0 m=a1,a2 e=b0", "s=c0 e=b0");
    }

    /** TimesRangeITCase#testTimesRangeStrict: times(0, 3) consecutive after followedByAny. */
    @Test
    void optionalConsecutiveTimesRange() {
        assertMatches("begin s where type=c ; followedByAny m where type=a times 0..3 consecutive"
                        + " ; followedBy e where type=b", "c0@1 f0@2 a1@3 f0@4 a2@5 a3@6 b0@7",
                "s=c0 m=a2,a3 e=b0", "s=c0 m=a1 e=b0", "s=c0 m=a2 e=b0", "s=c0 m=a3 e=b0", "s=c0 e=b0");
    }

    // ------------------------------------------------------------------ corners of the definition

    @Test
    void windowExcludesAMatchSpanningExactlyTheWindow() {
        RandomPatternSpec spec = ConformanceCaseSubset.parsePattern("begin a where type=a ; followedBy b where type=b", 4);
        assertEquals(List.of(), compact(spec, "a0@1 b0@5"));
        assertEquals(List.of("a=a0 b=b0"), compact(spec, "a0@1 b0@4"));
    }

    /**
     * With relaxed inner contiguity an event in between blocks the loop only if the condition accepts it on
     * the partial match at that point: 3 does not exceed 5, so [5, 7] is a run; 6 exceeds 5, so [5, 7] over
     * "5 6 7" is not (6 would have been taken).
     */
    @Test
    void relaxedRuleEvaluatesIterativeConditionsOnThePartialMatch() {
        String pattern = "begin a where type=a & gt-last(a) oneOrMore ; followedBy b where type=b";
        assertTrue(compact(pattern, "a5@1 a3@2 a7@3 b0@4").contains("a=a5,a7 b=b0"));
        assertFalse(compact(pattern, "a5@1 a6@2 a7@3 b0@4").contains("a=a5,a7 b=b0"));
    }

    @Test
    void optionalStagesAtEitherEnd() {
        assertMatches("begin a where type=a optional ; followedBy b where type=b ; followedBy c where type=c optional",
                "a0@1 b0@2 c0@3", "a=a0 b=b0", "a=a0 b=b0 c=c0", "b=b0", "b=b0 c=c0");
    }

    @Test
    void everyMatchIsReportedOnceEvenWhenStagesAcceptTheSameEvents() {
        List<Map<String, List<RefEvent>>> all = ReferenceMatcher.matches(
                ConformanceCaseSubset.parsePattern("begin a where true oneOrMore allowCombinations optional"
                        + " ; followedByAny b where true oneOrMore allowCombinations", 0),
                ConformanceCaseSubset.parseEvents("x0@1 x1@2 x2@3 x3@4"));
        assertEquals(all.size(), all.stream().distinct().count());
        // a takes any subset, b a non-empty one after it; with b's first event at position k (0..3) that is
        // 2^k choices for a times 2^(3-k) for the rest of b: 8 for each k
        assertEquals(4 * 8, all.size());
    }

    // ------------------------------------------------------------------ helpers

    private static void assertMatches(String pattern, String events, String... expected) {
        List<String> want = new ArrayList<>(List.of(expected));
        want.sort(null);
        assertEquals(want, compact(pattern, events), pattern + " over " + events);
    }

    private static List<String> compact(String pattern, String events) {
        return compact(ConformanceCaseSubset.parsePattern(pattern, 0), events);
    }

    /** Matches as sorted strings like {@code a=a0 b=b1,b2}: stage=type+value of each event. */
    private static List<String> compact(RandomPatternSpec spec, String events) {
        List<String> out = new ArrayList<>();
        for (Map<String, List<RefEvent>> m : ReferenceMatcher.matches(spec, ConformanceCaseSubset.parseEvents(events))) {
            List<String> parts = new ArrayList<>();
            m.forEach((stage, taken) -> parts.add(stage + "=" + taken.stream()
                    .map(e -> e.type() + Integer.toString(e.value())).collect(Collectors.joining(","))));
            out.add(String.join(" ", parts));
        }
        out.sort(null);
        return out;
    }
}
