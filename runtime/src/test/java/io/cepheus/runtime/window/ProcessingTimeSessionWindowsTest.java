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
 * Processing-time sessions (Flink's {@code ProcessingTimeSessionWindows}): an element taken at clock time
 * {@code now} opens {@code [now, now + gap)}, overlapping or touching windows of its key merge into their cover, and
 * the default processing-time trigger fires a session when the clock reaches its max timestamp (then it goes).
 * With a dynamic gap each element gives its own gap. Event timestamps play no part.
 */
class ProcessingTimeSessionWindowsTest {

    /**
     * Gap 3 s. a1 at clock 1000 opens [1000,4000); a2 at 3000 opens [3000,6000), which overlaps: one session
     * [1000,6000). b4 at 3000 is [3000,6000) of its own key. Nothing fires at 3999 (the first window was merged
     * away, its timer with it); at 5999 both sessions fire (key a's timer first: it was registered first) and
     * go. a8 at 10 000 starts a new session [10000,13000), fired at 12 999.
     */
    @Test
    void elementsWithinTheGapOfTheClockMergeIntoOneSession() {
        ManualClock clock = new ManualClock(1000);
        CepEngine<Ev> engine = engine(clock);
        List<String> out = new ArrayList<>();
        WindowResults<Ev> results = engine.keyBy(Ev::key)
                .window(ProcessingTimeSessionWindows.withGap(Duration.ofSeconds(3)))
                .reduce(summing())
                .results((k, w, r, ts) -> out.add(k + " " + w + " " + r.value() + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 50_000));
        h.runUntilIdle();
        clock.set(3000);
        in.send(new Ev("a", 2, 0));
        in.send(new Ev("b", 4, 0));
        h.runUntilIdle();
        assertEquals(2, results.metrics().windows(), "a's two windows merged into one");
        clock.set(3999);
        h.runUntilIdle();
        assertEquals(List.of(), out);
        clock.set(5998);
        h.runUntilIdle();
        assertEquals(List.of(), out);
        clock.set(5999);
        h.runUntilIdle();
        assertEquals(List.of("a [1000,6000) 3 @5999", "b [3000,6000) 4 @5999"), out);
        assertEquals(0, results.metrics().windows());
        clock.set(10_000);
        in.send(new Ev("a", 8, 0));
        h.runUntilIdle();
        clock.set(12_999);
        h.runUntilIdle();
        assertEquals(List.of("a [1000,6000) 3 @5999", "b [3000,6000) 4 @5999", "a [10000,13000) 8 @12999"), out);
        WindowMetrics m = results.metrics();
        assertEquals(0, m.windows());
        assertEquals(0, m.timers());
        assertEquals(0, engine.metrics().shards().get(0).keys(), "keys released");
        h.close();
    }

    /**
     * Gap = value seconds. a2 at clock 0 opens [0,2000); a5 at 1500 opens [1500,6500): merged [0,6500) = 7, which
     * did not end at 1999 (where a static 2 s gap would have closed it) but fires at 6499. b1 at 7000 opens
     * [7000,8000), fired at 7999: a gap of its own.
     */
    @Test
    void dynamicGapsComeFromEachElement() {
        ManualClock clock = new ManualClock(0);
        CepEngine<Ev> engine = engine(clock);
        List<String> out = new ArrayList<>();
        WindowResults<Ev> results = engine.keyBy(Ev::key)
                .window(ProcessingTimeSessionWindows.<Ev>withDynamicGap(e -> e.value() * 1000))
                .reduce(summing())
                .results((k, w, r, ts) -> out.add(k + " " + w + " " + r.value() + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 2, 0));
        h.runUntilIdle();
        clock.set(1500);
        in.send(new Ev("a", 5, 0));
        h.runUntilIdle();
        clock.set(1999);
        h.runUntilIdle();
        assertEquals(List.of(), out);
        clock.set(6498);
        h.runUntilIdle();
        assertEquals(List.of(), out);
        clock.set(6499);
        h.runUntilIdle();
        assertEquals(List.of("a [0,6500) 7 @6499"), out);
        clock.set(7000);
        in.send(new Ev("b", 1, 0));
        h.runUntilIdle();
        clock.set(7999);
        h.runUntilIdle();
        assertEquals(List.of("a [0,6500) 7 @6499", "b [7000,8000) 1 @7999"), out);
        assertEquals(0, results.metrics().windows());
        assertEquals(0, results.metrics().timers());
        h.close();
    }
}
