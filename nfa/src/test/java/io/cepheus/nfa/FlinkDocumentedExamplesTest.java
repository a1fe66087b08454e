package io.cepheus.nfa;

import static io.cepheus.nfa.TestEvent.kind;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Pattern;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The examples of Apache Flink's CEP documentation (contiguity, looping, skip strategies), with the matches
 * the documentation lists.
 */
class FlinkDocumentedExamplesTest {

    // "a b" over "a c b1 b2"
    @Test
    void strictContiguityHasNoMatchWhenAnEventIntervenes() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a')).next("b").where(kind('b'));
        assertEquals(List.of(), Run.of(p, "a c b1 b2").matches);
    }

    @Test
    void relaxedContiguityTakesTheFirstMatchingEvent() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a')).followedBy("b").where(kind('b'));
        assertEquals(List.of("a b1"), Run.of(p, "a c b1 b2").matches);
    }

    @Test
    void nonDeterministicRelaxedContiguityTakesEveryMatchingEvent() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a')).followedByAny("b").where(kind('b'));
        assertEquals(sorted("a b1", "a b2"), sorted(Run.of(p, "a c b1 b2").matches));
    }

    // "C D A1 A2 A3 D A4 B" with start=C, middle=A oneOrMore, end=B
    private static Pattern<TestEvent> cAb() {
        return Pattern.<TestEvent>begin("start").where(kind('c'))
                .followedBy("middle").where(kind('a')).oneOrMore();
    }

    private static final String LOOP_INPUT = "c d a1 a2 a3 d a4 b";

    @Test
    void loopWithRelaxedInnerContiguity() {
        Pattern<TestEvent> p = cAb().followedBy("end").where(kind('b'));
        assertEquals(sorted("c a1 b", "c a1 a2 b", "c a1 a2 a3 b", "c a1 a2 a3 a4 b"),
                sorted(Run.of(p, LOOP_INPUT).matches));
    }

    @Test
    void loopWithConsecutive() {
        Pattern<TestEvent> p = cAb().consecutive().followedBy("end").where(kind('b'));
        assertEquals(sorted("c a1 b", "c a1 a2 b", "c a1 a2 a3 b"), sorted(Run.of(p, LOOP_INPUT).matches));
    }

    @Test
    void loopWithAllowCombinations() {
        Pattern<TestEvent> p = cAb().allowCombinations().followedBy("end").where(kind('b'));
        assertEquals(sorted("c a1 b", "c a1 a2 b", "c a1 a3 b", "c a1 a4 b", "c a1 a2 a3 b", "c a1 a2 a4 b",
                "c a1 a3 a4 b", "c a1 a2 a3 a4 b"), sorted(Run.of(p, LOOP_INPUT).matches));
    }

    // "b+ c" (c strictly after the last b) over "b1 b2 b3 c", one test per skip strategy. The loop branches
    // stay alive after c (they may still take more b's), and a held match waits for every earlier-starting
    // branch; the window ends those branches, so the documented results come out at the end of input.
    private static Pattern<TestEvent> bPlusC(AfterMatchSkipStrategy skip) {
        return Pattern.<TestEvent>begin("b", skip).where(kind('b')).oneOrMore().next("c").where(kind('c'))
                .within(Duration.ofMillis(10));
    }

    @Test
    void skipToFirstHoldsMatchesBehindEarlierBranchesWithoutAWindow() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("b", AfterMatchSkipStrategy.skipToFirst("b"))
                .where(kind('b')).oneOrMore().next("c").where(kind('c'));
        assertEquals(List.of("b1 b2 b3 c"), Run.of(p, "b1 b2 b3 c").matches);
    }

    private static List<String> skipRun(AfterMatchSkipStrategy skip) {
        return Run.of(bPlusC(skip), "b1 b2 b3 c").matches;
    }

    @Test
    void noSkip() {
        assertEquals(sorted("b1 b2 b3 c", "b2 b3 c", "b3 c"), sorted(skipRun(AfterMatchSkipStrategy.noSkip())));
    }

    @Test
    void skipToNext() {
        assertEquals(List.of("b1 b2 b3 c", "b2 b3 c", "b3 c"), skipRun(AfterMatchSkipStrategy.skipToNext()));
    }

    @Test
    void skipPastLastEvent() {
        assertEquals(List.of("b1 b2 b3 c"), skipRun(AfterMatchSkipStrategy.skipPastLastEvent()));
    }

    @Test
    void skipToFirst() {
        assertEquals(List.of("b1 b2 b3 c", "b2 b3 c", "b3 c"), skipRun(AfterMatchSkipStrategy.skipToFirst("b")));
    }

    @Test
    void skipToLast() {
        assertEquals(List.of("b1 b2 b3 c", "b3 c"), skipRun(AfterMatchSkipStrategy.skipToLast("b")));
    }

    // "a b+" over "a b1 b2 b3": a trailing loop emits one match per extension; skipToNext keeps only the first
    @Test
    void trailingLoopEmitsEveryExtension() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a')).followedBy("b").where(kind('b'))
                .oneOrMore();
        assertEquals(List.of("a b1", "a b1 b2", "a b1 b2 b3"), Run.of(p, "a b1 b2 b3").matches);
    }

    @Test
    void trailingLoopWithSkipToNext() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a", AfterMatchSkipStrategy.skipToNext()).where(kind('a'))
                .followedBy("b").where(kind('b')).oneOrMore();
        assertEquals(List.of("a b1"), Run.of(p, "a b1 b2 b3").matches);
    }

    // the documentation's skipToFirst example: (a|b|c) (b|c) c+.greedy d over "a b c1 c2 c3 d"
    private static Pattern<TestEvent> greedyExample(AfterMatchSkipStrategy skip) {
        return Pattern.<TestEvent>begin("e1", skip).where(e -> "abc".indexOf(e.kind()) >= 0)
                .followedBy("e2").where(e -> "bc".indexOf(e.kind()) >= 0)
                .followedBy("e3").where(kind('c')).oneOrMore().greedy()
                .followedBy("e4").where(kind('d'));
    }

    @Test
    void greedyExampleNoSkip() {
        assertEquals(sorted("a b c1 c2 c3 d", "b c1 c2 c3 d", "c1 c2 c3 d"),
                sorted(Run.of(greedyExample(AfterMatchSkipStrategy.noSkip()), "a b c1 c2 c3 d").matches));
    }

    @Test
    void greedyExampleSkipToFirst() {
        assertEquals(List.of("a b c1 c2 c3 d", "c1 c2 c3 d"),
                Run.of(greedyExample(AfterMatchSkipStrategy.skipToFirst("e3")), "a b c1 c2 c3 d").matches);
    }

    private static List<String> sorted(String... items) {
        return sorted(List.of(items));
    }

    private static List<String> sorted(List<String> items) {
        List<String> copy = new ArrayList<>(items);
        Collections.sort(copy);
        return copy;
    }
}
