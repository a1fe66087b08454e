package io.cepheus.pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Condition#and}, {@link Condition#or} and {@link Condition#not}: truth tables, evaluation order and
 * short-circuiting, and how {@link Condition#isIterative()} propagates through them.
 */
class ConditionCombinatorTest {

    private static final TestEvent EVENT = TestEvent.of("A", 1);
    private static final Condition.Context<TestEvent> CTX = FixedContext.at(42L);

    private static SimpleCondition<TestEvent> constant(boolean value) {
        return e -> value;
    }

    private static boolean eval(Condition<TestEvent> c) {
        return c.test(EVENT, CTX);
    }

    @ParameterizedTest(name = "{0} and {1} = {2}")
    @CsvSource({"false,false,false", "false,true,false", "true,false,false", "true,true,true"})
    void andTruthTable(boolean left, boolean right, boolean expected) {
        assertEquals(expected, eval(Condition.and(constant(left), constant(right))));
        assertEquals(expected, eval(constant(left).and(constant(right))));
    }

    @ParameterizedTest(name = "{0} or {1} = {2}")
    @CsvSource({"false,false,false", "false,true,true", "true,false,true", "true,true,true"})
    void orTruthTable(boolean left, boolean right, boolean expected) {
        assertEquals(expected, eval(Condition.or(constant(left), constant(right))));
        assertEquals(expected, eval(constant(left).or(constant(right))));
    }

    @ParameterizedTest(name = "not {0} = {1}")
    @CsvSource({"false,true", "true,false"})
    void notTruthTable(boolean value, boolean expected) {
        assertEquals(expected, eval(Condition.not(constant(value))));
        assertEquals(expected, eval(constant(value).negate()));
        assertEquals(value, eval(Condition.not(Condition.not(constant(value)))));
    }

    /** Records which named conditions ran, in order. */
    private static final class Trace {
        final List<String> calls = new ArrayList<>();

        SimpleCondition<TestEvent> returning(String name, boolean value) {
            return e -> {
                calls.add(name);
                return value;
            };
        }
    }

    @Test
    void andEvaluatesLeftFirstAndSkipsRightWhenLeftIsFalse() {
        Trace trace = new Trace();
        assertFalse(eval(Condition.and(trace.returning("l", false), trace.returning("r", true))));
        assertEquals(List.of("l"), trace.calls);

        trace.calls.clear();
        assertTrue(eval(trace.returning("l", true).and(trace.returning("r", true))));
        assertEquals(List.of("l", "r"), trace.calls);
    }

    @Test
    void orEvaluatesLeftFirstAndSkipsRightWhenLeftIsTrue() {
        Trace trace = new Trace();
        assertTrue(eval(Condition.or(trace.returning("l", true), trace.returning("r", false))));
        assertEquals(List.of("l"), trace.calls);

        trace.calls.clear();
        assertFalse(eval(trace.returning("l", false).or(trace.returning("r", false))));
        assertEquals(List.of("l", "r"), trace.calls);
    }

    @Test
    void nestedCombinationsEvaluateLeftToRight() {
        Trace trace = new Trace();
        // (a or b) and (not c): a false, b true, c false -> a, b, c all run, in that order
        Condition<TestEvent> c = trace.returning("a", false).or(trace.returning("b", true))
                .and(trace.returning("c", false).negate());
        assertTrue(eval(c));
        assertEquals(List.of("a", "b", "c"), trace.calls);
    }

    @Test
    void theContextReachesEveryOperand() {
        IterativeCondition<TestEvent> at42 = (e, ctx) -> ctx.timestamp() == 42L;
        IterativeCondition<TestEvent> notAt42 = (e, ctx) -> ctx.timestamp() != 42L;
        assertTrue(eval(Condition.and(constant(true), at42)));
        assertTrue(eval(Condition.or(notAt42, at42)));
        assertTrue(eval(Condition.not(notAt42)));
        assertFalse(Condition.and(constant(true), at42).test(EVENT, FixedContext.at(7L)));
    }

    @Test
    void simpleConditionsAreNotIterative() {
        assertFalse(constant(true).isIterative());
        assertFalse(new io.cepheus.pattern.internal.SubtypeCondition<TestEvent>(TestEvent.class).isIterative());
    }

    @Test
    void iterativeConditionsAndPlainConditionsAreIterative() {
        IterativeCondition<TestEvent> iterative = (e, ctx) -> true;
        Condition<TestEvent> plain = (e, ctx) -> true;
        assertTrue(iterative.isIterative());
        assertTrue(plain.isIterative(), "a plain Condition may read the context, so it must be assumed to");
    }

    @Test
    void combinationsAreIterativeWhenAnyOperandIs() {
        SimpleCondition<TestEvent> simple = constant(true);
        IterativeCondition<TestEvent> iterative = (e, ctx) -> true;

        assertFalse(Condition.and(simple, simple).isIterative());
        assertFalse(Condition.or(simple, simple).isIterative());
        assertFalse(Condition.not(simple).isIterative());
        assertFalse(simple.and(simple).or(simple.negate()).isIterative());

        assertTrue(Condition.and(simple, iterative).isIterative());
        assertTrue(Condition.and(iterative, simple).isIterative());
        assertTrue(Condition.or(simple, iterative).isIterative());
        assertTrue(Condition.or(iterative, simple).isIterative());
        assertTrue(Condition.not(iterative).isIterative());
        assertTrue(simple.and(simple).or(Condition.not(iterative)).isIterative(), "deeply nested iterative operand");
    }

    @Test
    void combinatorsRejectNullOperands() {
        SimpleCondition<TestEvent> simple = constant(true);
        assertThrows(NullPointerException.class, () -> Condition.and(simple, null));
        assertThrows(NullPointerException.class, () -> Condition.and(null, simple));
        assertThrows(NullPointerException.class, () -> Condition.or(simple, null));
        assertThrows(NullPointerException.class, () -> Condition.or(null, simple));
        assertThrows(NullPointerException.class, () -> Condition.not(null));
        assertThrows(NullPointerException.class, () -> simple.and(null));
        assertThrows(NullPointerException.class, () -> simple.or(null));
    }
}
