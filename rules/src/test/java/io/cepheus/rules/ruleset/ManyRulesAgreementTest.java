package io.cepheus.rules.ruleset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.cepheus.pattern.Condition;
import io.cepheus.pattern.Pattern;
import io.cepheus.rules.Rules;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.rules.RetirePolicy;
import io.cepheus.runtime.rules.RuleStream;
import io.cepheus.runtime.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A rule set of many rules against each rule alone: random rule sets of 1 to 200 rules (conditions that the rule set
 * indexes by equalities, in-lists and ranges on several fields, conditions it cannot index, field tests after a
 * conjunct that may fail, optional first stages, loops, aggregates, windows) run over random keyed streams with
 * out-of-order events, watermarks, late events and a field whose getter fails on some events. In a third of the rule
 * sets every stage of every rule names its event's type among a few, and the rules only follow by, so that the rule
 * set keeps only the events some rule may take. Every rule must emit, key by key, exactly the matches and
 * timeouts it emits in an engine of its own, and the rule set's dead letters must be those of all the rules alone.
 * Some rules are put while events flow (compared with the rule alone on the events sent after it, from the
 * watermark of its cut), and some removed, so that the index follows the live set. The rule set's metrics must
 * count, per rule, the matches and timeouts its handlers received.
 *
 * <p>{@code -Dcepheus.manyRules.seeds=N} runs N rule sets (default 12); a failure prints its seed.
 */
class ManyRulesAgreementTest {

    /**
     * The events: a few fields of each kind an index reads. Reading the amount of a {@code C7} fails, as a getter
     * of the application's may: the conditions that read it must report a dead letter, in the rule set as alone.
     */
    record Tx(String key, char type, int value, double amount, String country, long ts) {
        @Override
        public double amount() {
            if (type == 'C' && value == 7) {
                throw new IllegalStateException("no amount on " + this);
            }
            return amount;
        }
    }

    private static final String[] COUNTRIES = {"DE", "FR", "IT", null};

    @Test
    void everyRuleOfARuleSetEmitsWhatItEmitsAlone() {
        int seeds = Integer.getInteger("cepheus.manyRules.seeds", 12);
        long base = Long.getLong("cepheus.manyRules.seed", System.nanoTime());
        for (int i = 0; i < seeds; i++) {
            long seed = base + i;
            try {
                runOne(seed);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("rule set seed " + seed + " (-Dcepheus.manyRules.seed=" + seed
                        + " -Dcepheus.manyRules.seeds=1): " + e.getMessage(), e);
            }
        }
    }

    private record PlannedRule(String id, String text, Pattern<Tx> pattern, int putAfter, int removeAfter) {
    }

    private static void runOne(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int ruleCount = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(5) : 1 + rnd.nextInt(200);
        String types = rnd.nextInt(3) != 0 ? null : rnd.nextBoolean() ? "AB" : "ABC";
        List<Object> input = events(rnd);
        int eventCount = (int) input.stream().filter(o -> o instanceof Tx).count();
        List<PlannedRule> rules = new ArrayList<>();
        for (int r = 0; r < ruleCount; r++) {
            StringBuilder text = new StringBuilder();
            Pattern<Tx> p = types == null ? rule(rnd, text) : typedRule(rnd, text, types);
            int putAfter = rnd.nextInt(6) == 0 ? rnd.nextInt(eventCount) : -1;
            int removeAfter = putAfter < 0 && rnd.nextInt(8) == 0 ? rnd.nextInt(eventCount) : -1;
            rules.add(new PlannedRule("r" + r, text.toString(), p, putAfter, removeAfter));
        }
        int shards = 1 + rnd.nextInt(2);

        Map<String, Map<String, List<String>>> together = new TreeMap<>();
        List<String> deadTogether = new ArrayList<>();
        CepEngine<Tx> engine = CepEngine.<Tx>builder().shards(shards).clock(new ManualClock(0)).build();
        RuleStream<Tx> set = engine.keyBy(Tx::key).rules()
                .select((rule, key, m, ts) -> record(together, rule.id(), key, "MATCH@" + ts + " " + m.asMap()))
                .timeouts((rule, key, m, ts) -> record(together, rule.id(), key, "TIMEOUT@" + ts + " " + m.asMap()))
                .deadLetters((key, e, ts, error) -> deadTogether.add(key + " " + e + " " + error.getClass()
                        .getSimpleName()));
        for (PlannedRule r : rules) {
            if (r.putAfter < 0) {
                set.put(r.id, 1, r.pattern);
            }
        }
        Producer<Tx> in = engine.newProducer();
        CepTestHarness<Tx> harness = CepTestHarness.start(engine);
        int sent = 0;
        long watermark = Long.MIN_VALUE;
        long[] watermarkAtPut = new long[rules.size()];
        for (Object o : input) {
            if (o instanceof Tx e) {
                in.send(e, e.ts());
                sent++;
                for (int r = 0; r < rules.size(); r++) {
                    PlannedRule pr = rules.get(r);
                    if (pr.putAfter == sent - 1) {
                        watermarkAtPut[r] = watermark;
                        set.put(pr.id, 1, pr.pattern);
                    }
                    if (pr.removeAfter == sent - 1) {
                        set.remove(pr.id, RetirePolicy.DISCARD);
                    }
                }
                if (rnd.nextInt(20) == 0) {
                    harness.runUntilIdle();
                }
            } else {
                in.watermark((Long) o);
                watermark = Math.max(watermark, (Long) o); // a watermark never goes back: an earlier one is ignored
            }
        }
        harness.runUntilIdle();
        harness.close();
        // what the rule set counted per rule is what its handlers received, removed rules included
        Map<String, long[]> counted = new TreeMap<>();
        for (io.cepheus.runtime.rules.RuleMetrics m : set.metrics()) {
            long[] c = counted.computeIfAbsent(m.rule().id(), id -> new long[2]);
            c[0] += m.matches();
            c[1] += m.timeouts();
        }
        for (PlannedRule r : rules) {
            long matches = 0;
            long timeouts = 0;
            for (List<String> lines : together.getOrDefault(r.id, Map.of()).values()) {
                matches += lines.stream().filter(l -> l.startsWith("MATCH")).count();
                timeouts += lines.stream().filter(l -> l.startsWith("TIMEOUT")).count();
            }
            long[] c = counted.getOrDefault(r.id, new long[2]);
            assertEquals(matches + " matches, " + timeouts + " timeouts", c[0] + " matches, " + c[1] + " timeouts",
                    "rule " + r.id + "'s metrics");
        }

        List<String> deadAlone = new ArrayList<>();
        for (int r = 0; r < rules.size(); r++) {
            PlannedRule pr = rules.get(r);
            if (pr.removeAfter >= 0) {
                continue; // a removed rule's output depends on its cut and retirement, which the rule set tests pin
            }
            Map<String, List<String>> alone = alone(pr, input, watermarkAtPut[r], deadAlone);
            Map<String, List<String>> inSet = together.getOrDefault(pr.id, Map.of());
            if (!alone.equals(inSet)) {
                fail("rule " + pr.id + " (" + pr.text + ", put after event " + pr.putAfter + ") of " + rules.size()
                        + " on " + shards + " shard(s): " + firstDifference(alone, inSet));
            }
        }
        if (rules.stream().allMatch(r -> r.removeAfter < 0)) {
            deadAlone.sort(null);
            deadTogether.sort(null);
            assertEquals(deadAlone, deadTogether, "dead letters");
        }
    }

    static String firstDifference(Map<String, List<String>> alone, Map<String, List<String>> inSet) {
        java.util.Set<String> keys = new java.util.TreeSet<>(alone.keySet());
        keys.addAll(inSet.keySet());
        for (String key : keys) {
            List<String> a = alone.getOrDefault(key, List.of());
            List<String> b = inSet.getOrDefault(key, List.of());
            for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
                String x = i < a.size() ? a.get(i) : "(nothing)";
                String y = i < b.size() ? b.get(i) : "(nothing)";
                if (!x.equals(y)) {
                    return "key " + key + ", line " + i + " of " + a.size() + " alone / " + b.size()
                            + " in the set:\n  alone:  " + x + "\n  in set: " + y;
                }
            }
        }
        return "no difference";
    }

    /** Runs one rule in an engine of its own, on the events it sees in the rule set. */
    private static Map<String, List<String>> alone(PlannedRule rule, List<Object> input, long watermarkAtPut,
            List<String> dead) {
        Map<String, Map<String, List<String>>> out = new TreeMap<>();
        CepEngine<Tx> engine = CepEngine.<Tx>builder().shards(1).clock(new ManualClock(0)).build();
        engine.keyBy(Tx::key).pattern(rule.pattern)
                .select((key, m, ts) -> record(out, rule.id, key, "MATCH@" + ts + " " + m.asMap()))
                .timeouts((key, m, ts) -> record(out, rule.id, key, "TIMEOUT@" + ts + " " + m.asMap()))
                .deadLetters((key, e, ts, error) -> dead.add(key + " " + e + " " + error.getClass().getSimpleName()));
        Producer<Tx> in = engine.newProducer();
        CepTestHarness<Tx> harness = CepTestHarness.start(engine);
        int sent = 0;
        if (rule.putAfter >= 0 && watermarkAtPut != Long.MIN_VALUE) {
            in.watermark(watermarkAtPut);
        }
        for (Object o : input) {
            if (o instanceof Tx e) {
                if (sent++ > rule.putAfter) {
                    in.send(e, e.ts());
                }
            } else if (sent > rule.putAfter) {
                in.watermark((Long) o);
            }
        }
        harness.runUntilIdle();
        harness.close();
        return out.getOrDefault(rule.id, Map.of());
    }

    static void record(Map<String, Map<String, List<String>>> out, String rule, Object key, String line) {
        out.computeIfAbsent(rule, r -> new TreeMap<>()).computeIfAbsent((String) key, k -> new ArrayList<>())
                .add(line);
    }

    /** Events of 4 keys, slightly out of order, with a watermark now and then (some events arrive late). */
    static List<Object> events(SplittableRandom rnd) {
        List<Object> out = new ArrayList<>();
        int n = 100 + rnd.nextInt(300);
        long ts = 0;
        long maxTs = 0;
        for (int i = 0; i < n; i++) {
            ts += rnd.nextInt(3);
            long t = Math.max(0, ts + rnd.nextInt(7) - 3);
            maxTs = Math.max(maxTs, t);
            double amount = rnd.nextInt(30) == 0 ? Double.NaN : rnd.nextInt(10) * 0.5;
            out.add(new Tx("k" + rnd.nextInt(4), "ABCX".charAt(rnd.nextInt(4)), rnd.nextInt(10), amount,
                    COUNTRIES[rnd.nextInt(COUNTRIES.length)], t));
            if (rnd.nextInt(12) == 0) {
                out.add(maxTs - rnd.nextInt(4));
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ random rules

    static Pattern<Tx> rule(SplittableRandom rnd, StringBuilder text) {
        int stages = 1 + rnd.nextInt(3);
        String first = firstCondition(rnd);
        text.append(first);
        Pattern<Tx> p = Pattern.<Tx>begin("a").where(condition(first));
        switch (rnd.nextInt(5)) {
            case 0 -> p = p.oneOrMore();
            case 1 -> p = p.times(2);
            case 2 -> p = stages > 1 ? p.optional() : p;
            default -> {
            }
        }
        for (int s = 1; s < stages; s++) {
            String name = s == 1 ? "b" : "c";
            String c = laterCondition(rnd);
            text.append(" ; ").append(name).append(": ").append(c);
            p = switch (rnd.nextInt(3)) {
                case 0 -> p.next(name);
                case 1 -> p.followedBy(name);
                default -> p.followedByAny(name);
            };
            p = p.where(condition(c));
        }
        return maybeWithin(rnd, p, text);
    }

    /**
     * A rule whose every stage names its event's type, one of {@code types}, and whose stages only follow by: a rule
     * set of those keeps only the events of those types (and, per type, of the values its stages name).
     */
    static Pattern<Tx> typedRule(SplittableRandom rnd, StringBuilder text, String types) {
        int stages = 1 + rnd.nextInt(3);
        String first = typed(rnd, types, fieldTest(rnd) + (rnd.nextBoolean() ? " && " + fieldTest(rnd) : ""));
        text.append(first);
        Pattern<Tx> p = Pattern.<Tx>begin("a").where(condition(first));
        for (int s = 1; s < stages; s++) {
            String name = s == 1 ? "b" : "c";
            String c = typed(rnd, types, laterCondition(rnd));
            text.append(" ; ").append(name).append(": ").append(c);
            p = rnd.nextBoolean() ? p.followedBy(name) : p.followedByAny(name);
            p = p.where(condition(c));
        }
        return maybeWithin(rnd, p, text);
    }

    private static Pattern<Tx> maybeWithin(SplittableRandom rnd, Pattern<Tx> p, StringBuilder text) {
        if (rnd.nextBoolean()) {
            long w = 3 + rnd.nextInt(30);
            text.append(" within ").append(w);
            return p.within(Duration.ofMillis(w));
        }
        return p;
    }

    private static String typed(SplittableRandom rnd, String types, String condition) {
        return "type == '" + types.charAt(rnd.nextInt(types.length())) + "' && (" + condition + ")";
    }

    private static Condition<Tx> condition(String text) {
        if (text.equals("lambda")) {
            return (io.cepheus.pattern.SimpleCondition<Tx>) e -> e.value() % 2 == 0;
        }
        return Rules.expression(text, Tx.class);
    }

    /** A first stage's condition: mostly indexable conjunctions, sometimes not (a lambda, a failing prefix, '||'). */
    private static String firstCondition(SplittableRandom rnd) {
        int kind = rnd.nextInt(10);
        if (kind == 0) {
            return "lambda";
        }
        if (kind == 1) {
            return "10 / (value - 3) > 1 && " + fieldTest(rnd); // fails on value 3 before the field test
        }
        if (kind == 2) {
            return fieldTest(rnd) + " || " + fieldTest(rnd);
        }
        StringBuilder c = new StringBuilder(fieldTest(rnd));
        for (int more = rnd.nextInt(3); more > 0; more--) {
            c.append(" && ").append(rnd.nextInt(4) == 0 ? "value * 2 > " + rnd.nextInt(12) : fieldTest(rnd));
        }
        return c.toString();
    }

    private static String laterCondition(SplittableRandom rnd) {
        return switch (rnd.nextInt(4)) {
            case 0 -> "sum(a.value) > " + rnd.nextInt(15);
            case 1 -> fieldTest(rnd) + " && " + fieldTest(rnd);
            default -> fieldTest(rnd);
        };
    }

    private static String fieldTest(SplittableRandom rnd) {
        int v = rnd.nextInt(10);
        return switch (rnd.nextInt(14)) {
            case 0 -> "type == '" + "ABCX".charAt(rnd.nextInt(4)) + "'";
            case 1 -> "type in ('A', '" + "BCX".charAt(rnd.nextInt(3)) + "')";
            case 2 -> "type != 'A'";
            case 3 -> "value == " + v;
            case 4 -> "value in (" + v + ", " + (v + 2) % 10 + ")";
            case 5 -> "value >= " + v;
            case 6 -> "value < " + v;
            case 7 -> "value > " + v + " && value <= " + (v + 3);
            case 8 -> "amount >= " + v * 0.5;
            case 9 -> "amount < " + v * 0.5;
            case 10 -> "amount == " + v * 0.5;
            case 11 -> "country == '" + (rnd.nextBoolean() ? "DE" : "FR") + "'";
            case 12 -> "country in ('DE', 'IT')";
            default -> "value != " + v;
        };
    }
}
