package io.cepheus.runtime.window;

import static io.cepheus.runtime.window.WindowTestKit.Ev;
import static io.cepheus.runtime.window.WindowTestKit.engine;
import static io.cepheus.runtime.window.WindowTestKit.summing;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Session windows whose elements lie within a gap of {@code Long.MAX_VALUE}, with and without allowed lateness (whose
 * cleanup times then saturate at {@code Long.MAX_VALUE}): the sessions that fit in a long fire at the final watermark, one whose end would pass {@code Long.MAX_VALUE} is a dead letter (its assigner wraps
 * there), and the shard finishes. The danger it guards against: a final watermark that sends the sessions' due-time wheel
 * round the end of the long range for ever (a scan bounded by the last slice number, itself
 * {@code Long.MAX_VALUE}), so that the engine's close never returns.
 */
class SessionsAtTheEndOfTimeTest {

    private static final long MAX = Long.MAX_VALUE;

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a shard spinning for ever fails the test
    void sessionsJustBelowLongMaxValueFireAtTheFinalWatermark() {
        for (int variant = 0; variant < 4; variant++) {
            boolean dynamicGap = variant % 2 == 1;
            long lateness = variant < 2 ? 0 : 1_000; // cleanup times past the end of the long range, saturated
            String name = "dynamic gap " + dynamicGap + ", lateness " + lateness;
            List<String> out = new ArrayList<>();
            List<String> dead = new ArrayList<>();
            CepEngine<Ev> engine = engine();
            engine.keyBy(Ev::key)
                    .window(dynamicGap ? EventTimeSessionWindows.<Ev>withDynamicGap(e -> 30L)
                            : EventTimeSessionWindows.withGap(Duration.ofMillis(30)))
                    .allowedLateness(Duration.ofMillis(lateness))
                    .deadLetters((k, e, ts, error) -> dead.add(e.value() + "@" + ts))
                    .reduce(summing())
                    .results((k, w, r, ts) -> out.add(w + " " + r.value() + " @" + ts));
            Producer<Ev> in = engine.newProducer();
            CepTestHarness<Ev> h = CepTestHarness.start(engine);
            long[] times = {MAX - 100, MAX - 40, MAX - 5, MAX - 1}; // the last two: sessions ending past MAX
            for (int i = 0; i < times.length; i++) {
                in.send(new Ev("k", 1L << i, times[i]));
                h.runUntilIdle();
            }
            in.watermark(MAX - 1);
            h.runUntilIdle();
            in.watermark(MAX); // the end of input, as an engine that flushes on close applies it
            h.runUntilIdle();
            h.close();
            assertEquals(List.of(new TimeWindow(MAX - 100, MAX - 70) + " 1 @" + (MAX - 71),
                    new TimeWindow(MAX - 40, MAX - 10) + " 2 @" + (MAX - 11)), out, name);
            assertEquals(List.of("4@" + (MAX - 5), "8@" + (MAX - 1)), dead, name);
        }
    }
}
