package io.cepheus.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.Condition;
import io.cepheus.pattern.SimpleCondition;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The expression language's meaning, through {@link Rules#expression} conditions on record and map events: numbers,
 * strings, characters, enums, nesting, null, membership, arithmetic and its errors, and the refusals at compile time.
 */
class ExpressionLanguageTest {

    enum Tier { GOLD, SILVER }

    record Card(String country, Integer limit) {
    }

    record Payment(String type, char kind, int amount, long id, double score, boolean flagged, Boolean vip,
            Tier tier, Card card, BigDecimal exact, Character code, Object extra) {
    }

    private static Payment payment(int amount) {
        return new Payment("P", 'A', amount, 9_007_199_254_740_993L, 0.5, false, null, Tier.GOLD,
                new Card("DE", 1000), new BigDecimal("12.50"), 'x', Map.of("k", 3));
    }

    private static boolean on(String expression, Object event) {
        @SuppressWarnings("unchecked")
        Condition<Object> c = (Condition<Object>) (Condition<?>) (event instanceof Map
                ? Rules.mapExpression(expression) : Rules.expression(expression, (Class<Object>) event.getClass()));
        return c.test(event, null);
    }

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void numbersCompareByValueAcrossIntegerAndDecimalTypesExactly() {
        Payment p = payment(500);
        assertTrue(on("amount == 500", p));
        assertTrue(on("amount == 500.0", p));
        assertTrue(on("amount > 499.99 && amount < 500.01", p));
        assertFalse(on("amount > 500.00", p));
        assertTrue(on("500 <= amount", p));
        assertTrue(on("score * 2 == 1", p));
        // 2^53 + 1 does not round to 2^53: compared exactly, not as doubles
        assertTrue(on("id > 9007199254740992.0", p));
        assertTrue(on("exact == 12.5 && exact > 12", p));
        assertTrue(on("card.limit >= 1000 && card.limit < 1000.5", p));
    }

    @Test
    void integersStayIntegersAndDecimalsMakeDecimals() {
        Payment p = payment(7);
        assertTrue(on("amount / 2 == 3", p), "integer division truncates");
        assertTrue(on("amount % 4 == 3", p));
        assertTrue(on("amount / 2.0 == 3.5", p));
        assertTrue(on("-amount == -7 && -(-amount) == 7", p));
        assertTrue(on("1 + 2 * 3 - 4 == 3", p), "precedence");
        assertTrue(on("(1 + 2) * 3 == 9", p));
    }

    @Test
    void stringsCharactersAndEnumsReadAsStrings() {
        Payment p = payment(1);
        assertTrue(on("type == 'P' && type != \"Q\"", p));
        assertTrue(on("kind == 'A' && kind != 'B' && kind < 'B'", p), "a char field reads as a one-letter string");
        assertFalse(on("kind == 'AB'", p));
        assertTrue(on("tier == 'GOLD' && tier in ('GOLD', 'PLATINUM')", p), "an enum constant reads as its name");
        assertTrue(on("code == 'x'", p), "a Character reads as a one-letter string");
        assertTrue(on("card.country not in ('FR', 'IT')", p));
        assertTrue(on("'abc' < 'abd' && 'b' > 'abc'", p));
        assertTrue(on("type == 'it\\'s' || true", p), "escapes");
    }

    @Test
    void membershipTestsEqualityByValue() {
        Payment p = payment(3);
        assertTrue(on("amount in (1, 2, 3)", p));
        assertTrue(on("amount in (3.0)", p));
        assertFalse(on("amount in (3.5)", p));
        assertTrue(on("amount not in (-1, -3)", p));
        assertTrue(on("kind in ('A', 'B') && kind not in ('C', 'AB')", p));
        assertTrue(on("amount in (1,2,3,4,5,6,7,8,9,10,11,12)", p), "many members");
        assertTrue(on("x in (1, 'one') ", map("x", 1L)));
        assertTrue(on("x in (1, 'one') ", map("x", "one")));
        assertTrue(on("x in (1.0) ", map("x", 1)));
    }

    @Test
    void nullIsFalseInComparisonsNullInArithmeticAndFalseAsABoolean() {
        Map<String, Object> m = map("amount", 5L);
        assertTrue(on("missing == null && amount != null", m));
        assertFalse(on("missing != null", m));
        assertFalse(on("missing > 1", m));
        assertFalse(on("missing < 1", m));
        assertFalse(on("missing != 1", m), "a comparison with null is false, != too");
        assertFalse(on("missing == 1", m));
        assertFalse(on("missing + 1 > 0", m), "null in, null out");
        assertFalse(on("missing", m), "a missing value is false as a boolean");
        assertTrue(on("!missing", m));
        assertFalse(on("missing in (1, 2)", m));
        assertFalse(on("missing not in (1, 2)", m));
        assertFalse(on("missing.deeper == 1", m), "a path through null is null");
        assertTrue(on("nil == null", m));
        Payment p = payment(1);
        assertTrue(on("vip == null", p));
        assertFalse(on("vip != true", p), "a null Boolean compares as null: false, != too");
        assertFalse(on("vip", p), "a null Boolean field is false as a boolean");
    }

    @Test
    void mapEventsReadKeysAndNestedMaps() {
        Map<String, Object> m = map("type", "F", "amount", 12.5, "card", map("country", "DE", "tags", List.of()));
        assertTrue(on("type == 'F' && amount > 12 && card.country == 'DE'", m));
        assertFalse(on("card.missing == 'x'", m));
        assertTrue(on("amount * 2 == 25", m));
    }

    @Test
    void booleanFieldsAndLogic() {
        Payment p = payment(1);
        assertTrue(on("!flagged && not flagged", p));
        assertTrue(on("flagged == false and true or false", p));
        assertTrue(on("flagged || amount == 1", p));
        assertFalse(on("flagged && amount == 1", p));
    }

    @Test
    void anOverflowIsAnErrorForTheEventNamingThePartThatFailed() {
        Payment p = payment(Integer.MAX_VALUE);
        ExpressionException e = assertThrows(ExpressionException.class,
                () -> on("amount * amount * amount > 0", p));
        assertTrue(e.getMessage().contains("integer overflow"), e.getMessage());
        assertEquals("amount * amount * amount > 0", e.expression());
        assertEquals(16, e.column(), "the second '*' overflows, the first does not");
        assertTrue(e.getMessage().contains("    amount * amount * amount > 0\n                    ^"), e.getMessage());
        ExpressionException zero = assertThrows(ExpressionException.class, () -> on("amount / (amount - amount) > 0",
                p));
        assertTrue(zero.problem().startsWith("division by zero"), zero.problem());
        assertThrows(ExpressionException.class, () -> on("score / 0 > 0", p), "a decimal division by zero too");
    }

    @Test
    void aMapValueOfTheWrongTypeIsAnErrorForThatEvent() {
        ExpressionException e = assertThrows(ExpressionException.class, () -> on("amount > 5", map("amount", "abc")));
        assertTrue(e.problem().contains("cannot compare the string 'abc' with the number 5"), e.problem());
        ExpressionException notMap = assertThrows(ExpressionException.class,
                () -> on("card.country == 'DE'", map("card", "DE")));
        assertTrue(notMap.problem().contains("it is not a map"), notMap.problem());
        assertThrows(ExpressionException.class, () -> on("flag && true", map("flag", "yes")));
    }

    @Test
    void whatCannotBeRightForAClassIsRefusedWhenCompiledWithACaret() {
        assertRefused("amout > 5", 0, "unknown field 'amout' of Payment", "its fields: ");
        assertRefused("type > 5", 5, "cannot compare 'type' (a string) with 5 (an integer)");
        assertRefused("type + 1 == 2", 5, "'+' needs numbers, but 'type' is a string");
        assertRefused("flagged < true", 8, "does not order booleans");
        assertRefused("amount + 1", 0, "a condition must be true or false, but this expression is an integer");
        assertRefused("amount && true", 0, "'&&' needs true or false");
        assertRefused("amount in ('a')", 11, "'amount' is an integer, so it is never 'a'");
        assertRefused("card.nope == 1", 0, "unknown field 'nope' of Card (the type of 'card')");
        assertRefused("1 / 0 == 1", 2, "division by zero");
    }

    @Test
    void syntaxErrorsPointAtTheirColumn() {
        assertRefused("amount >", 8, "expected a value", "but found the end of the expression");
        assertRefused("amount > 5 5", 11, "unexpected the number 5 after a complete expression");
        assertRefused("amount = 5", 7, "'=' is not an operator here: compare with '=='");
        assertRefused("type =~ 'P.*'", 5, "'=~' (regular expression match) is not part of the expression language");
        assertRefused("amount > 5 ? true : false", 11, "the conditional operator ?:");
        assertRefused("string.contains(type, 'P')", 0, "'string.contains(...)' is not a function", "", true);
        assertRefused("1 < amount < 3", 11, "comparisons do not chain");
        assertRefused("type == 'open", 8, "not closed");
        assertRefused("amount in (null)", 11, "null in an in-list never matches");
        assertRefused("(amount > 1", 11, "expected ')'");
        assertRefused("amount > 5L", 10, "number suffixes are not part of the expression language");
        assertRefused("foo(1)", 0, "'foo(...)' is not a function");
        assertRefused("count(a.x) > 1", 7, "count takes a stage only");
        assertRefused("sum(a) > 1", 5, "expected '.' and a field");
        assertRefused("in == 1", 0, "the keyword 'in'");
        assertRefused("", 0, "the expression is empty");
    }

    @Test
    void nestingAndLengthAreBoundedWithoutOverflowingTheStack() {
        String deep = "(".repeat(10_000) + "1 == 1" + ")".repeat(10_000);
        RuleFormatException e = assertThrows(RuleFormatException.class, () -> Rules.expression(deep, Payment.class));
        assertTrue(e.getMessage().contains("nested more than 200 levels deep"), e.getMessage());
        String longChain = "amount > 0" + " && amount > 0".repeat(5_000);
        assertThrows(RuleFormatException.class, () -> Rules.expression(longChain, Payment.class));
        String negations = "!".repeat(50_000) + "flagged";
        assertThrows(RuleFormatException.class, () -> Rules.expression(negations, Payment.class));
        assertThrows(RuleFormatException.class, () -> Rules.expression("1 == 1 " + " ".repeat(70_000), Payment.class));
    }

    @Test
    void anExpressionWithoutAggregatesIsASimpleConditionAndOneWithAnIterativeOne() {
        Condition<Payment> simple = Rules.expression("amount > 5", Payment.class);
        assertFalse(simple.isIterative());
        assertTrue(simple instanceof SimpleCondition<Payment>);
        Condition<Payment> iterative = Rules.expression("amount > last(a.amount)", Payment.class);
        assertTrue(iterative.isIterative());
    }

    @Test
    void beansPublicFieldsAndFluentAccessorsAreFields() {
        assertTrue(on("amount == 3 && ok && name == 'n'", new Bean()));
        assertTrue(on("count == 2 && label == 'l'", new PublicFields()));
        assertTrue(on("size == 4", new Fluent()));
        assertTrue(on("inner.count == 2", new Holder()), "a nested public field, boxed");
    }

    /** A JavaBean. */
    public static final class Bean {
        public int getAmount() {
            return 3;
        }

        public boolean isOk() {
            return true;
        }

        public String getName() {
            return "n";
        }
    }

    /** Public fields. */
    public static final class PublicFields {
        public int count = 2;
        public String label = "l";
    }

    /** Fluent accessors. */
    static final class Fluent {
        public long size() {
            return 4;
        }
    }

    /** A public field holding an object with public fields. */
    public static final class Holder {
        public PublicFields inner = new PublicFields();
    }

    private static void assertRefused(String expression, int column, String... fragments) {
        assertRefused(expression, column, fragments[0], fragments.length > 1 ? fragments[1] : "", false);
    }

    private static void assertRefused(String expression, int column, String fragment, String other,
            boolean columnOnly) {
        RuleFormatException e = assertThrows(RuleFormatException.class,
                () -> Rules.expression(expression, Payment.class), expression);
        assertTrue(e.getMessage().contains(fragment), "'" + expression + "': " + e.getMessage());
        assertTrue(e.getMessage().contains(other), "'" + expression + "': " + e.getMessage());
        String caretLine = "    " + " ".repeat(column) + "^";
        assertTrue(e.getMessage().endsWith("\n" + caretLine), "'" + expression + "' caret at " + column + ":\n"
                + e.getMessage());
    }
}
