package io.cepheus.runtime.window;

import static io.cepheus.runtime.window.WindowTestKit.engine;
import static io.cepheus.runtime.window.WindowTestKit.summing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.internal.window.PassThrough;
import io.cepheus.runtime.internal.window.SliceWindowOperator;
import io.cepheus.runtime.internal.window.WindowSpec;
import io.cepheus.runtime.window.WindowTestKit.Ev;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Sliding windows (2 s by 0.5 s: four windows per element, slices of 0.5 s) with 1 s of allowed lateness on the
 * slice operator: late firings of every fired window holding a late element's slice, in the general operator's
 * order, and cleanup exactly at {@code maxTimestamp + lateness}. Each script also runs on the general
 * {@link io.cepheus.runtime.internal.window.WindowOperator} (forced by a trigger that only forwards to the
 * default one), which must give the same output in the same order (within one watermark, compared key by key).
 */
class SlidingLatenessSliceTest {

    /** Runs a script on one engine: elements, watermarks, and metric checks between them. */
    private static final class Run {
        final CepEngine<Ev> engine = engine();
        final List<String> out = new ArrayList<>();
        final List<String> late = new ArrayList<>();
        final WindowResults<Ev> results;
        final Producer<Ev> in;
        final CepTestHarness<Ev> h;

        Run(boolean general) {
            var w = engine.keyBy(Ev::key).window(SlidingEventTimeWindows.<Ev>of(Duration.ofMillis(2000),
                    Duration.ofMillis(500))).allowedLateness(Duration.ofMillis(1000))
                    .sideOutputLateData((k, e, ts) -> late.add(k + " " + e.value() + "@" + ts));
            if (general) {
                w.trigger(ForwardingTrigger.of(EventTimeTrigger.create())); // the general operator
            }
            results = w.reduce(summing()).results((k, win, r, ts) -> out.add(k + " " + win + " " + r.value()));
            in = engine.newProducer();
            h = CepTestHarness.start(engine);
        }

        Run send(String key, long value, long ts) {
            in.send(new Ev(key, value, ts));
            h.runUntilIdle();
            return this;
        }

        Run watermark(long wm) {
            in.watermark(wm);
            h.runUntilIdle();
            return this;
        }

        long shardKeys() {
            return engine.metrics().shards().get(0).keys();
        }
    }

    @Test
    void theConfigurationRunsOnTheSliceOperatorOnlyInAccumulatingMode() {
        for (AccumulationMode mode : AccumulationMode.values()) {
            WindowSpec<Ev, Object, Object> spec = new WindowSpec<>(SlidingEventTimeWindows.<Ev>of(
                    Duration.ofMillis(2000), Duration.ofMillis(500)),
                    mode == AccumulationMode.DISCARDING ? PurgingTrigger.of(EventTimeTrigger.create())
                            : EventTimeTrigger.create(), null, 1000, summing(), null, new PassThrough<>(), mode, null);
            assertEquals(mode == AccumulationMode.ACCUMULATING, SliceWindowOperator.supports(spec), mode.toString());
        }
        Run slices = new Run(false);
        Run general = new Run(true);
        slices.send("a", 1, 100);
        general.send("a", 1, 100);
        assertEquals(1, slices.results.metrics().accumulators(), "one slice, not four windows: the slice operator");
        assertEquals(4, general.results.metrics().accumulators());
        slices.h.close();
        general.h.close();
    }

    private static List<String> lateFiringScript(Run r) {
        r.send("a", 1, 100).send("a", 2, 1200).send("a", 4, 2600);
        r.watermark(2999);
        assertEquals(List.of("a [-1500,500) 1", "a [-1000,1000) 1", "a [-500,1500) 3", "a [0,2000) 3",
                "a [500,2500) 2", "a [1000,3000) 6"), r.out, "on time");
        r.out.clear();
        // 1100 lies in [-500,1500) and [0,2000) (past cleanup) and in [500,2500) and [1000,3000) (fired, alive)
        r.send("a", 8, 1100);
        assertEquals(List.of("a [1000,3000) 14", "a [500,2500) 10"), r.out, "re-fired, latest start first");
        r.out.clear();
        r.send("a", 16, 400); // all of its windows are past cleanup
        assertEquals(List.of(), r.out);
        assertEquals(List.of("a 16@400"), r.late);
        assertEquals(1, r.results.metrics().lateElements());
        // 2400: in two fired windows (re-fired) and two open ones (fire on time)
        r.send("a", 32, 2400);
        assertEquals(List.of("a [1000,3000) 46", "a [500,2500) 42"), r.out);
        r.out.clear();
        // a key that only ever receives a late element: its fired windows are created and fire at once
        r.send("b", 64, 2100);
        assertEquals(List.of("b [1000,3000) 64", "b [500,2500) 64"), r.out);
        r.out.clear();
        r.watermark(4499);
        // within one watermark the slice operator fires key by key, the general one time by time: compared by key
        List<String> onTime = new ArrayList<>(r.out);
        onTime.sort(java.util.Comparator.comparing(line -> line.substring(0, line.indexOf(' ')))); // stable
        assertEquals(List.of("a [1500,3500) 36", "a [2000,4000) 36", "a [2500,4500) 4", "b [1500,3500) 64",
                "b [2000,4000) 64"), onTime);
        return onTime;
    }

    @Test
    void aLateElementWithinLatenessReFiresEveryFiredWindowHoldingItsSlice() {
        Run slices = new Run(false);
        Run general = new Run(true);
        lateFiringScript(slices);
        lateFiringScript(general);
        slices.h.close();
        general.h.close();
    }

    @Test
    void slicesGoExactlyWhenTheWatermarkReachesTheLastWindowsMaxTimestampPlusLateness() {
        for (boolean generalOperator : new boolean[] {false, true}) {
            Run r = new Run(generalOperator);
            lateFiringScript(r);
            // key b's last window [2000,4000) goes at 3999 + 1000, key a's [2500,4500) at 4499 + 1000
            r.watermark(4998);
            WindowMetrics m = r.results.metrics();
            assertEquals(2, m.keys(), "both keys are kept for the lateness");
            assertTrue(m.accumulators() > 0);
            assertTrue(m.timers() > 0);
            r.watermark(4999);
            assertEquals(1, r.results.metrics().keys(), "key b went at 3999 + lateness");
            assertEquals(1, r.shardKeys());
            r.send("b", 128, 2400); // its windows end by 4000: all past cleanup now
            assertEquals(List.of("a 16@400", "b 128@2400"), r.late);
            // 3600: [2000,4000) is past cleanup, [2500,4500) and [3000,5000) fired and alive (the latter created
            // by this element), [3500,5500) open
            r.send("a", 256, 3600);
            assertEquals(List.of("a [3000,5000) 256", "a [2500,4500) 260"),
                    r.out.subList(r.out.size() - 2, r.out.size()));
            r.watermark(5499);
            assertEquals("a [3500,5500) 256", r.out.get(r.out.size() - 1));
            r.watermark(6498);
            m = r.results.metrics();
            assertEquals(1, m.keys(), "[3500,5500) is kept until 5499 + lateness");
            assertTrue(m.accumulators() > 0);
            assertEquals(1, r.shardKeys());
            r.watermark(6499);
            m = r.results.metrics();
            assertEquals(0, m.windows(), "no window left at the last maxTimestamp + lateness");
            assertEquals(0, m.accumulators());
            assertEquals(0, m.timers());
            assertEquals(0, m.keys());
            assertEquals(0, r.shardKeys(), "the key is released");
            assertFalse(r.out.isEmpty());
            r.h.close();
        }
    }
}
