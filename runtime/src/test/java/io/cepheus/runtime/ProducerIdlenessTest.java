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
 * {@link WatermarkStrategy#withIdleness} through the engine: the idleness a producer's own generator declares
 * (judged on events, at its periodic emits: on {@link Producer#tick()} here, or on the engine's schedule) travels in-band to every shard, so an
 * idle producer stops holding the shards' watermark back and another producer's watermark alone releases
 * matches; its next event makes it active again, and it holds the watermark again (Flink: an idle input is left
 * out of the minimum watermark, and counts again once it resumes).
 *
 * <p>The engine also enables the shards' own detection of silent producers whenever idleness is configured,
 * with the same timeout ({@link SilentProducerTest}). That detection reads only the clock time of a producer's
 * latest {@code send} or {@code watermark} call, so here the quiet producer re-asserts the watermark it already
 * sent every second: nothing reaches the shards (a watermark not above the last one is dropped by the producer),
 * but the shards hear from it and never take it for silent. Its generator, which counts events only, is then
 * the one thing that can take it out of the watermark.
 */
class ProducerIdlenessTest {

    record Ev(String key, char kind, long ts) {
    }

    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(10);
    /** What the quiet producer's generator emits after its one event at 50: monotonous, so 50 - 1. */
    private static final long QUIET_WATERMARK = 49;

    private final ManualClock clock = new ManualClock(0);
    private final List<String> matches = new ArrayList<>();
    private final CollectingSink<Ev> late = new CollectingSink<>();

    private CepEngine<Ev> engine() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).clock(clock)
                .watermarks(WatermarkStrategy.<Ev>forMonotonousTimestamps()
                        .withTimestampAssigner((e, ts) -> e.ts())
                        .withAutoWatermarkInterval(Duration.ofSeconds(1))
                        .withIdleness(IDLE_TIMEOUT))
                .build();
        engine.keyBy(Ev::key)
                .pattern(Pattern.<Ev>begin("a").where(e -> e.kind() == 'a').next("b").where(e -> e.kind() == 'b'))
                .select((key, m, ts) -> matches.add(key + "@" + ts))
                .lateEvents(late::add);
        return engine;
    }

    private List<Long> shardWatermarks(CepEngine<Ev> engine) {
        return engine.metrics().shards().stream().map(ShardMetrics::watermark).toList();
    }

    /**
     * The busy producer's event time follows the clock: one event a second, stamped with the clock, whose send
     * also makes its periodic watermark (that second minus 1 ms).
     */
    private void busySecond(Producer<Ev> busy, long now) {
        clock.set(now);
        busy.send(new Ev("clock", 'x', now));
    }

    @Test
    void aProducerWhoseGeneratorDeclaresIdlenessStopsHoldingTheWatermarkUntilItSendsAgain() {
        CepEngine<Ev> engine = engine();
        Producer<Ev> busy = engine.newProducer();
        Producer<Ev> quiet = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);

        quiet.send(new Ev("q", 'x', 50)); // its only event until it resumes
        busy.send(new Ev("u1", 'a', 100));
        busy.send(new Ev("u1", 'b', 200));
        // The generator starts measuring at its first periodic emit (t = 1000), so it may declare idleness 10 s
        // later, at t = 11000; until then every shard waits for the quiet producer's 49.
        for (long now = 1_000; now <= 10_000; now += 1_000) {
            busySecond(busy, now);
            quiet.tick();
            quiet.watermark(QUIET_WATERMARK); // keeps the shards hearing from it (see the class comment)
            harness.runUntilIdle();
            assertEquals(List.of(), matches, "at t=" + now);
            assertEquals(List.of(QUIET_WATERMARK, QUIET_WATERMARK), shardWatermarks(engine),
                    "at t=" + now + " the busy producer is at " + (now - 1) + " but the quiet one holds the shards;"
                            + " by t=10000 it has sent no event for the timeout, yet the shards did not leave it out");
        }

        // no more re-asserted watermarks from here: a watermark call would mark the idle producer active again
        busySecond(busy, 11_000);
        quiet.tick(); // 10 s after the emit that last saw an event: its generator marks it idle
        harness.runUntilIdle();
        assertEquals(List.of("u1@200"), matches, "the busy producer's watermark alone releases the match");
        assertEquals(List.of(10_999L, 10_999L), shardWatermarks(engine));

        busySecond(busy, 12_000);
        busy.send(new Ev("u2", 'a', 12_100));
        quiet.tick(); // still idle: it emits nothing, and is not marked again
        harness.runUntilIdle();
        assertEquals(List.of(11_999L, 11_999L), shardWatermarks(engine), "idle, it still does not count");

        clock.set(12_500);
        quiet.send(new Ev("u2", 'b', 12_200)); // active again, at its old watermark 49: its next emit is at 13000
        harness.runUntilIdle();
        assertEquals(List.of("u1@200"), matches, "u2's match waits for the quiet producer again");
        assertEquals(List.of(11_999L, 11_999L), shardWatermarks(engine),
                "the busy producer is at 11999, and the resumed producer holds the shards where they were");

        busySecond(busy, 13_000);
        harness.runUntilIdle(); // the engine's schedule makes the quiet producer's periodic watermark: 12200 - 1
        assertEquals(List.of(12_199L, 12_199L), shardWatermarks(engine), "the minimum of both producers again");
        assertEquals(List.of("u1@200"), matches, "u2's match at 12200 is not yet behind 12199");
        quiet.tick();
        harness.runUntilIdle();
        assertEquals(List.of(12_199L, 12_199L), shardWatermarks(engine), "the tick finds its interval not passed");

        quiet.close(); // its input ends: the busy producer's watermark alone counts
        harness.runUntilIdle();
        assertEquals(List.of("u1@200", "u2@12200"), matches);
        assertEquals(List.of(12_999L, 12_999L), shardWatermarks(engine));
        assertEquals(List.of(), late.records(), "no event of the resumed producer was late");
        assertEquals(0, engine.metrics().total(ShardMetrics::lateEvents));
        harness.close();
    }
}
