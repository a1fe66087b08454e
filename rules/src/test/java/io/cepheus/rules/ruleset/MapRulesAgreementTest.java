package io.cepheus.rules.ruleset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.Condition;
import io.cepheus.pattern.FieldRequirement;
import io.cepheus.pattern.IndexableCondition;
import io.cepheus.pattern.Pattern;
import io.cepheus.rules.Rules;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.rules.RuleStream;
import io.cepheus.runtime.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Rules over map events (what CSV rows and JSON Lines become) in one rule set, against each rule alone: the index
 * reads a map's numbers and strings, and values of another type (a text where a number is compared, a missing key)
 * must reach the rule's condition, which fails on them (a dead letter) or is false, exactly as alone.
 */
class MapRulesAgreementTest {

    @Test
    void aMapRuleStatesItsNumberAndTextTestsUpToTheFirstComparisonThatMayFail() {
        Condition<Map<String, Object>> c = Rules.mapExpression("type == 'A' && amount >= 100 && value == 3");
        List<FieldRequirement<Map<String, Object>>> rs = ((IndexableCondition<Map<String, Object>>) c).requirements();
        assertEquals(2, rs.size(), rs.toString()); // amount may be a text: what follows it is not stated
        assertEquals(FieldRequirement.Kind.TEXT_ONE_OF, rs.get(0).kind());
        FieldRequirement<Map<String, Object>> amount = rs.get(1);
        assertEquals(FieldRequirement.Kind.NUMBER_BETWEEN, amount.kind());
        assertEquals(100.0, amount.min());
        assertEquals(250.0, amount.numberReader().applyAsDouble(Map.of("amount", 250L)));
        assertTrue(Double.isNaN(amount.numberReader().applyAsDouble(Map.of("amount", "250"))), "a text: the test tells");
        assertTrue(Double.isNaN(amount.numberReader().applyAsDouble(Map.of())), "missing");
        @SuppressWarnings({"unchecked", "rawtypes"})
        java.util.function.ToDoubleFunction<Object> raw = (java.util.function.ToDoubleFunction) amount.numberReader();
        assertThrows(RuntimeException.class, () -> raw.applyAsDouble("not a map"), "fails where the test fails");
    }

    @Test
    void mapRulesInOneSetEmitWhatEachEmitsAlone() {
        long base = Long.getLong("cepheus.mapRules.seed", System.nanoTime());
        int seeds = Integer.getInteger("cepheus.mapRules.seeds", 6);
        for (long seed = base; seed < base + seeds; seed++) {
            try {
                run(seed);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("map rules seed " + seed + " (-Dcepheus.mapRules.seed=" + seed
                        + " -Dcepheus.mapRules.seeds=1): " + e.getMessage(), e);
            }
        }
    }

    private static void run(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<Pattern<Map<String, Object>>> rules = new ArrayList<>();
        for (int r = 0; r < 60; r++) {
            int v = rnd.nextInt(10);
            String first = switch (rnd.nextInt(4)) {
                case 0 -> "type == 'A' && amount >= " + v;
                case 1 -> "amount < " + v + " && type == 'B'";
                case 2 -> "value == " + v;
                default -> "type in ('A', 'C') && value > " + v;
            };
            rules.add(Pattern.<Map<String, Object>>begin("a").where(Rules.mapExpression(first))
                    .followedBy("b").where(Rules.mapExpression("type == 'B' && amount >= " + rnd.nextInt(10)))
                    .within(Duration.ofMillis(20)));
        }
        List<Map<String, Object>> events = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            Map<String, Object> e = new HashMap<>();
            e.put("key", "k" + rnd.nextInt(3));
            e.put("type", String.valueOf("ABCX".charAt(rnd.nextInt(4))));
            int kind = rnd.nextInt(12);
            if (kind == 0) {
                e.put("amount", "" + rnd.nextInt(10)); // a text: comparing it with a number fails
            } else if (kind != 1) { // kind 1: no amount at all
                e.put("amount", kind % 2 == 0 ? (Object) (long) rnd.nextInt(10) : (Object) (rnd.nextInt(20) * 0.5));
            }
            e.put("value", (long) rnd.nextInt(10));
            e.put("ts", (long) i);
            events.add(e);
        }
        Map<String, List<String>> together = new TreeMap<>();
        List<String> deadTogether = new ArrayList<>();
        CepEngine<Map<String, Object>> engine = CepEngine.<Map<String, Object>>builder().shards(1)
                .clock(new ManualClock(0)).build();
        RuleStream<Map<String, Object>> set = engine.keyBy(m -> m.get("key")).rules()
                .select((rule, key, m, ts) -> together.computeIfAbsent(rule.id(), k -> new ArrayList<>())
                        .add(key + " MATCH@" + ts + " " + m.asMap()))
                .timeouts((rule, key, m, ts) -> together.computeIfAbsent(rule.id(), k -> new ArrayList<>())
                        .add(key + " TIMEOUT@" + ts + " " + m.asMap()))
                .deadLetters((key, e, ts, error) -> deadTogether.add(key + " " + ts));
        for (int r = 0; r < rules.size(); r++) {
            set.put("r" + r, 1, rules.get(r));
        }
        feed(engine, events);
        List<String> deadAlone = new ArrayList<>();
        for (int r = 0; r < rules.size(); r++) {
            List<String> alone = new ArrayList<>();
            CepEngine<Map<String, Object>> single = CepEngine.<Map<String, Object>>builder().shards(1)
                    .clock(new ManualClock(0)).build();
            single.keyBy(m -> m.get("key")).pattern(rules.get(r))
                    .select((key, m, ts) -> alone.add(key + " MATCH@" + ts + " " + m.asMap()))
                    .timeouts((key, m, ts) -> alone.add(key + " TIMEOUT@" + ts + " " + m.asMap()))
                    .deadLetters((key, e, ts, error) -> deadAlone.add(key + " " + ts));
            feed(single, events);
            assertEquals(byKey(alone), byKey(together.getOrDefault("r" + r, List.of())), "rule r" + r);
        }
        deadAlone.sort(null);
        deadTogether.sort(null);
        assertEquals(deadAlone, deadTogether, "dead letters");
        assertTrue(!deadAlone.isEmpty(), "texts compared with numbers make dead letters");
    }

    /** @return the lines of each key, in the order emitted (the order between keys is not compared) */
    private static Map<String, List<String>> byKey(List<String> lines) {
        Map<String, List<String>> out = new TreeMap<>();
        for (String line : lines) {
            out.computeIfAbsent(line.substring(0, line.indexOf(' ')), k -> new ArrayList<>()).add(line);
        }
        return out;
    }

    private static void feed(CepEngine<Map<String, Object>> engine, List<Map<String, Object>> events) {
        Producer<Map<String, Object>> in = engine.newProducer();
        CepTestHarness<Map<String, Object>> harness = CepTestHarness.start(engine);
        for (Map<String, Object> e : events) {
            long ts = (Long) e.get("ts");
            in.send(e, ts);
            if (ts % 25 == 24) {
                in.watermark(ts - 3);
            }
        }
        harness.runUntilIdle();
        harness.close();
    }
}
