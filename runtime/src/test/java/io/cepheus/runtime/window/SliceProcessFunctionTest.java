package io.cepheus.runtime.window;

import static io.cepheus.runtime.window.WindowTestKit.Ev;
import static io.cepheus.runtime.window.WindowTestKit.engine;
import static io.cepheus.runtime.window.WindowTestKit.summing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Collector;
import io.cepheus.runtime.OutputTag;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.internal.window.PassThrough;
import io.cepheus.runtime.internal.window.SliceWindowOperator;
import io.cepheus.runtime.internal.window.WindowSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A sliding reduce followed by a process function (Flink's {@code reduce(f, processWindowFunction)}, the usual way to
 * get a window's bounds with its aggregate) runs on the shared slices when there is no allowed lateness: one update
 * per element, not one per window. The process function sees the same window, value, per-window state (fresh for each
 * window, cleared right after its one firing), per-key state and side outputs as on the general operator, which runs
 * the same script (forced by a trigger that forwards to the default one) and must give the same output.
 */
class SliceProcessFunctionTest {

    private static final OutputTag<String> BIG = OutputTag.of("big", String.class);

    /** Emits "window sum, n-th window of the key"; window state must start empty; sums over 5 go to a side output. */
    private static final class Describe implements ProcessWindowFunction<Ev, String> {
        final List<String> cleared = new ArrayList<>();

        @Override
        public void process(Object key, Context ctx, Iterable<Ev> sums, Collector<String> out) {
            Long before = ctx.windowState().get("seen");
            ctx.windowState().put("seen", 1L);
            Long n = ctx.globalState().get("windows");
            long nth = n == null ? 1 : n + 1;
            ctx.globalState().put("windows", nth);
            for (Ev sum : sums) {
                out.collect(key + " " + ctx.window() + " " + sum.value() + " #" + nth + (before == null ? "" : " STALE")
                        + " wm=" + ctx.currentWatermark());
                if (sum.value() > 5) {
                    ctx.output(BIG, key + " " + ctx.window());
                }
            }
        }

        @Override
        public void clear(Context ctx) {
            cleared.add(ctx.window().toString());
        }
    }

    private record Outcome(List<String> results, List<String> big, List<String> cleared, long accumulators) {
    }

    private static Outcome run(boolean general) {
        CepEngine<Ev> engine = engine();
        List<String> out = new ArrayList<>();
        List<String> big = new ArrayList<>();
        Describe describe = new Describe();
        var w = engine.keyBy(Ev::key).window(SlidingEventTimeWindows.<Ev>of(Duration.ofMillis(2000),
                Duration.ofMillis(500)));
        if (general) {
            w.trigger(ForwardingTrigger.of(EventTimeTrigger.create()));
        }
        WindowResults<String> results = w.reduce(summing(), describe)
                .sideOutput(BIG, (v, ts) -> big.add(v + " @" + ts))
                .results((k, win, r, ts) -> out.add(r + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 100));
        in.send(new Ev("a", 2, 1200));
        in.send(new Ev("b", 7, 1300));
        h.runUntilIdle();
        long accumulators = results.metrics().accumulators();
        in.watermark(1499);
        h.runUntilIdle();
        in.send(new Ev("a", 4, 1600));
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        h.close();
        return new Outcome(out, big, describe.cleared, accumulators);
    }

    @Test
    void theSlicesRunAProcessFunctionAsTheGeneralOperatorDoes() {
        assertTrue(SliceWindowOperator.supports(new WindowSpec<>(SlidingEventTimeWindows.<Ev>of(Duration.ofMillis(2000),
                Duration.ofMillis(500)), EventTimeTrigger.create(), null, 0, summing(), null, new Describe(),
                io.cepheus.runtime.window.AccumulationMode.ACCUMULATING, null)));
        assertFalse(SliceWindowOperator.supports(new WindowSpec<>(SlidingEventTimeWindows.<Ev>of(
                Duration.ofMillis(2000), Duration.ofMillis(500)), EventTimeTrigger.create(), null, 1000, summing(),
                null, new Describe(), io.cepheus.runtime.window.AccumulationMode.ACCUMULATING, null)),
                "with lateness a window re-fires: the general operator keeps its state");
        assertTrue(SliceWindowOperator.supports(new WindowSpec<>(SlidingEventTimeWindows.<Ev>of(
                Duration.ofMillis(2000), Duration.ofMillis(500)), EventTimeTrigger.create(), null, 1000, summing(),
                null, new PassThrough<>(), io.cepheus.runtime.window.AccumulationMode.ACCUMULATING, null)));

        Outcome slices = run(false);
        Outcome general = run(true);
        assertEquals(3, slices.accumulators(), "three slices (a@0, a@1000, b@1000), not ten windows");
        assertEquals(10, general.accumulators());
        assertEquals(List.of(
                "a [-1500,500) 1 #1 wm=1499 @499", "a [-1000,1000) 1 #2 wm=1499 @999",
                "a [-500,1500) 3 #3 wm=1499 @1499", "b [-500,1500) 7 #1 wm=1499 @1499",
                "a [0,2000) 7 #4 wm=9223372036854775807 @1999", "b [0,2000) 7 #2 wm=9223372036854775807 @1999",
                "a [500,2500) 6 #5 wm=9223372036854775807 @2499", "b [500,2500) 7 #3 wm=9223372036854775807 @2499",
                "a [1000,3000) 6 #6 wm=9223372036854775807 @2999", "b [1000,3000) 7 #4 wm=9223372036854775807 @2999",
                "a [1500,3500) 4 #7 wm=9223372036854775807 @3499"), sorted(slices.results()));
        assertEquals(sorted(general.results()), sorted(slices.results()));
        assertEquals(sorted(general.big()), sorted(slices.big()));
        assertEquals(7, slices.big().size());
        assertEquals(general.cleared().stream().sorted().toList(), slices.cleared().stream().sorted().toList());
        assertEquals(11, slices.cleared().size(), "each window cleared once");
    }

    private static List<String> sorted(List<String> lines) {
        List<String> copy = new ArrayList<>(lines);
        copy.sort(java.util.Comparator.comparingLong((String s) -> Long.parseLong(s.substring(s.lastIndexOf('@') + 1)))
                .thenComparing(s -> s));
        return copy;
    }
}
