package io.cepheus.nfa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Condition;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.SimpleCondition;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link CompiledPattern#startConditions} and {@link CompiledPattern#waitingConditions}: what an event must meet to
 * begin a partial match, and to change a waiting one, which an engine running many patterns indexes. That handing a
 * pattern only such events changes none of its output is {@code ManyRulesAgreementTest} (rules module) and the rule
 * conformance suite run beside a hundred other rules.
 */
class StartAndWaitingConditionsTest {

    private final SimpleCondition<TestEvent> a = TestEvent.kind('a');
    private final SimpleCondition<TestEvent> b = TestEvent.kind('b');

    @Test
    void aPatternBeginsWithItsFirstStageAndItsPartialMatchesWaitForTheNext() {
        CompiledPattern<TestEvent> p = NfaCompiler.compile(Pattern.<TestEvent>begin("a").where(a)
                .followedBy("b").where(b));
        assertSame(a, only(p.startConditions()));
        assertSame(b, only(p.waitingConditions().orElseThrow()));
    }

    @Test
    void pastAnOptionalFirstStageThePatternCanBeginWithTheNextOne() {
        CompiledPattern<TestEvent> p = NfaCompiler.compile(Pattern.<TestEvent>begin("a").where(a).optional()
                .followedBy("b").where(b));
        List<List<Condition<TestEvent>>> ways = p.startConditions();
        assertEquals(2, ways.size(), ways.toString());
        assertTrue(ways.contains(List.of(a)) && ways.contains(List.of(b)), ways.toString());
    }

    @Test
    void relaxedContiguityWaitsForTheNextStageWhateverComesBetween() {
        CompiledPattern<TestEvent> any = NfaCompiler.compile(Pattern.<TestEvent>begin("a").where(a)
                .followedByAny("b").where(b));
        assertSame(b, only(any.waitingConditions().orElseThrow()));
    }

    @Test
    void strictContiguityEndsAPartialMatchOnAnyOtherEventSoEveryEventMatters() {
        CompiledPattern<TestEvent> p = NfaCompiler.compile(Pattern.<TestEvent>begin("a").where(a).next("b").where(b));
        assertTrue(p.waitingConditions().isEmpty());
    }

    @Test
    void aLoopThatMayMoveOnWithoutTakingAnEventCannotSay() {
        CompiledPattern<TestEvent> p = NfaCompiler.compile(Pattern.<TestEvent>begin("a").where(a).oneOrMore()
                .followedBy("b").where(b));
        assertTrue(p.waitingConditions().isEmpty());
    }

    @Test
    void aSkipStrategyHoldsMatchesBackSoEveryEventMatters() {
        CompiledPattern<TestEvent> p = NfaCompiler.compile(Pattern.<TestEvent>begin("a",
                AfterMatchSkipStrategy.skipPastLastEvent()).where(a).followedBy("b").where(b));
        assertTrue(p.waitingConditions().isEmpty());
    }

    @Test
    void bothConditionsOfAStageAreRequired() {
        SimpleCondition<TestEvent> early = e -> e.ts() < 10;
        CompiledPattern<TestEvent> p = NfaCompiler.compile(Pattern.<TestEvent>begin("a").where(a).where(early)
                .followedBy("b").where(b));
        List<Condition<TestEvent>> way = p.startConditions().get(0);
        assertTrue(way.contains(a) && way.contains(early), way.toString());
    }

    private static Condition<TestEvent> only(List<List<Condition<TestEvent>>> ways) {
        assertEquals(1, ways.size(), ways.toString());
        assertEquals(1, ways.get(0).size(), ways.toString());
        return ways.get(0).get(0);
    }
}
