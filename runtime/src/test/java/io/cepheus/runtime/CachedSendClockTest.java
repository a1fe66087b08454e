package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.internal.shard.CachedClock;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import org.junit.jupiter.api.Test;

/**
 * Sends read the time through the engine's cached clock: the shards' duty cycles refresh it, and a producer
 * refreshes it itself every {@link CachedClock#REFRESH_EVERY} sends, so a periodic watermark is at most that
 * many sends (or one duty cycle) late and never missed. Observed through the periodic watermarks a producer emits
 * from {@code send}.
 */
class CachedSendClockTest {

    record Ev(String key, long ts) {
    }

    @Test
    void periodicWatermarksFollowTheCachedTimeAndItsRefreshes() {
        ManualClock clock = new ManualClock(0);
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).clock(clock).cacheSendClock().periodicWatermarksOnSendOnly()
                .watermarks(WatermarkStrategy.<Ev>forMonotonousTimestamps().withTimestampAssigner((e, t) -> e.ts()))
                .build();
        engine.keyBy(Ev::key).pattern(Pattern.<Ev>begin("a").where(e -> false)).select((k, m, ts) -> { });
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        in.send(new Ev("k", 100));
        harness.runUntilIdle();
        assertEquals(Long.MIN_VALUE, engine.metrics().watermark(), "200 ms have not passed: no periodic watermark");

        clock.advance(300);
        in.send(new Ev("k", 150));
        harness.runUntilIdle();
        assertEquals(Long.MIN_VALUE, engine.metrics().watermark(),
                "the send read the cached time (0), not the clock: nothing emitted yet");
        in.send(new Ev("k", 160));
        harness.runUntilIdle();
        assertEquals(159, engine.metrics().watermark(), "the shard's duty cycle refreshed the time the send read");

        clock.advance(300); // no duty cycle runs while these are sent: the producer's own refresh must see it
        for (int i = 0; i < CachedClock.REFRESH_EVERY; i++) {
            in.send(new Ev("k", 200 + i));
        }
        harness.runUntilIdle();
        assertTrue(engine.metrics().watermark() >= 199, "a periodic watermark within " + CachedClock.REFRESH_EVERY
                + " sends, was " + engine.metrics().watermark());
        harness.close();
    }
}
