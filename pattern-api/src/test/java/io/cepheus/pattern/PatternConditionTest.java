package io.cepheus.pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * How {@code where}, {@code or} and {@code subtype} build a stage's condition, checked through
 * {@code condition().test(...)}, and which overload a lambda resolves to.
 */
class PatternConditionTest {

    private static final Condition.Context<TestEvent> CTX = FixedContext.at(0L);

    private static boolean accepts(Pattern<TestEvent> stage, TestEvent event) {
        return stage.condition().test(event, CTX);
    }

    private static SimpleCondition<TestEvent> is(String flag) {
        return e -> e.type().contains(flag);
    }

    /** Events are named by the flags they carry: "xz" satisfies x and z but not y. */
    @ParameterizedTest(name = "where(x).or(y).where(z) on \"{0}\" = {1}")
    @CsvSource({"'',false", "x,false", "y,false", "z,false", "xy,false", "xz,true", "yz,true", "xyz,true"})
    void whereOrWhereMeansXOrYAndZ(String flags, boolean expected) {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(is("x")).or(is("y")).where(is("z"));
        assertEquals(expected, accepts(p, TestEvent.of(flags, 0)));
    }

    @ParameterizedTest(name = "where(x).where(y).or(z) on \"{0}\" = {1}")
    @CsvSource({"'',false", "x,false", "y,false", "z,true", "xy,true", "xz,true", "yz,true", "xyz,true"})
    void whereWhereOrMeansXAndYOrZ(String flags, boolean expected) {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(is("x")).where(is("y")).or(is("z"));
        assertEquals(expected, accepts(p, TestEvent.of(flags, 0)));
    }

    @Test
    void theFirstConditionIsStoredAsGiven() {
        SimpleCondition<TestEvent> x = is("x");
        assertNull(Pattern.<TestEvent>begin("a").condition(), "no condition: every event is accepted");
        assertSame(x, Pattern.<TestEvent>begin("a").where(x).condition());
    }

    @Test
    void orOnAStageWithoutConditionActsLikeWhere() {
        // as in Flink CEP: or() with nothing before it does not widen "every event", it becomes the condition
        SimpleCondition<TestEvent> x = is("x");
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").or(x);
        assertSame(x, p.condition());
        assertFalse(accepts(p, TestEvent.of("y", 0)));
    }

    @Test
    void conditionsOnOneStageDoNotLeakIntoTheNext() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(is("x")).next("b").where(is("y"));
        assertTrue(accepts(p, TestEvent.of("y", 0)));
        assertTrue(accepts(p.previous(), TestEvent.of("x", 0)));
        assertFalse(accepts(p.previous(), TestEvent.of("y", 0)));
    }

    @Test
    void subtypeNarrowsLikeWhere() {
        Pattern<Object> p = Pattern.<Object>begin("a").subtype(String.class).where(e -> ((String) e).length() > 2);
        assertTrue(p.condition().test("abc", FixedContext.at(0L)));
        assertFalse(p.condition().test("ab", FixedContext.at(0L)));
        assertFalse(p.condition().test(1234, FixedContext.at(0L)), "subtype is checked before the cast");
        assertFalse(p.condition().isIterative());
    }

    @Test
    void oneArgumentLambdasResolveToSimpleCondition() {
        Pattern<TestEvent> where = Pattern.<TestEvent>begin("a").where(e -> e.value() > 1);
        Pattern<TestEvent> or = Pattern.<TestEvent>begin("a").or(e -> e.value() > 1);
        Pattern<TestEvent> until = Pattern.<TestEvent>begin("a").oneOrMore().until(e -> e.value() > 1);

        assertInstanceOf(SimpleCondition.class, where.condition());
        assertInstanceOf(SimpleCondition.class, or.condition());
        assertInstanceOf(SimpleCondition.class, until.untilCondition());
        assertFalse(where.condition().isIterative());
        assertTrue(accepts(where, TestEvent.of("a", 2)));
        assertFalse(accepts(where, TestEvent.of("a", 1)));
    }

    @Test
    void methodReferencesOnTheEventResolveToSimpleCondition() {
        Pattern<String> p = Pattern.<String>begin("a").where(String::isEmpty);
        assertInstanceOf(SimpleCondition.class, p.condition());
        assertTrue(p.condition().test("", FixedContext.at(0L)));
    }

    @Test
    void twoArgumentLambdasResolveToIterativeCondition() {
        Pattern<TestEvent> where = Pattern.<TestEvent>begin("a").where((e, ctx) -> ctx.timestamp() == 5L);
        Pattern<TestEvent> or = Pattern.<TestEvent>begin("a").or((e, ctx) -> ctx.timestamp() == 5L);
        Pattern<TestEvent> until = Pattern.<TestEvent>begin("a").oneOrMore().until((e, ctx) -> true);

        assertInstanceOf(IterativeCondition.class, where.condition());
        assertInstanceOf(IterativeCondition.class, or.condition());
        assertInstanceOf(IterativeCondition.class, until.untilCondition());
        assertTrue(where.condition().isIterative());
        assertTrue(where.condition().test(TestEvent.of("a", 0), FixedContext.at(5L)));
        assertFalse(where.condition().test(TestEvent.of("a", 0), FixedContext.at(6L)));
    }

    @Test
    void aBuiltConditionIsTakenAsIs() {
        Condition<TestEvent> combined = Condition.not(is("x"));
        assertSame(combined, Pattern.<TestEvent>begin("a").where(combined).condition());
        assertFalse(Pattern.<TestEvent>begin("a").where(combined).condition().isIterative());
    }

    @Test
    void chainingKeepsIterativenessAccurate() {
        Pattern<TestEvent> simpleOnly = Pattern.<TestEvent>begin("a").where(is("x")).or(is("y")).where(is("z"));
        assertFalse(simpleOnly.condition().isIterative(), "only simple conditions: no context needed");

        Pattern<TestEvent> mixed = simpleOnly.or((e, ctx) -> false);
        assertTrue(mixed.condition().isIterative());
    }

    @Test
    void nullConditionsAreRejected() {
        Pattern<TestEvent> a = Pattern.begin("a");
        assertThrows(NullPointerException.class, () -> a.where((Condition<TestEvent>) null));
        assertThrows(NullPointerException.class, () -> a.where((SimpleCondition<TestEvent>) null));
        assertThrows(NullPointerException.class, () -> a.or((IterativeCondition<TestEvent>) null));
        assertThrows(NullPointerException.class, () -> a.oneOrMore().until((Condition<TestEvent>) null));
        assertThrows(NullPointerException.class, () -> a.subtype(null));
    }
}
