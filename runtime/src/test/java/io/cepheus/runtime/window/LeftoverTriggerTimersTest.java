package io.cepheus.runtime.window;

import static io.cepheus.runtime.window.WindowTestKit.engine;
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
 * A timer that a trigger registered and did not delete in {@code clear} goes with its window (README, "Where we
 * differ"). Flink keeps it: it fires later and calls the trigger for a window without contents, which fires
 * nothing. Here a window's state cannot outlive it and the key is freed with its last window. Nothing is lost:
 * a window without contents has nothing to fire. The callback would only let a trigger re-register timers for
 * a window that no longer exists.
 */
class LeftoverTriggerTimersTest {

    /** Fires and purges on every element, and leaves behind a processing-time timer 100 ms after it. */
    static final class FireAndLeaveATimer implements Trigger<Ev> {
        final List<Long> processingTimers = new ArrayList<>();

        @Override
        public TriggerResult onElement(Ev e, long timestamp, Window window, TriggerContext ctx) {
            ctx.registerProcessingTimeTimer(ctx.currentProcessingTime() + 100);
            return TriggerResult.FIRE_AND_PURGE;
        }

        @Override
        public TriggerResult onEventTime(long time, Window window, TriggerContext ctx) {
            return TriggerResult.CONTINUE;
        }

        @Override
        public TriggerResult onProcessingTime(long time, Window window, TriggerContext ctx) {
            processingTimers.add(time);
            return TriggerResult.CONTINUE;
        }

        @Override
        public void clear(Window window, TriggerContext ctx) {
            // keeps the processing-time timer on purpose: only that timer is left for the key
        }
    }

    @Test
    void aTimerTheTriggerLeavesBehindIsDeletedWithItsWindowAndTheKeyIsFreed() {
        ManualClock clock = new ManualClock(0);
        CepEngine<Ev> engine = engine(clock);
        FireAndLeaveATimer trigger = new FireAndLeaveATimer();
        List<String> out = new ArrayList<>();
        WindowResults<Long> results = engine.keyBy(Ev::key)
                .window(TumblingEventTimeWindows.of(Duration.ofSeconds(10)))
                .trigger(trigger)
                .aggregate(WindowTestKit.summingAggregate())
                .results((k, w, r, ts) -> out.add(k + " " + w + " " + r));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);

        in.send(new Ev("a", 7, 1));
        h.runUntilIdle();
        assertEquals(List.of("a [0,10000) 7"), out);
        assertEquals(2, results.metrics().timers(), "the window's cleanup timer and the trigger's timer");
        assertEquals(1, engine.metrics().shards().get(0).keys());

        in.watermark(20_000); // past the window's cleanup time
        h.runUntilIdle();
        assertEquals(0, results.metrics().windows());
        assertEquals(0, results.metrics().timers(), "the trigger's timer went with the window");
        assertEquals(0, engine.metrics().shards().get(0).keys(), "nothing is pending for the key");

        clock.set(1_000);
        h.runUntilIdle();
        assertEquals(List.of(), trigger.processingTimers, "no callback for a window that is gone");
        assertEquals(List.of("a [0,10000) 7"), out);
        h.close();
    }
}
