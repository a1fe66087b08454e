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
 * {@code reduce(function, processFunction)} (Flink's incremental aggregation with a ProcessWindowFunction): the window
 * keeps one reduced value, never its elements, and when it fires the process function receives just that value,
 * with the window's metadata (window, watermark) in its context.
 */
class ReduceWithProcessFunctionTest {

    /**
     * Tumbling 10 s windows, reduce keeps the larger value, 1 s of allowed lateness. a3, a7, a5 and b1 in [0,10000):
     * two windows, two accumulators, nothing buffered. Watermark 9999 fires both (a's first: same time, a's key came
     * first): a's process function sees one value, 7; b's sees 1. a8 at 5000 is late but within lateness: a late
     * firing with the reduced value now 8. The final watermark removes both windows without another firing.
     */
    @Test
    void theProcessFunctionReceivesTheOneReducedValueAndTheWindowMetadata() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).flushOnClose(false).clock(new ManualClock())
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, r) -> e.ts())).build();
        List<String> out = new ArrayList<>();
        WindowResults<String> results = engine.keyBy(Ev::key)
                .window(TumblingEventTimeWindows.of(Duration.ofSeconds(10)))
                .allowedLateness(Duration.ofSeconds(1))
                .<String>reduce((a, b) -> a.value() >= b.value() ? a : b, (key, ctx, values, o) -> {
                    List<Long> seen = new ArrayList<>();
                    values.forEach(v -> seen.add(v.value()));
                    o.collect(key + " " + ctx.window() + " " + seen + " wm " + ctx.currentWatermark());
                })
                .results((k, w, r, ts) -> out.add(r + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 3, 1000));
        in.send(new Ev("a", 7, 2000));
        in.send(new Ev("a", 5, 3000));
        in.send(new Ev("b", 1, 4000));
        h.runUntilIdle();
        WindowMetrics m = results.metrics();
        assertEquals(2, m.windows());
        assertEquals(2, m.accumulators(), "one reduced value per window");
        assertEquals(0, m.bufferedElements(), "no elements kept");
        in.watermark(9999);
        h.runUntilIdle();
        assertEquals(List.of("a [0,10000) [7] wm 9999 @9999", "b [0,10000) [1] wm 9999 @9999"), out);
        in.send(new Ev("a", 8, 5000));
        h.runUntilIdle();
        assertEquals(List.of("a [0,10000) [7] wm 9999 @9999", "b [0,10000) [1] wm 9999 @9999",
                "a [0,10000) [8] wm 9999 @9999"), out);
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(3, out.size(), "the cleanup at 10 999 does not fire");
        assertEquals(0, results.metrics().windows());
        assertEquals(0, results.metrics().accumulators());
        h.close();
    }
}
