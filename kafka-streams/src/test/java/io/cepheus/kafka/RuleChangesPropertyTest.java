package io.cepheus.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.kafka.conformance.EvTopologies;
import io.cepheus.kafka.conformance.KafkaCaseDriver;
import io.cepheus.kafka.conformance.WatermarkMarkers;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.nfa.conformance.Ev;
import io.cepheus.nfa.conformance.MatchFormat;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * Rules from the rules topic change as the engine's rule set changes: on random inputs, rules are put in force,
 * replaced by higher versions and removed between events (under {@code DRAIN} or {@code DISCARD}), and the Kafka
 * Streams processor, restarted at random points on its state or on state rebuilt from the changelog, gives what
 * the in-JVM engine's rule stream gives with the same changes at the same points, key by key. A draining version
 * survives a restart with its partial matches. Each example's seed is printed on failure
 * ({@code -Dcepheus.seed=S -Dcepheus.examples=1} reruns one).
 */
class RuleChangesPropertyTest {

    private static final long SEED = Long.getLong("cepheus.seed", System.nanoTime());
    private static final int EXAMPLES = Integer.getInteger("cepheus.examples", 100);
    private static final String[] KEYS = {"k0", "k1", "k2"};
    private static final String[] IDS = {"r0", "r1", "r2"};

    /** A step of an example. */
    private sealed interface Step permits Event, Mark, Put, Remove, Restart {
    }

    private record Event(Ev event) implements Step {
    }

    private record Mark(long watermark) implements Step {
    }

    private record Put(String id, int version, String json) implements Step {
    }

    private record Remove(String id) implements Step {
    }

    private record Restart(TestDriverRig.Restart how) implements Step {
    }

    @Test
    void kafkaRulesChangeAsTheEngineRuleSetDoes() {
        for (int i = 0; i < EXAMPLES; i++) {
            long seed = SEED + i;
            Random random = new Random(seed);
            RetirePolicy policy = random.nextBoolean() ? RetirePolicy.DRAIN : RetirePolicy.DISCARD;
            List<Step> steps = steps(random);
            assertEquals(throughEngine(steps, policy), throughKafka(steps, policy), "seed " + seed + " (-Dcepheus.seed="
                    + seed + " -Dcepheus.examples=1), " + policy + ", steps " + steps);
        }
    }

    private static List<Step> steps(Random random) {
        List<Step> steps = new ArrayList<>();
        Map<String, Integer> versions = new HashMap<>();
        long time = 0;
        long highest = 0;
        int n = 20 + random.nextInt(60);
        for (int s = 0; s < n; s++) {
            int pick = random.nextInt(20);
            if (pick < 3) {
                String id = IDS[random.nextInt(IDS.length)];
                int version = versions.merge(id, 1, Integer::sum) + 0;
                steps.add(new Put(id, version, Rules.toJson(id, version, template(random.nextInt(4), version))));
            } else if (pick == 3 && !versions.isEmpty()) {
                String id = IDS[random.nextInt(IDS.length)];
                steps.add(new Remove(id)); // (removing a rule not in force changes nothing)
            } else if (pick == 4) {
                steps.add(new Restart(random.nextBoolean() ? TestDriverRig.Restart.SAME_STATE
                        : TestDriverRig.Restart.FROM_CHANGELOG));
            } else if (pick < 7) {
                steps.add(new Mark(highest - random.nextInt(4)));
            } else {
                time = Math.max(0, time + random.nextInt(4) - (random.nextInt(8) == 0 ? 6 : 0));
                highest = Math.max(highest, time);
                char type = "ABC".charAt(random.nextInt(3));
                int value = random.nextInt(10);
                String key = KEYS[random.nextInt(KEYS.length)];
                steps.add(new Event(new Ev(type, value, time, key + ":" + type + value + "@" + time)));
            }
        }
        return steps;
    }

    /** Rule templates whose conditions are expressions (so that they are JSON), varied by version. */
    private static Pattern<Ev> template(int kind, int version) {
        int v = version % 5;
        return switch (kind) {
            case 0 -> Pattern.<Ev>begin("a").where(Rules.expression("type == 'A' && value >= " + v, Ev.class))
                    .followedBy("b").where(Rules.expression("type == 'B'", Ev.class)).within(Duration.ofMillis(20));
            case 1 -> Pattern.<Ev>begin("a").where(Rules.expression("type == 'B'", Ev.class))
                    .followedByAny("b").where(Rules.expression("type == 'C' && value < " + (5 + v), Ev.class))
                    .within(Duration.ofMillis(15));
            case 2 -> Pattern.<Ev>begin("a").where(Rules.expression("type == 'A'", Ev.class)).oneOrMore()
                    .followedBy("b").where(Rules.expression("type == 'C' && value > " + v, Ev.class))
                    .within(Duration.ofMillis(12));
            default -> Pattern.<Ev>begin("a").where(Rules.expression("value == " + v, Ev.class))
                    .next("b").where(Rules.expression("type != 'A'", Ev.class));
        };
    }

    private static String keyOf(Ev e) {
        return e.token().substring(0, e.token().indexOf(':'));
    }

    private static Map<String, List<String>> throughEngine(List<Step> steps, RetirePolicy policy) {
        Map<String, List<String>> lines = new TreeMap<>();
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).clock(new ManualClock(0))
                .nfaOptions(NfaOptions.defaults().withProcessingTime(() -> 0L)).flushOnClose(false).build();
        RuleStream<Ev> rules = engine.keyBy(RuleChangesPropertyTest::keyOf).rules()
                .select((rule, key, match, ts) -> line(lines, key, rule.id() + " v" + rule.version() + " MATCH "
                        + MatchFormat.format(match.asMap())))
                .timeouts((rule, key, partial, ts) -> line(lines, key, rule.id() + " v" + rule.version()
                        + " TIMEOUT@" + ts + " " + MatchFormat.format(partial.asMap())))
                .lateEvents((key, event, ts) -> line(lines, key, "LATE " + event.token()));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        Map<String, Integer> inForce = new HashMap<>();
        for (Step step : steps) {
            if (step instanceof Event e) {
                in.send(e.event(), e.event().ts());
            } else if (step instanceof Mark m) {
                in.watermark(m.watermark());
            } else if (step instanceof Put p) {
                rules.put(p.id(), p.version(), Rules.parse(p.json()).compile(Ev.class), policy);
                inForce.put(p.id(), p.version());
            } else if (step instanceof Remove r && inForce.remove(r.id()) != null) {
                rules.remove(r.id(), policy);
            }
            harness.runUntilIdle();
        }
        harness.close();
        return lines;
    }

    private static Map<String, List<String>> throughKafka(List<Step> steps, RetirePolicy policy) {
        // the rules topic outlives the drivers, as a compacted topic does: a new driver's global store holds it all
        // before the tasks start, as Kafka Streams' global store does
        Map<String, String> rulesTopic = new TreeMap<>();
        DurableStore[] rulesStore = {new DurableStore("changes-rules")};
        TestDriverRig<String, Ev, CepOutput<Ev>> rig = EvTopologies.rig(store -> EvTopologies.topology(
                EvTopologies.caseProcessor("changes", store).rules("rules", rule -> rule.compile(Ev.class))
                        .rulesStore(rulesStore[0]).retirePolicy(policy).build()), "changes-state");
        TestInputTopic<String, String> rules = rulesInput(rig);
        for (Step step : steps) {
            if (step instanceof Event e) {
                rig.pipe(keyOf(e.event()), e.event(), e.event().ts());
            } else if (step instanceof Mark m) {
                rig.pipe(WatermarkMarkers.KEY, WatermarkMarkers.marker(m.watermark()), 0L);
            } else if (step instanceof Put p) {
                rulesTopic.put(p.id(), p.json());
                rules.pipeInput(p.id(), p.json());
                rig.driver().advanceWallClockTime(Duration.ofSeconds(1));
            } else if (step instanceof Remove r && rulesTopic.remove(r.id()) != null) {
                rules.pipeInput(r.id(), (String) null);
                rig.driver().advanceWallClockTime(Duration.ofSeconds(1));
            } else if (step instanceof Restart restart) {
                rulesStore[0] = DurableStore.of("changes-rules", rulesTopic);
                rig.restart(restart.how());
                rules = rulesInput(rig);
            }
        }
        rig.close();
        Map<String, List<String>> lines = new TreeMap<>();
        for (TestRecord<String, CepOutput<Ev>> r : rig.results()) {
            if (r.key() == null || WatermarkMarkers.KEY.equals(r.key())) {
                continue;
            }
            CepOutput<Ev> v = r.value();
            if (v instanceof RuleMatch<Ev> m) {
                line(lines, r.key(), m.rule() + " v" + m.version() + " MATCH " + MatchFormat.format(m.match().asMap()));
            } else if (v instanceof RuleTimeout<Ev> t) {
                line(lines, r.key(), t.rule() + " v" + t.version() + " TIMEOUT@" + r.timestamp() + " "
                        + MatchFormat.format(t.partialMatch().asMap()));
            } else {
                line(lines, r.key(), KafkaCaseDriver.line(v, r.timestamp()));
            }
        }
        return lines;
    }

    private static TestInputTopic<String, String> rulesInput(TestDriverRig<String, Ev, CepOutput<Ev>> rig) {
        return rig.driver().createInputTopic("rules", Serdes.String().serializer(), Serdes.String().serializer());
    }

    private static void line(Map<String, List<String>> lines, Object key, String line) {
        lines.computeIfAbsent((String) key, k -> new ArrayList<>()).add(line);
    }
}
