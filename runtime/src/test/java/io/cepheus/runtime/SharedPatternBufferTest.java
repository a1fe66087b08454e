package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Several event-time patterns on one stream buffer each event once (issue: "sharing the routing, buffering and key
 * dictionary"), and each still matches exactly as it would alone.
 */
class SharedPatternBufferTest {

    record Ev(int key, char kind, long ts) {
    }

    private static final List<Pattern<Ev>> PATTERNS = List.of(
            Pattern.<Ev>begin("a").where(e -> e.kind() == 'a').followedBy("b").where(e -> e.kind() == 'b')
                    .within(Duration.ofMillis(50)),
            Pattern.<Ev>begin("b").where(e -> e.kind() == 'b').times(2).consecutive().within(Duration.ofMillis(40)),
            Pattern.<Ev>begin("a").where(e -> e.kind() == 'a').notFollowedBy("c").where(e -> e.kind() == 'c')
                    .within(Duration.ofMillis(30)));

    private static CepEngine<Ev> engine() {
        return CepEngine.<Ev>builder().shards(2).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
    }

    /** Out-of-order events over a few keys, with watermarks and a few late events. */
    private static List<Object> script(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Object> out = new ArrayList<>();
        long now = 0;
        for (int i = 0; i < 400; i++) {
            now += random.nextInt(4);
            if (random.nextInt(10) == 0) {
                out.add(now - 20); // a watermark
            } else {
                out.add(new Ev(random.nextInt(5), "abcx".charAt(random.nextInt(4)), now - random.nextInt(15)));
            }
        }
        return out;
    }

    /** Runs the given patterns (indexes into PATTERNS) on one engine; returns each pattern's outputs. */
    private static List<List<String>> run(List<Object> script, int... patterns) {
        CepEngine<Ev> engine = engine();
        KeyedStream<Ev> keyed = engine.keyBy(Ev::key);
        List<List<String>> out = new ArrayList<>();
        for (int p : patterns) {
            List<String> lines = new ArrayList<>();
            out.add(lines);
            keyed.pattern(PATTERNS.get(p))
                    .select((k, m, ts) -> lines.add("match " + k + " " + m + " @" + ts))
                    .timeouts((k, m, ts) -> lines.add("timeout " + k + " " + m + " @" + ts))
                    .lateEvents((k, e, ts) -> lines.add("late " + e));
        }
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        for (Object step : script) {
            if (step instanceof Ev e) {
                in.send(e);
            } else {
                in.watermark((Long) step);
            }
            h.runUntilIdle();
        }
        h.close();
        assertEquals(0, engine.metrics().shards().stream().mapToLong(ShardMetrics::keys).sum(),
                "keys left, patterns " + java.util.Arrays.toString(patterns) + ", late lines " + out);
        return out;
    }

    @Test
    void eachPatternMatchesAsItWouldAlone() {
        for (long seed = 1; seed <= 30; seed++) {
            List<Object> script = script(seed);
            List<List<String>> alone = new ArrayList<>();
            for (int p = 0; p < PATTERNS.size(); p++) {
                alone.add(run(script, p).get(0));
            }
            List<List<String>> together = run(script, 0, 1, 2);
            for (int p = 0; p < PATTERNS.size(); p++) {
                assertEquals(alone.get(p), together.get(p), "seed " + seed + ", pattern " + p);
            }
        }
    }

    @Test
    void anEventIsBufferedOnceHoweverManyPatternsWatch() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
        KeyedStream<Ev> keyed = engine.keyBy(Ev::key);
        List<String> out = new ArrayList<>();
        for (Pattern<Ev> p : PATTERNS) {
            keyed.pattern(p).select((k, m, ts) -> out.add(k + " " + m.size()));
        }
        // a tie-breaker orders equal timestamps differently: that pattern keeps its own buffer
        keyed.pattern(PATTERNS.get(1), Comparator.comparing(Ev::kind)).select((k, m, ts) -> out.add("tie " + k));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        for (int i = 0; i < 10; i++) {
            in.send(new Ev(i % 3, i % 2 == 0 ? 'a' : 'b', 100 + i));
        }
        h.runUntilIdle();

        assertEquals(20, engine.metrics().shards().get(0).bufferedEvents(),
                "10 events in the shared buffer, 10 in the tie-breaking pattern's own");
        in.watermark(200);
        h.runUntilIdle();
        assertEquals(0, engine.metrics().shards().get(0).bufferedEvents());
        h.close();
    }
}
