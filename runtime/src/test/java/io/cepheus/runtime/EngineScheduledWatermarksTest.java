package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * Periodic watermarks run on the engine's schedule (Flink's auto-watermark interval on the engine's clock): a
 * source that sends nothing more still has its generator called every interval, so a generator that reads the
 * clock moves event time on, and timeouts fire, without a send or a {@link Producer#tick()}.
 */
class EngineScheduledWatermarksTest {

    record Ev(String key, char kind, long ts) {
    }

    private final ManualClock clock = new ManualClock(0);
    private final List<String> out = new ArrayList<>();

    /** Event time trails the clock by {@link #LAG}, whatever the events: time moves while the source is quiet. */
    private final class ClockLag implements WatermarkGenerator<Ev> {
        static final long LAG = 100;
        int emits;

        @Override
        public void onEvent(Ev event, long timestamp, WatermarkOutput output) {
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput output) {
            emits++;
            output.emitWatermark(clock.millis() - LAG);
        }
    }

    private CepEngine<Ev> engine(WatermarkGenerator<Ev> generator, CepEngine.Builder<Ev> builder) {
        CepEngine<Ev> engine = builder.shards(2).clock(clock)
                .watermarks(WatermarkStrategy.<Ev>forGenerator(() -> generator)
                        .withAutoWatermarkInterval(Duration.ofMillis(200)).withTimestampAssigner((e, ts) -> e.ts()))
                .build();
        engine.keyBy(Ev::key)
                .pattern(Pattern.<Ev>begin("a").where(e -> e.kind() == 'a').followedBy("b").where(e -> e.kind() == 'b')
                        .within(Duration.ofMillis(1000)))
                .select((k, m, ts) -> out.add("match " + k + " @" + ts))
                .timeouts((k, m, ts) -> out.add("timeout " + k + " @" + ts));
        return engine;
    }

    private static List<Long> shardWatermarks(CepEngine<Ev> engine) {
        return engine.metrics().shards().stream().map(ShardMetrics::watermark).toList();
    }

    @Test
    void aClockLagGeneratorMovesEventTimeOfAQuietSourceAndTimeoutsFire() {
        ClockLag lag = new ClockLag();
        CepEngine<Ev> engine = engine(lag, CepEngine.builder());
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'a', 150));
        h.runUntilIdle();
        assertEquals(List.of(Long.MIN_VALUE, Long.MIN_VALUE), shardWatermarks(engine), "the interval has not passed");
        clock.set(199);
        h.runUntilIdle();
        assertEquals(List.of(Long.MIN_VALUE, Long.MIN_VALUE), shardWatermarks(engine));
        assertEquals(0, lag.emits);
        clock.set(200);
        h.runUntilIdle(); // no send, no tick: the engine's schedule calls the generator
        assertEquals(List.of(100L, 100L), shardWatermarks(engine));
        assertEquals(1, lag.emits);
        clock.set(1_300);
        h.runUntilIdle();
        assertEquals(List.of(1_200L, 1_200L), shardWatermarks(engine));
        assertEquals(List.of("timeout u1 @1150"), out, "a + 1000 ms passed in event time with nothing sent");
        h.advanceProcessingTime(Duration.ofMillis(200));
        assertEquals(List.of(1_400L, 1_400L), shardWatermarks(engine));
        h.close();
    }

    @Test
    void sendsTicksAndTheEnginesScheduleShareOneIntervalWithoutCatchingUp() {
        ClockLag lag = new ClockLag();
        CepEngine<Ev> engine = engine(lag, CepEngine.builder());
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        clock.set(200);
        in.send(new Ev("u1", 'a', 300)); // due at 200: the send emits
        assertEquals(1, lag.emits);
        h.runUntilIdle();
        assertEquals(1, lag.emits, "next due at 400");
        clock.set(399);
        h.runUntilIdle();
        in.tick();
        assertEquals(1, lag.emits);
        clock.set(400);
        h.runUntilIdle();
        assertEquals(2, lag.emits, "the schedule, at 400");
        in.send(new Ev("u1", 'b', 450));
        in.tick();
        assertEquals(2, lag.emits, "next due at 600");
        clock.set(600);
        in.tick();
        assertEquals(3, lag.emits, "the tick, at 600");
        h.runUntilIdle();
        assertEquals(3, lag.emits);
        clock.set(5_000);
        h.runUntilIdle();
        assertEquals(4, lag.emits, "one emit after a long pause, as Flink's timer, not one per missed interval");
        assertEquals(List.of("match u1 @450"), out);
        h.close();
    }

    @Test
    void aQuietSourceWithIdlenessIsMarkedIdleByTheSchedule() {
        // two sources: the quiet one would hold the watermark back; its idleness timeout passes with no call of its own
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).clock(clock)
                .watermarks(WatermarkStrategy.<Ev>forBoundedOutOfOrderness(Duration.ZERO)
                        .withIdleness(Duration.ofSeconds(1)).withAutoWatermarkInterval(Duration.ofMillis(200))
                        .withTimestampAssigner((e, ts) -> e.ts()))
                .build();
        engine.keyBy(Ev::key)
                .pattern(Pattern.<Ev>begin("a").where(e -> e.kind() == 'a').followedBy("b").where(e -> e.kind() == 'b'))
                .select((k, m, ts) -> out.add("match " + k + " @" + ts));
        Producer<Ev> busy = engine.newProducer();
        Producer<Ev> quiet = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        quiet.send(new Ev("q", 'x', 1));
        busy.send(new Ev("u1", 'a', 10));
        busy.send(new Ev("u1", 'b', 20));
        clock.set(200);
        h.runUntilIdle();
        assertEquals(List.of(), out, "the quiet source's watermark (0) holds the shard back");
        clock.set(2_000);
        busy.send(new Ev("u1", 'x', 30));
        h.runUntilIdle();
        assertEquals(List.of("match u1 @20"), out, "the quiet source was marked idle on the engine's schedule");
        h.close();
    }

    @Test
    void aGeneratorThatThrowsOnTheScheduleIsReportedAndCalledAgainOnlyAnIntervalLater() {
        RuntimeException boom = new IllegalStateException("generator failed");
        int[] calls = {0};
        WatermarkGenerator<Ev> failing = new WatermarkGenerator<>() {
            @Override
            public void onEvent(Ev event, long timestamp, WatermarkOutput output) {
            }

            @Override
            public void onPeriodicEmit(WatermarkOutput output) {
                calls[0]++;
                throw boom;
            }
        };
        CepEngine<Ev> engine = engine(failing, CepEngine.builder());
        engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        clock.set(200);
        RuntimeException thrown = assertThrows(RuntimeException.class, h::runUntilIdle);
        assertSame(boom, thrown, "without an error handler the harness throws what failed");
        assertEquals(1, calls[0]);
        h.runUntilIdle();
        assertEquals(1, calls[0], "not again before the next interval");
        h.close();
    }

    @Test
    void aClosedProducerIsLeftAlone() {
        ClockLag lag = new ClockLag();
        CepEngine<Ev> engine = engine(lag, CepEngine.builder());
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.close();
        clock.set(10_000);
        h.runUntilIdle();
        assertEquals(0, lag.emits);
        assertEquals(List.of(Long.MAX_VALUE, Long.MAX_VALUE), shardWatermarks(engine));
        h.close();
    }

    @Test
    void aStartedEngineRunsTheScheduleOnItsOwnThreadAndStopsIt() throws Exception {
        ClockLag lag = new ClockLag();
        CepEngine<Ev> engine = engine(lag, CepEngine.builder());
        Producer<Ev> in = engine.newProducer();
        engine.start();
        in.send(new Ev("u1", 'a', 150));
        clock.set(1_300);
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos(); // a bound on a thread's progress only
        while (engine.metrics().watermark() < 1_200 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(1_200, engine.metrics().watermark(), "moved by the engine's thread, nothing sent");
        engine.close();
        assertEquals(List.of("timeout u1 @1150"), out);
        assertFalse(Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().contains("cepheus-watermarks") && t.isAlive()), "its thread stopped");
    }
}
