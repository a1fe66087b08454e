package io.cepheus.runtime.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.trace.TraceEntry;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.explain.Explanation;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A rule traced for a key ({@link RuleStream#startTrace}): each version present is traced, a version put in force later
 * is traced from its start, versions of other rules are not, and the traces answer by version.
 */
class RuleTraceTest {

    record Ev(String key, char type, long ts) {
        @Override
        public String toString() {
            return type + "@" + ts;
        }
    }

    private static Pattern<Ev> aThenB(Duration window) {
        return Pattern.<Ev>begin("a").where(e -> e.type() == 'A').followedBy("b").where(e -> e.type() == 'B')
                .within(window);
    }

    /** An engine with rule "pair" v1 in force; started, it traces the rule for key u1. */
    private static final class Rig {
        final CepEngine<Ev> engine;
        final RuleStream<Ev> rules;
        final Producer<Ev> in;

        Rig(int shards, Duration window) {
            engine = CepEngine.<Ev>builder().shards(shards).clock(new ManualClock(0))
                    .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, t) -> e.ts())).build();
            rules = engine.keyBy(Ev::key).rules().select((rule, key, m, ts) -> { });
            rules.put("pair", 1, aThenB(window));
            in = engine.newProducer();
        }

        CepTestHarness<Ev> start() {
            CepTestHarness<Ev> h = CepTestHarness.start(engine);
            rules.startTrace("pair", "u1");
            return h;
        }
    }

    @Test
    void everyVersionOfTheRuleIsTracedAndOnlyIt() {
        Rig rig = new Rig(2, Duration.ofMillis(10));
        RuleStream<Ev> rules = rig.rules;
        rules.put("other", 1, aThenB(Duration.ofMillis(1_000)));
        Producer<Ev> in = rig.in;
        CepTestHarness<Ev> h = rig.start();
        in.send(new Ev("u1", 'A', 1));
        in.watermark(5);
        h.runUntilIdle();
        // v2 with a longer window replaces v1, which drains: v1's partial match times out, v2 begins afresh
        rules.put("pair", 2, aThenB(Duration.ofMillis(100)));
        in.send(new Ev("u1", 'A', 20));
        in.send(new Ev("u1", 'B', 30));
        in.watermark(200);

        Map<RuleVersion, Explanation> traces = h.explain(rules, "pair", "u1");
        assertEquals(List.of(new RuleVersion("pair", 2)), List.copyOf(traces.keySet()),
                "v1 has drained and left; v2, put later, is traced from its start");
        Explanation v2 = traces.get(new RuleVersion("pair", 2));
        assertEquals("rule pair v2", v2.subject());
        assertEquals(1, v2.completed().size(), v2.toString());
        assertTrue(v2.entries().contains(new TraceEntry.Event(20, new Ev("u1", 'A', 20))), v2.toString());

        var other = rules.explain("other", "u1");
        h.runUntilIdle();
        assertEquals(Map.of(), other.getNow(null), "another rule is not traced");
        h.close();
    }

    @Test
    void aDrainingVersionKeepsTracingUntilItLeaves() {
        Rig rig = new Rig(1, Duration.ofMillis(50));
        RuleStream<Ev> rules = rig.rules;
        Producer<Ev> in = rig.in;
        CepTestHarness<Ev> h = rig.start();
        in.send(new Ev("u1", 'A', 1));
        in.watermark(5);
        h.runUntilIdle();
        rules.put("pair", 2, aThenB(Duration.ofMillis(50)));
        in.watermark(10);

        Map<RuleVersion, Explanation> both = h.explain(rules, "pair", "u1");
        assertEquals(List.of(new RuleVersion("pair", 1), new RuleVersion("pair", 2)), List.copyOf(both.keySet()),
                "v1 drains its partial match; v2 is in force");
        in.watermark(100);
        var stopped = rules.stopTrace("pair", "u1");
        h.runUntilIdle();
        Map<RuleVersion, Explanation> last = stopped.getNow(null);
        assertEquals(List.of(new RuleVersion("pair", 2)), List.copyOf(last.keySet()), "v1 left once timed out");
        assertTrue(both.get(new RuleVersion("pair", 1)).entries().contains(new TraceEntry.Started(1, 1, "a")),
                both.toString());
        assertTrue(both.get(new RuleVersion("pair", 2)).entries().stream()
                .noneMatch(TraceEntry.Started.class::isInstance), "v2 never saw the event sent before it came in");
        h.close();
    }
}
