package io.cepheus.runtime.window;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import io.cepheus.runtime.window.WindowTestKit.Ev;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A user-written trigger with per-window trigger state and its own timer (Flink's custom {@code Trigger}):
 * PURGE empties the window without evaluating it, FIRE_AND_PURGE evaluates then empties it; neither touches the
 * trigger's state (the trigger resets it itself) nor removes the window, and a FIRE on an empty window emits
 * nothing. Each window has its own value of the state.
 */
class CustomTriggerStateTest {

    /**
     * Keeps a running sum per window: FIRE_AND_PURGE when it reaches 10, PURGE (a reset) on a 0, FIRE at the end of
     * the window (a timer it registers itself), and cleans up both in {@code clear}.
     */
    static final class SumReachesTen implements Trigger<Ev> {
        private final TriggerState<Long> sum = TriggerState.of("sum", Long::sum);

        @Override
        public TriggerResult onElement(Ev e, long timestamp, Window window, TriggerContext ctx) {
            ctx.registerEventTimeTimer(window.maxTimestamp());
            if (e.value() == 0) {
                ctx.clearState(sum);
                return TriggerResult.PURGE;
            }
            Long before = ctx.getState(sum);
            long now = (before == null ? 0 : before) + e.value();
            if (now >= 10) {
                ctx.clearState(sum);
                return TriggerResult.FIRE_AND_PURGE;
            }
            ctx.setState(sum, now);
            return TriggerResult.CONTINUE;
        }

        @Override
        public TriggerResult onEventTime(long time, Window window, TriggerContext ctx) {
            return time == window.maxTimestamp() ? TriggerResult.FIRE : TriggerResult.CONTINUE;
        }

        @Override
        public TriggerResult onProcessingTime(long time, Window window, TriggerContext ctx) {
            return TriggerResult.CONTINUE;
        }

        @Override
        public void clear(Window window, TriggerContext ctx) {
            ctx.deleteEventTimeTimer(window.maxTimestamp());
            ctx.clearState(sum);
        }
    }

    /**
     * Tumbling 10 s windows, the process function lists the values. Window [0,10000) of a: 4, 3, then 0 purges
     * [4, 3, 0] unseen and resets the sum; 5, 6 reach 11: [5, 6] fires and is purged; then 2. Window [10000,20000)
     * gets 8 (its own sum 8: with a shared sum 2 + 8 would have fired), [0,10000) gets 1 (sum 3), [10000,20000) 1
     * (sum 9). Key b only gets a 0: purged. Watermark 9999: the trigger's timer fires [0,10000) with what is left,
     * [2, 1]; b's window fires empty and emits nothing. Watermark 19 999 fires [8, 1]. Then no state is left.
     */
    @Test
    void purgeAndFireAndPurgeFromPerWindowTriggerState() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).flushOnClose(false).clock(new ManualClock())
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, r) -> e.ts())).build();
        List<String> out = new ArrayList<>();
        WindowResults<String> results = engine.keyBy(Ev::key)
                .window(TumblingEventTimeWindows.of(Duration.ofSeconds(10)))
                .trigger(new SumReachesTen())
                .<String>process((key, ctx, elements, o) -> {
                    List<Long> values = new ArrayList<>();
                    elements.forEach(e -> values.add(e.value()));
                    o.collect(key + " " + ctx.window() + " " + values);
                })
                .results((k, w, r, ts) -> out.add(r + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 4, 100));
        in.send(new Ev("a", 3, 200));
        h.runUntilIdle();
        assertEquals(2, results.metrics().bufferedElements());
        in.send(new Ev("a", 0, 300));
        h.runUntilIdle();
        assertEquals(0, results.metrics().bufferedElements(), "purged");
        assertEquals(1, results.metrics().windows(), "a purged window stays");
        assertEquals(List.of(), out, "PURGE does not evaluate");
        in.send(new Ev("a", 5, 400));
        in.send(new Ev("a", 6, 500));
        h.runUntilIdle();
        assertEquals(List.of("a [0,10000) [5, 6] @9999"), out);
        assertEquals(0, results.metrics().bufferedElements(), "fired, then purged");
        in.send(new Ev("a", 2, 600));
        in.send(new Ev("a", 8, 10_100));
        in.send(new Ev("a", 1, 700));
        in.send(new Ev("a", 1, 10_200));
        in.send(new Ev("b", 0, 100));
        h.runUntilIdle();
        assertEquals(1, out.size(), "each window sums its own elements");
        in.watermark(9999);
        h.runUntilIdle();
        assertEquals(List.of("a [0,10000) [5, 6] @9999", "a [0,10000) [2, 1] @9999"), out,
                "the trigger's timer fires the rest; b's empty window emits nothing");
        in.watermark(19_999);
        h.runUntilIdle();
        assertEquals(List.of("a [0,10000) [5, 6] @9999", "a [0,10000) [2, 1] @9999", "a [10000,20000) [8, 1] @19999"),
                out);
        WindowMetrics m = results.metrics();
        assertEquals(0, m.windows());
        assertEquals(0, m.bufferedElements());
        assertEquals(0, m.timers());
        assertEquals(0, engine.metrics().shards().get(0).keys());
        h.close();
    }
}
