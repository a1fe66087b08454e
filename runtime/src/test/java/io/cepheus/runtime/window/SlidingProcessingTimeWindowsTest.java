package io.cepheus.runtime.window;

import static io.cepheus.runtime.window.WindowTestKit.engine;
import static io.cepheus.runtime.window.WindowTestKit.summing;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.window.WindowTestKit.Ev;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Sliding processing-time windows (Flink's {@code SlidingProcessingTimeWindows}): an element belongs to every window
 * {@code [s, s + size)} with {@code s = offset + k * slide} and {@code now - size < s <= now}, where {@code now} is
 * the engine clock when the shard takes the element (its event time plays no part); the default processing-time
 * trigger fires a window when the clock reaches its max timestamp {@code end - 1}, and the window goes then.
 */
class SlidingProcessingTimeWindowsTest {

    /**
     * Size 10 s, slide 5 s: two windows per element. 1 at clock 12 000 goes to [5000,15000) and [10000,20000); 2 at
     * 16 000 to [10000,20000) and [15000,25000). So [5000,15000) = 1 fires at 14 999 (not at 14 998) and goes, [10000,20000)
     * = 3 at 19 999, [15000,25000) = 2 at 24 999, each with its max timestamp; then nothing is left. The event
     * timestamps (0 and 999 999) would put the elements elsewhere if they counted.
     */
    @Test
    void anElementGoesToEveryWindowOverlappingItsProcessingTime() {
        ManualClock clock = new ManualClock(12_000);
        CepEngine<Ev> engine = engine(clock);
        List<String> out = new ArrayList<>();
        WindowResults<Ev> results = engine.keyBy(Ev::key)
                .window(SlidingProcessingTimeWindows.of(Duration.ofSeconds(10), Duration.ofSeconds(5)))
                .reduce(summing())
                .results((k, w, r, ts) -> out.add(k + " " + w + " " + r.value() + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 0));
        h.runUntilIdle();
        assertEquals(2, results.metrics().windows(), "one element, two windows");
        clock.set(14_998);
        h.runUntilIdle();
        assertEquals(List.of(), out, "[5000,15000) waits for 14 999");
        clock.set(14_999);
        h.runUntilIdle();
        assertEquals(List.of("a [5000,15000) 1 @14999"), out);
        assertEquals(1, results.metrics().windows(), "and is gone");
        clock.set(16_000);
        in.send(new Ev("a", 2, 999_999));
        h.runUntilIdle();
        assertEquals(2, results.metrics().windows());
        clock.set(19_999);
        h.runUntilIdle();
        clock.set(24_999);
        h.runUntilIdle();
        assertEquals(List.of("a [5000,15000) 1 @14999", "a [10000,20000) 3 @19999", "a [15000,25000) 2 @24999"), out);
        WindowMetrics m = results.metrics();
        assertEquals(0, m.windows());
        assertEquals(0, m.timers());
        assertEquals(0, engine.metrics().shards().get(0).keys(), "the key is released");
        h.close();
    }

    /**
     * Size 10 s, slide 5 s, offset 2 s: starts at 2000 + 5000 k. At clock 13 000 the latest start is 12 000, so the
     * element is in [12000,22000) and [7000,17000) (2000 is not above 13 000 - 10 000); they fire at 16 999 and
     * 21 999.
     */
    @Test
    void anOffsetShiftsTheWindowStarts() {
        ManualClock clock = new ManualClock(13_000);
        CepEngine<Ev> engine = engine(clock);
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key)
                .window(SlidingProcessingTimeWindows.of(Duration.ofSeconds(10), Duration.ofSeconds(5),
                        Duration.ofSeconds(2)))
                .reduce(summing())
                .results((k, w, r, ts) -> out.add(w + " " + r.value() + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 5, 0));
        h.runUntilIdle();
        clock.set(16_999);
        h.runUntilIdle();
        assertEquals(List.of("[7000,17000) 5 @16999"), out);
        clock.set(21_999);
        h.runUntilIdle();
        assertEquals(List.of("[7000,17000) 5 @16999", "[12000,22000) 5 @21999"), out);
        h.close();
    }
}
