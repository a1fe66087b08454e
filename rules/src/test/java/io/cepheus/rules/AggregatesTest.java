package io.cepheus.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.Condition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Aggregates read the events a stage has already taken in the partial match (given here by a context, as the
 * matcher gives it): their values when there are some, 0 or null when there are none, nulls left out.
 */
class AggregatesTest {

    record Tx(String type, int amount, double rate, String note) {
    }

    /** A partial match: stage name to the events it took. */
    private static Condition.Context<Object> context(Map<String, List<Object>> taken, List<String> asked) {
        return new Condition.Context<>() {
            @Override
            public List<Object> eventsForPattern(String stage) {
                asked.add(stage);
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
        };
    }

    private static boolean test(String expression, Object event, Map<String, List<Object>> taken) {
        @SuppressWarnings("unchecked")
        Condition<Object> c = (Condition<Object>) (Condition<?>) (event instanceof Map
                ? Rules.mapExpression(expression) : Rules.expression(expression, Tx.class));
        return c.test(event, context(taken, new ArrayList<>()));
    }

    @Test
    void aggregatesOverTheEventsAStageTook() {
        Map<String, List<Object>> taken = Map.of("a", List.of(new Tx("A", 3, 0.5, "x"), new Tx("A", 4, 1.5, null),
                new Tx("A", 2, 1.0, "z")));
        Tx now = new Tx("B", 10, 0, null);
        assertTrue(test("count(a) == 3 && count(b) == 0", now, taken));
        assertTrue(test("sum(a.amount) == 9 && sum(a.amount) + amount == 19", now, taken));
        assertTrue(test("sum(a.rate) == 3.0", now, taken));
        assertTrue(test("min(a.amount) == 2 && max(a.amount) == 4", now, taken));
        assertTrue(test("avg(a.amount) == 3.0", now, taken));
        assertTrue(test("first(a.amount) == 3 && last(a.amount) == 2", now, taken));
        assertTrue(test("amount > last(a.amount)", now, taken));
        assertTrue(test("min(a.note) == 'x' && max(a.note) == 'z'", now, taken), "nulls left out, strings ordered");
        assertTrue(test("last(a.note) == 'z' && first(a.note) == 'x'", now, taken));
    }

    @Test
    void aStageThatTookNothingCountsAndSumsZeroAndHasNoExtremes() {
        Map<String, List<Object>> none = Map.of();
        Tx now = new Tx("B", 10, 0, null);
        assertTrue(test("count(a) == 0 && sum(a.amount) == 0 && sum(a.rate) == 0", now, none));
        assertTrue(test("min(a.amount) == null && max(a.amount) == null && avg(a.amount) == null", now, none));
        assertTrue(test("first(a.amount) == null && last(a.amount) == null", now, none));
        assertFalse(test("amount > last(a.amount)", now, none), "a comparison with null is false");
        assertTrue(test("count(a) == 0 || amount > last(a.amount)", now, none), "the usual guard");
    }

    @Test
    void mapEventsSumIntegersExactlyAndMixedValuesAsDecimalsLeavingNullsOut() {
        Map<String, Object> one = new HashMap<>(Map.of("v", 1L));
        Map<String, Object> two = new HashMap<>(Map.of("v", 2));
        Map<String, Object> none = new HashMap<>();
        Map<String, Object> half = new HashMap<>(Map.of("v", 0.5));
        Map<String, List<Object>> ints = Map.of("a", List.of(one, two, none));
        assertTrue(test("sum(a.v) == 3 && count(a) == 3 && avg(a.v) == 1.5", Map.of(), ints));
        Map<String, List<Object>> mixed = Map.of("a", List.of(one, half));
        assertTrue(test("sum(a.v) == 1.5", Map.of(), mixed));
        Map<String, List<Object>> text = Map.of("a", List.of(Map.of("v", "x")));
        assertThrows(ExpressionException.class, () -> test("sum(a.v) > 0", Map.of(), text));
    }

    @Test
    void anIntegerSumThatOverflowsIsAnError() {
        Map<String, List<Object>> big = Map.of("a", List.of(new Tx("A", Integer.MAX_VALUE, 0, null)));
        assertTrue(test("sum(a.amount) == 2147483647", new Tx("B", 0, 0, null), big));
        List<Object> many = new ArrayList<>();
        Map<String, Object> huge = Map.of("v", Long.MAX_VALUE);
        many.add(huge);
        many.add(huge);
        ExpressionException e = assertThrows(ExpressionException.class,
                () -> test("sum(a.v) > 0", Map.of(), Map.of("a", many)));
        assertTrue(e.problem().contains("integer overflow"), e.problem());
    }

    @Test
    void eachStageIsFetchedOncePerEvaluationHoweverManyAggregatesReadIt() {
        List<String> asked = new ArrayList<>();
        Map<String, List<Object>> taken = Map.of("a", List.of(new Tx("A", 3, 0, null)));
        Condition<Tx> c = Rules.expression("count(a) > 0 && sum(a.amount) > 0 && max(a.amount) == last(a.amount)",
                Tx.class);
        @SuppressWarnings({"unchecked", "rawtypes"})
        Condition.Context<Tx> ctx = (Condition.Context) context(taken, asked);
        assertTrue(c.test(new Tx("B", 1, 0, null), ctx));
        assertEquals(List.of("a"), asked);
    }

    @Test
    void aggregatesOfFieldsThatCannotBeSummedOrOrderedAreRefused() {
        assertThrows(RuleFormatException.class, () -> Rules.expression("sum(a.type) > 0", Tx.class));
        assertThrows(RuleFormatException.class, () -> Rules.expression("avg(a.note) > 0", Tx.class));
        assertThrows(RuleFormatException.class, () -> Rules.expression("sum(a.nope) > 0", Tx.class));
    }
}
