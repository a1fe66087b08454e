package io.cepheus.nfa.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.conformance.EvConditions.Comparison;
import io.cepheus.pattern.Condition;
import io.cepheus.pattern.IterativeCondition;
import io.cepheus.pattern.SimpleCondition;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConditionParserTest {

    /** A partial match as the engine would expose it to an iterative condition. */
    private record FakeContext(Map<String, List<Ev>> taken) implements Condition.Context<Ev> {
        @Override
        public List<Ev> eventsForPattern(String stage) {
            return taken.getOrDefault(stage, List.of());
        }

        @Override
        public long timestamp() {
            return 0;
        }

        @Override
        public long currentProcessingTime() {
            return 0;
        }
    }

    private static final Condition.Context<Ev> EMPTY = new FakeContext(Map.of());

    private static boolean test(String condition, Ev e) {
        return ConditionParser.parse(condition).test(e, EMPTY);
    }

    @Test
    void andBindsTighterThanOr() {
        Condition<Ev> c = ConditionParser.parse("type=A | type=B & value>3");
        assertEquals(Condition.or(new EvConditions.TypeIs('A'),
                Condition.and(new EvConditions.TypeIs('B'), new EvConditions.ValueCompare(Comparison.GT, 3))), c);
        assertTrue(c.test(Ev.of('A', 0, 1), EMPTY));
        assertFalse(c.test(Ev.of('B', 0, 1), EMPTY));
        assertTrue(c.test(Ev.of('B', 4, 1), EMPTY));
        // the other way round too
        assertTrue(test("type=B & value>3 | type=A", Ev.of('A', 0, 1)));
        assertFalse(test("type=B & value>3 | type=A", Ev.of('B', 0, 1)));
    }

    @Test
    void parenthesesAndNegation() {
        assertFalse(test("(type=A | type=B) & value>3", Ev.of('A', 0, 1)));
        assertTrue(test("(type=A | type=B) & value>3", Ev.of('A', 4, 1)));
        assertTrue(test("!(type=C) & !type=A", Ev.of('B', 0, 1)));
        assertFalse(test("!(type=C) & !type=A", Ev.of('A', 0, 1)));
        assertTrue(test("!!type=A", Ev.of('A', 0, 1)));
        assertTrue(test("! ( type = A | false )", Ev.of('B', 0, 1)));
        assertTrue(test("type=A|type=B&value>3", Ev.of('A', 0, 1)));
    }

    @Test
    void everyEventAtom() {
        Ev a5 = Ev.of('A', 5, 1);
        assertTrue(test("true", a5));
        assertFalse(test("false", a5));
        assertTrue(test("type=A", a5));
        assertFalse(test("type=a", a5));
        assertTrue(test("type!=B", a5));
        assertFalse(test("type!=A", a5));
        assertTrue(test("type in CAB", a5));
        assertFalse(test("type in CD", a5));
        assertTrue(test("value>4", a5));
        assertFalse(test("value>5", a5));
        assertTrue(test("value<6", a5));
        assertFalse(test("value<5", a5));
        assertTrue(test("value=5", a5));
        assertFalse(test("value=4", a5));
        assertTrue(test("value>=5", a5));
        assertFalse(test("value>=6", a5));
        assertTrue(test("value<=5", a5));
        assertFalse(test("value<=4", a5));
        assertTrue(test("value!=4", a5));
        assertFalse(test("value!=5", a5));
        assertTrue(test("value>-1", Ev.of('A', 0, 1)));
    }

    @Test
    void eventAtomsAreSimpleConditionsAndPartialMatchAtomsIterative() {
        for (String atom : List.of("true", "false", "type=A", "type!=A", "type in AB", "value>1", "value<1",
                "value=1", "value>=1", "value<=1", "value!=1")) {
            Condition<Ev> c = ConditionParser.parse(atom);
            assertInstanceOf(SimpleCondition.class, c, atom);
            assertFalse(c.isIterative(), atom);
        }
        for (String atom : List.of("sum(a)<3", "count(a)<3", "gt-last(a)")) {
            Condition<Ev> c = ConditionParser.parse(atom);
            assertInstanceOf(IterativeCondition.class, c, atom);
            assertTrue(c.isIterative(), atom);
        }
        assertFalse(ConditionParser.parse("type=A & !value>3 | true").isIterative());
        assertTrue(ConditionParser.parse("type=A & sum(a)<10").isIterative());
    }

    @Test
    void iterativeAtomsReadThePartialMatch() {
        Condition.Context<Ev> ctx = new FakeContext(Map.of("a", List.of(Ev.of('A', 3, 1), Ev.of('A', 4, 2))));
        // sum: 3 + 4 + this event's value < N
        assertTrue(ConditionParser.parse("sum(a)<10").test(Ev.of('A', 2, 3), ctx));
        assertFalse(ConditionParser.parse("sum(a)<10").test(Ev.of('A', 3, 3), ctx));
        assertTrue(ConditionParser.parse("sum(b)<10").test(Ev.of('A', 9, 3), ctx));
        // count: events taken so far, not counting this one
        assertTrue(ConditionParser.parse("count(a)<3").test(Ev.of('A', 0, 3), ctx));
        assertFalse(ConditionParser.parse("count(a)<2").test(Ev.of('A', 0, 3), ctx));
        // gt-last: strictly above the last taken value; true when the stage took nothing
        assertTrue(ConditionParser.parse("gt-last(a)").test(Ev.of('A', 5, 3), ctx));
        assertFalse(ConditionParser.parse("gt-last(a)").test(Ev.of('A', 4, 3), ctx));
        assertTrue(ConditionParser.parse("gt-last(b)").test(Ev.of('A', -100, 3), ctx));
    }

    @Test
    void rejectsMalformedConditions() {
        for (String bad : List.of("", "type", "type=AB", "type==A", "value>", "value>x", "value~3", "sum(a)>3",
                "count(a)", "gt-last a", "(type=A", "type=A)", "type=A &", "type=A type=B", "weird", "!",
                "type in 12", "value>3$")) {
            assertThrows(CaseSyntaxException.class, () -> ConditionParser.parse(bad), bad);
        }
    }
}
