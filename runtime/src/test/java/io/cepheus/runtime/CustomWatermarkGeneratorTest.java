package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkGenerator;
import io.cepheus.runtime.time.WatermarkOutput;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link WatermarkStrategy#forGenerator} through the engine: a user's generator, punctuated or periodic, is the
 * only source of event time here (no explicit {@link Producer#watermark} calls), so matches come out exactly when
 * it emits, and an event at or below what it emitted is late.
 */
class CustomWatermarkGeneratorTest {

    record Ev(String key, char kind, long ts) {
    }

    /** Punctuated, as Flink's example: a marker event ('w') carries the watermark; periodic emits add nothing. */
    static final class MarkerWatermarks implements WatermarkGenerator<Ev> {
        @Override
        public void onEvent(Ev event, long timestamp, WatermarkOutput out) {
            if (event.kind() == 'w') {
                out.emitWatermark(timestamp);
            }
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput out) {
            // every watermark comes from a marker
        }
    }

    /**
     * Periodic: the highest timestamp seen minus a lag of its own ({@link #LAG}, unlike the built-in generators'
     * extra millisecond), so the watermarks below can only have come from this generator.
     */
    static final class LaggingWatermarks implements WatermarkGenerator<Ev> {
        static final long LAG = 100;
        private long max = Long.MIN_VALUE;

        @Override
        public void onEvent(Ev event, long timestamp, WatermarkOutput out) {
            max = Math.max(max, timestamp);
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput out) {
            if (max != Long.MIN_VALUE) {
                out.emitWatermark(max - LAG);
            }
        }
    }

    private final ManualClock clock = new ManualClock(0);
    private final List<String> matches = new ArrayList<>();
    private final CollectingSink<Ev> late = new CollectingSink<>();

    private CepEngine<Ev> engine(WatermarkStrategy<Ev> strategy) {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).clock(clock)
                .watermarks(strategy.withTimestampAssigner((e, ts) -> e.ts())).build();
        engine.keyBy(Ev::key)
                .pattern(Pattern.<Ev>begin("a").where(e -> e.kind() == 'a').next("b").where(e -> e.kind() == 'b'))
                .select((key, m, ts) -> matches.add(key + "@" + ts))
                .lateEvents(late::add);
        return engine;
    }

    private static List<Long> shardWatermarks(CepEngine<Ev> engine) {
        return engine.metrics().shards().stream().map(ShardMetrics::watermark).toList();
    }

    private static CollectingSink.Record<Ev> lateRecord(Ev event) {
        return new CollectingSink.Record<>(event.key(), event, event.ts());
    }

    @Test
    void aPunctuatedGeneratorReleasesMatchesExactlyAtItsMarkersAndMakesEventsAtOrBelowThemLate() {
        CepEngine<Ev> engine = engine(WatermarkStrategy.forGenerator(MarkerWatermarks::new));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'a', 100));
        in.send(new Ev("u1", 'b', 200));
        in.send(new Ev("u2", 'a', 240));
        harness.runUntilIdle();
        assertEquals(List.of(), matches);
        assertEquals(List.of(Long.MIN_VALUE, Long.MIN_VALUE), shardWatermarks(engine));

        // far past the default 200 ms interval: the periodic emit runs, and a punctuated generator emits nothing
        clock.advance(Duration.ofSeconds(5));
        in.tick();
        harness.runUntilIdle();
        assertEquals(List.of(), matches, "no marker, no event time");
        assertEquals(List.of(Long.MIN_VALUE, Long.MIN_VALUE), shardWatermarks(engine));

        in.send(new Ev("m", 'w', 250));
        harness.runUntilIdle();
        assertEquals(List.of("u1@200"), matches);
        assertEquals(List.of(250L, 250L), shardWatermarks(engine), "one producer's marker reaches every shard");

        in.send(new Ev("u2", 'b', 250)); // at the watermark
        in.send(new Ev("u2", 'b', 249)); // below it
        in.send(new Ev("u2", 'b', 260));
        harness.runUntilIdle();
        assertEquals(List.of("u1@200"), matches, "u2's b at 260 waits for the next marker");
        assertEquals(List.of(lateRecord(new Ev("u2", 'b', 250)), lateRecord(new Ev("u2", 'b', 249))),
                late.records());
        assertEquals(2, engine.metrics().total(ShardMetrics::lateEvents));

        in.send(new Ev("m", 'w', 1_000));
        harness.runUntilIdle();
        assertEquals(List.of("u1@200", "u2@260"), matches, "the late b's never matched; the one at 260 did");
        assertEquals(List.of(1_000L, 1_000L), shardWatermarks(engine));
        assertEquals(2, engine.metrics().total(ShardMetrics::lateEvents));
        harness.close();
    }

    @Test
    void aPeriodicGeneratorReleasesMatchesExactlyWhenTheIntervalPassesOnSendOrTick() {
        // the producer is made at t = 0, so its periodic emits are due at t = 100, then 100 ms after each emit
        CepEngine<Ev> engine = engine(WatermarkStrategy.forGenerator(LaggingWatermarks::new)
                .withAutoWatermarkInterval(Duration.ofMillis(100)));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'a', 1_000));
        in.send(new Ev("u1", 'b', 1_100));
        in.send(new Ev("u2", 'a', 1_200));
        clock.set(99);
        in.tick();
        harness.runUntilIdle();
        assertEquals(List.of(), matches, "1 ms before the interval: no emit yet");
        assertEquals(List.of(Long.MIN_VALUE, Long.MIN_VALUE), shardWatermarks(engine));

        clock.set(100);
        in.tick(); // emits 1200 - 100
        harness.runUntilIdle();
        assertEquals(List.of("u1@1100"), matches);
        assertEquals(List.of(1_100L, 1_100L), shardWatermarks(engine));

        clock.set(150);
        in.send(new Ev("u2", 'b', 1_100)); // at the watermark
        in.send(new Ev("u2", 'b', 1_250));
        clock.set(199);
        in.send(new Ev("u3", 'x', 1_400)); // the send of an event whose interval has not passed emits nothing
        harness.runUntilIdle();
        assertEquals(List.of("u1@1100"), matches);
        assertEquals(List.of(1_100L, 1_100L), shardWatermarks(engine), "1400 - 100 is not emitted before t=200");
        assertEquals(List.of(lateRecord(new Ev("u2", 'b', 1_100))), late.records());
        assertEquals(1, engine.metrics().total(ShardMetrics::lateEvents));

        clock.set(200);
        in.send(new Ev("u3", 'x', 1_450)); // its send emits, after the generator has seen it: 1450 - 100
        harness.runUntilIdle();
        assertEquals(List.of("u1@1100", "u2@1250"), matches);
        assertEquals(List.of(1_350L, 1_350L), shardWatermarks(engine));
        assertEquals(1, engine.metrics().total(ShardMetrics::lateEvents));
        harness.close();
    }
}
