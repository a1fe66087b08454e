package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A source whose thread stops calling the engine (no send, no tick) must not hold the watermark back forever
 * when idleness is configured: the shards notice the silence on their own clock.
 */
class SilentProducerTest {

    record Ev(String key, char kind, long ts) {
    }

    private final ManualClock clock = new ManualClock(0);
    private final List<String> out = new ArrayList<>();

    private CepEngine<Ev> engine(WatermarkStrategy<Ev> strategy) {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).clock(clock).flushOnClose(false)
                .watermarks(strategy.withTimestampAssigner((e, ts) -> e.ts())).build();
        engine.keyBy(Ev::key)
                .pattern(Pattern.<Ev>begin("a").where(e -> e.kind() == 'a').next("b").where(e -> e.kind() == 'b'))
                .select((key, m, ts) -> out.add(key + "@" + ts));
        return engine;
    }

    /** A key the engine routes to the other of two shards: activity must count engine-wide, not per shard. */
    private static String keyOnOtherShardThan(String key) {
        for (int i = 0; ; i++) {
            if (CepEngine.shardOf("k" + i, 2) != CepEngine.shardOf(key, 2)) {
                return "k" + i;
            }
        }
    }

    private static WatermarkStrategy<Ev> monotonous() {
        return WatermarkStrategy.forMonotonousTimestamps();
    }

    @Test
    void aSilentSourceIsMarkedIdleByTheShardsAfterTheTimeoutAndActiveAgainByItsNextRecord() {
        CepEngine<Ev> engine = engine(monotonous().withIdleness(Duration.ofSeconds(60)));
        Producer<Ev> busy = engine.newProducer();
        Producer<Ev> silent = engine.newProducer(); // never sends or ticks until the end
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        busy.send(new Ev("u1", 'a', 100));
        busy.send(new Ev("u1", 'b', 200));
        busy.watermark(1_000);
        harness.runUntilIdle();
        assertEquals(List.of(), out, "the silent source's watermark (none yet) holds every shard back");

        clock.advance(Duration.ofSeconds(59));
        busy.send(new Ev(keyOnOtherShardThan("u1"), 'x', 300)); // busy, but only with the other shard
        harness.runUntilIdle();
        assertEquals(List.of(), out, "59 s of silence is not yet the 60 s timeout");

        clock.advance(Duration.ofSeconds(1));
        harness.runUntilIdle();
        assertEquals(List.of("u1@200"), out, "after 60 s the shards leave the silent source out");

        silent.send(new Ev("u2", 'a', 2_000)); // active again: its watermark (none) holds the shards once more
        busy.send(new Ev("u2", 'b', 2_100));
        busy.watermark(5_000);
        harness.runUntilIdle();
        assertEquals(List.of("u1@200"), out, "the source that spoke again holds the watermark back again");
        silent.watermark(5_000);
        harness.runUntilIdle();
        assertEquals(List.of("u1@200", "u2@2100"), out);
        harness.close();
    }

    @Test
    void whenEverySourceFallsSilentTheWatermarkStaysWhereItIs() {
        CepEngine<Ev> engine = engine(monotonous().withIdleness(Duration.ofSeconds(60)));
        Producer<Ev> first = engine.newProducer();
        engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        first.send(new Ev("u1", 'a', 100));
        first.send(new Ev("u1", 'b', 200));
        first.watermark(1_000);
        clock.advance(Duration.ofMinutes(5));
        harness.runUntilIdle();
        assertEquals(List.of(), out, "all idle: nothing to take the minimum over, as Flink's valve");
        harness.close();
    }

    @Test
    void withoutIdlenessASilentSourceHoldsTheWatermarkAsFlinkDoes() {
        CepEngine<Ev> engine = engine(monotonous());
        Producer<Ev> busy = engine.newProducer();
        engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        busy.send(new Ev("u1", 'a', 100));
        busy.send(new Ev("u1", 'b', 200));
        busy.watermark(1_000);
        clock.advance(Duration.ofDays(1));
        harness.runUntilIdle();
        assertEquals(List.of(), out);
        harness.close();
    }
}
