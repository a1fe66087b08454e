package io.cepheus.rules.ruleset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.cepheus.pattern.Pattern;
import io.cepheus.rules.ruleset.ManyRulesAgreementTest.Tx;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Patterns registered one by one on the same stream ({@code pattern()}) share their conditions' field reads, and a
 * pattern is handed only the events it may begin or change something with: each must emit, key by key, what it
 * emits in an engine of its own (the random patterns and streams of {@link ManyRulesAgreementTest}), and the dead
 * letters must be those of all the patterns alone.
 *
 * <p>{@code -Dcepheus.patterns.seeds=N} runs N streams (default 10); a failure prints its seed.
 */
class PatternsShareConditionsTest {

    @Test
    void everyPatternOnAStreamEmitsWhatItEmitsAlone() {
        int seeds = Integer.getInteger("cepheus.patterns.seeds", 10);
        long base = Long.getLong("cepheus.patterns.seed", System.nanoTime());
        for (long seed = base; seed < base + seeds; seed++) {
            try {
                runOne(seed);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("patterns seed " + seed + " (-Dcepheus.patterns.seed=" + seed
                        + " -Dcepheus.patterns.seeds=1): " + e.getMessage(), e);
            }
        }
    }

    private static void runOne(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<Object> input = ManyRulesAgreementTest.events(rnd);
        int count = 1 + rnd.nextInt(30);
        List<Pattern<Tx>> patterns = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            StringBuilder text = new StringBuilder();
            patterns.add(ManyRulesAgreementTest.rule(rnd, text));
            texts.add(text.toString());
        }
        Map<String, Map<String, List<String>>> together = new TreeMap<>();
        List<String> deadTogether = new ArrayList<>();
        run(patterns, input, together, deadTogether);
        List<String> deadAlone = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Map<String, Map<String, List<String>>> alone = new TreeMap<>();
            run(List.of(patterns.get(i)), input, alone, deadAlone);
            Map<String, List<String>> a = alone.getOrDefault("p0", Map.of());
            Map<String, List<String>> t = together.getOrDefault("p" + i, Map.of());
            if (!a.equals(t)) {
                fail("pattern p" + i + " (" + texts.get(i) + ") of " + count + ": "
                        + ManyRulesAgreementTest.firstDifference(a, t));
            }
        }
        deadAlone.sort(null);
        deadTogether.sort(null);
        assertEquals(deadAlone, deadTogether, "dead letters");
    }

    private static void run(List<Pattern<Tx>> patterns, List<Object> input, Map<String, Map<String, List<String>>> out,
            List<String> dead) {
        CepEngine<Tx> engine = CepEngine.<Tx>builder().shards(1).clock(new ManualClock(0)).build();
        io.cepheus.runtime.KeyedStream<Tx> stream = engine.keyBy(Tx::key);
        for (int i = 0; i < patterns.size(); i++) {
            String id = "p" + i;
            stream.pattern(patterns.get(i))
                    .select((key, m, ts) -> ManyRulesAgreementTest.record(out, id, key, "MATCH@" + ts + " " + m.asMap()))
                    .timeouts((key, m, ts) -> ManyRulesAgreementTest.record(out, id, key, "TIMEOUT@" + ts + " "
                            + m.asMap()))
                    .deadLetters((key, e, ts, error) -> dead.add(key + " " + e + " " + error.getClass().getSimpleName()));
        }
        Producer<Tx> in = engine.newProducer();
        CepTestHarness<Tx> harness = CepTestHarness.start(engine);
        for (Object o : input) {
            if (o instanceof Tx e) {
                in.send(e, e.ts());
            } else {
                in.watermark((Long) o);
            }
        }
        harness.runUntilIdle();
        harness.close();
    }
}
