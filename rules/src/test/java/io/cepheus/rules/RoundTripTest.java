package io.cepheus.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.NfaCompiler;
import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Condition;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.SimpleCondition;
import io.cepheus.pattern.WithinType;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@link Rules#toJson} and {@link Rules#parse} are inverses: a pattern written as JSON and read back has the same
 * structure (what the NFA compiler fingerprints: stages, quantifiers, contiguity, windows, skip strategy) and the
 * same conditions; a rule written and read back is equal to itself. What has no JSON form is refused by name. (That
 * rules also match exactly as the builder's patterns, and as Apache Flink's, is checked on random patterns by the
 * benchmarks module's agreement test.)
 */
class RoundTripTest {

    sealed interface Sensor permits Temperature, Pressure {
        /** @return a level every sensor reports: what expressions on {@code Sensor} events can read */
        int level();
    }

    record Temperature(String site, double celsius, int level) implements Sensor {
    }

    record Pressure(String site, double bar, int level) implements Sensor {
    }

    private static final NamedConditions<Sensor> NAMED = NamedConditions.<Sensor>builder()
            .condition("com.acme.Hot", (SimpleCondition<Sensor>) s -> s instanceof Temperature t && t.celsius() > 40)
            .conditionFactory("com.acme.Site", args -> (SimpleCondition<Sensor>) s -> args.contains(site(s)))
            .subtype(Temperature.class)
            .subtype("pressure", Pressure.class)
            .build();

    private static String site(Sensor s) {
        return s instanceof Temperature t ? t.site() : ((Pressure) s).site();
    }

    private static Condition<Sensor> expr(String text) {
        return Rules.expression(text, Sensor.class);
    }

    /** Every feature the format has: groups, loops with until, NOT stages, windows, gaps, named and subtype conditions. */
    private static Pattern<Sensor> everything() {
        Pattern<Sensor> group = Pattern.<Sensor>begin("g1").where(NAMED.subtype("pressure"))
                .next("g2").where(NAMED.condition("com.acme.Site", "north", "south"));
        return Pattern.<Sensor>begin("hot", AfterMatchSkipStrategy.skipToLast("rise"))
                .where(NAMED.condition("com.acme.Hot")).or(expr("level > 7"))
                .followedByAny("rise").subtype(Temperature.class).where(expr("level >= max(rise.level)"))
                .timesOrMore(2).consecutive().greedy().until(expr("level < 0"))
                .notNext("drop").where(Condition.not(expr("level > 3")))
                .followedBy(group).times(1, 3).optional().within(Duration.ofSeconds(30), WithinType.PREVIOUS_AND_CURRENT)
                .followedBy("end").where(Condition.and(expr("level == 1"), NAMED.condition("com.acme.Hot")))
                .within(Duration.ofMillis(90), WithinType.PREVIOUS_AND_CURRENT)
                .within(Duration.ofMinutes(5));
    }

    @Test
    void aPatternWrittenAndReadBackHasTheSameStructureAndConditions() {
        Pattern<Sensor> original = everything();
        String json = Rules.toJson("sensors", 4, original);
        Rule rule = Rules.parse(json);
        assertEquals("sensors", rule.id());
        assertEquals(4, rule.version());
        Pattern<Sensor> back = rule.compile(Sensor.class, NAMED);
        assertEquals(NfaCompiler.compile(original).structureFingerprint(),
                NfaCompiler.compile(back).structureFingerprint(), json);
        assertEquals(original.toString(), back.toString());
        assertEquals(json, Rules.toJson("sensors", 4, back), "written again, the same text");
        Sensor[] probes = {new Temperature("north", 45, 8), new Temperature("south", 10, 2), new Pressure("north", 1, 0),
                new Pressure("west", 2, 9), new Temperature("west", 41, -1)};
        for (int s = 0; s < original.stages().size(); s++) {
            Pattern<Sensor> a = original.stages().get(s);
            Pattern<Sensor> b = back.stages().get(s);
            for (Sensor probe : probes) {
                if (a.condition() != null && !a.condition().isIterative()) {
                    assertEquals(a.condition().test(probe, null), b.condition().test(probe, null), a.displayName());
                }
                if (a.untilCondition() != null) {
                    assertEquals(a.untilCondition().test(probe, null), b.untilCondition().test(probe, null));
                }
            }
        }
    }

    @Test
    void aRuleWrittenAndReadBackIsEqual() {
        Rule rule = Rules.parse(RuleFormatTest.RULE);
        Rule again = Rules.parse(rule.toJson());
        assertEquals(rule, again);
        assertEquals(rule.metadata(), again.metadata());
        assertEquals(rule.withVersion(4).version(), 4);
        assertEquals(Rule.of("x", 1, null, Rules.toGraph(everything())), Rules.parse(Rules.toJson("x", 1,
                everything())));
    }

    @Test
    void whatJsonCannotCarryIsRefusedByName() {
        Pattern<Sensor> lambda = Pattern.<Sensor>begin("a").where(s -> true);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Rules.toJson(lambda));
        assertTrue(e.getMessage().startsWith("stage 'a': its condition"), e.getMessage());
        Pattern<Sensor> throwing = Pattern.<Sensor>begin("a", AfterMatchSkipStrategy.skipToFirst("a")
                .throwExceptionOnMiss()).where(expr("level > 1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Rules.toJson(throwing)).getMessage()
                .contains("throwExceptionOnMiss"));
        assertThrows(IllegalArgumentException.class, () -> NAMED.condition("com.acme.Nope"));
        assertThrows(IllegalArgumentException.class, () -> NAMED.condition("com.acme.Hot", "unexpected"));
    }
}
