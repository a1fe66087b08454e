package io.cepheus.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.kafka.conformance.EvTopologies;
import io.cepheus.kafka.conformance.KafkaCaseDriver;
import io.cepheus.kafka.conformance.WatermarkMarkers;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.nfa.conformance.Ev;
import io.cepheus.nfa.conformance.MatchFormat;
import io.cepheus.nfa.conformance.PatternParser;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * The Kafka Streams processor gives what the in-JVM engine gives, key by key, on random inputs: several keys, several
 * patterns sharing one processor (and one event-time buffer), events out of order and late, watermarks at random
 * points, and the driver restarted at random points on the state it left or on state rebuilt from the changelog.
 * Each example's seed is printed on failure ({@code -Dcepheus.seed=S -Dcepheus.examples=1} reruns one).
 */
class SameAsEnginePropertyTest {

    private static final long SEED = Long.getLong("cepheus.seed", System.nanoTime());
    private static final int EXAMPLES = Integer.getInteger("cepheus.examples", 120);
    private static final String[] PATTERNS = {
        "begin a where type=A ; followedBy b where type=B",
        "begin a where type=A ; followedByAny b where type=B oneOrMore ; followedBy c where type=C",
        "begin a where type=B ; notFollowedBy n where type=C ; followedBy b where type=A",
        "begin a where type=A times 2 consecutive ; next b where type=C",
        "begin a where type=C ; followedBy b where type=A optional ; followedBy c where type=B",
    };
    private static final String[] SKIPS = {"noSkip", "skipPastLastEvent", "skipToNext"};
    private static final String[] KEYS = {"k0", "k1", "k2"};

    /** One example's input and patterns. */
    private record Example(List<Pattern<Ev>> patterns, List<Object> input, Map<Integer, TestDriverRig.Restart> cuts) {
    }

    @Test
    void kafkaProcessorMatchesTheEngine() {
        for (int i = 0; i < EXAMPLES; i++) {
            long seed = SEED + i;
            Example example = example(new Random(seed));
            Map<String, List<String>> engine = throughEngine(example);
            Map<String, List<String>> kafka = throughKafka(example);
            assertEquals(engine, kafka, "seed " + seed + " (-Dcepheus.seed=" + seed + " -Dcepheus.examples=1), "
                    + example.cuts().size() + " restarts");
        }
    }

    private static Example example(Random random) {
        List<Pattern<Ev>> patterns = new ArrayList<>();
        int count = 1 + random.nextInt(3);
        for (int p = 0; p < count; p++) {
            OptionalLong within = random.nextInt(4) == 0 ? OptionalLong.empty()
                    : OptionalLong.of(5 + random.nextInt(20));
            patterns.add(PatternParser.toPattern(PATTERNS[random.nextInt(PATTERNS.length)], within,
                    SKIPS[random.nextInt(SKIPS.length)]));
        }
        List<Object> input = new ArrayList<>();
        int n = 10 + random.nextInt(60);
        long time = 0;
        long highest = 0;
        for (int e = 0; e < n; e++) {
            time = Math.max(0, time + random.nextInt(5) - (random.nextInt(6) == 0 ? 8 : 0));
            highest = Math.max(highest, time);
            char type = "ABCX".charAt(random.nextInt(4));
            int value = random.nextInt(10);
            String key = KEYS[random.nextInt(KEYS.length)];
            input.add(new Ev(type, value, time, key + ":" + type + value + "@" + time));
            if (random.nextInt(5) == 0) {
                input.add(highest - random.nextInt(6)); // a watermark
            }
        }
        Map<Integer, TestDriverRig.Restart> cuts = new TreeMap<>();
        for (int c = random.nextInt(4); c > 0; c--) {
            cuts.put(random.nextInt(input.size()), random.nextBoolean() ? TestDriverRig.Restart.SAME_STATE
                    : TestDriverRig.Restart.FROM_CHANGELOG);
        }
        return new Example(patterns, input, cuts);
    }

    private static String keyOf(Ev e) {
        return e.token().substring(0, e.token().indexOf(':'));
    }

    private static Map<String, List<String>> throughEngine(Example example) {
        Map<String, List<String>> lines = new TreeMap<>();
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).clock(new ManualClock(0))
                .nfaOptions(NfaOptions.defaults().withProcessingTime(() -> 0L)).flushOnClose(false).build();
        io.cepheus.runtime.KeyedStream<Ev> keyed = engine.keyBy(SameAsEnginePropertyTest::keyOf);
        for (int p = 0; p < example.patterns().size(); p++) {
            String name = "p" + p;
            boolean reportsLate = p == 0; // the processor reports a late record once, not once per pattern
            keyed.pattern(example.patterns().get(p))
                    .select((key, match, ts) -> line(lines, key, name + " MATCH " + MatchFormat.format(match.asMap())))
                    .timeouts((key, partial, ts) -> line(lines, key, name + " TIMEOUT@" + ts + " "
                            + MatchFormat.format(partial.asMap())))
                    .lateEvents((key, event, ts) -> {
                        if (reportsLate) {
                            line(lines, key, "LATE " + event.token());
                        }
                    });
        }
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        for (Object token : example.input()) {
            if (token instanceof Ev e) {
                in.send(e, e.ts());
            } else {
                in.watermark((Long) token);
            }
            harness.runUntilIdle();
        }
        harness.runUntilIdle();
        harness.close();
        return lines;
    }

    private static Map<String, List<String>> throughKafka(Example example) {
        String store = "property-state";
        TestDriverRig<String, Ev, CepOutput<Ev>> rig = EvTopologies.rig(s -> {
            CepProcessorSupplier.Builder<String, Ev> cep = EvTopologies.caseProcessor("property", s);
            for (int p = 0; p < example.patterns().size(); p++) {
                cep.pattern("p" + p, example.patterns().get(p));
            }
            return EvTopologies.topology(cep.build());
        }, store);
        for (int i = 0; i < example.input().size(); i++) {
            TestDriverRig.Restart restart = example.cuts().get(i);
            if (restart != null) {
                rig.restart(restart);
            }
            Object token = example.input().get(i);
            if (token instanceof Ev e) {
                rig.pipe(keyOf(e), e, e.ts());
            } else {
                rig.pipe(WatermarkMarkers.KEY, WatermarkMarkers.marker((Long) token), 0L);
            }
        }
        rig.close();
        Map<String, List<String>> lines = new TreeMap<>();
        for (TestRecord<String, CepOutput<Ev>> r : rig.results()) {
            if (WatermarkMarkers.KEY.equals(r.key())) {
                continue;
            }
            CepOutput<Ev> v = r.value();
            String prefix = v instanceof PatternMatch<Ev> m ? m.pattern() + " "
                    : v instanceof PatternTimeout<Ev> t ? t.pattern() + " " : "";
            line(lines, r.key(), prefix + KafkaCaseDriver.line(v, r.timestamp()));
        }
        return lines;
    }

    private static void line(Map<String, List<String>> lines, Object key, String line) {
        lines.computeIfAbsent((String) key, k -> new ArrayList<>()).add(line);
    }
}
