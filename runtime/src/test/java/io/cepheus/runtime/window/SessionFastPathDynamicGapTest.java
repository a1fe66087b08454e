package io.cepheus.runtime.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.internal.window.PassThrough;
import io.cepheus.runtime.internal.window.SessionWindowOperator;
import io.cepheus.runtime.internal.window.WindowSpec;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import io.cepheus.runtime.window.WindowTestKit.Ev;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Dynamic session gaps ({@link EventTimeSessionWindows#withDynamicGap}) with a plain reduce and the default trigger
 * run on the session fast path ({@link SessionWindowOperator}); the same hand-worked example also runs on the general
 * operator (behind a trigger that forwards to {@link EventTimeTrigger}, which the fast path does not take), and both
 * must give Flink's output.
 */
class SessionFastPathDynamicGapTest {

    private static final SessionGapExtractor<Ev> VALUE_SECONDS = e -> e.value() * 1000;

    /** The default trigger's behaviour under another identity: the engine then takes the general operator. */
    private static Trigger<Ev> forwarding() {
        return ForwardingTrigger.of(EventTimeTrigger.create());
    }

    @Test
    void theConfigurationTakesTheFastPathAndTheReferenceDoesNot() {
        ReduceFunction<Ev> sum = (a, b) -> a;
        assertTrue(SessionWindowOperator.supports(new WindowSpec<>(EventTimeSessionWindows.withDynamicGap(VALUE_SECONDS),
                EventTimeTrigger.create(), null, 2000, sum, null, new PassThrough<>(), AccumulationMode.ACCUMULATING,
                null)));
        assertFalse(SessionWindowOperator.supports(new WindowSpec<>(EventTimeSessionWindows.withDynamicGap(VALUE_SECONDS),
                forwarding(), null, 2000, sum, null, new PassThrough<>(), AccumulationMode.ACCUMULATING, null)));
    }

    /**
     * Gap = value seconds, allowed lateness 2 s, sums. Key a: 1@0 opens [0,1000); 5@900 opens [900,5900), merged
     * [0,5900) = 6; 1@6000 opens [6000,7000), apart (5900 &lt; 6000: a 1 s static gap would give other windows).
     * Key b: 3@0 [0,3000) and 1@2500 [2500,3500) make [0,3500) = 4. Watermark 7000 fires b (3499), then a's two
     * sessions (5899, 6999); b's goes at 3499 + 2000. Then a 2@5000 opens [5000,7000), touching both live sessions
     * of a: merged [0,7000) = 9, fired at once (late firing: the watermark is past 6999). b 4@4000 opens
     * [4000,8000), a new session; b 1@3000 opens [3000,4000), which alone would be past cleanup (3999 + 2000 &lt;=
     * 7000) but touches [4000,8000): [3000,8000) = 5, fired at the final watermark. Then nothing is left.
     */
    @Test
    void dynamicGapsOnTheFastPathAndTheGeneralOperator() {
        List<String> expected = List.of("b [0,3500) 4 @3499", "a [0,5900) 6 @5899", "a [6000,7000) 1 @6999",
                "a [0,7000) 9 @6999", "b [3000,8000) 5 @7999");
        assertEquals(expected, run(false), "fast path");
        assertEquals(expected, run(true), "general operator");
    }

    private static List<String> run(boolean general) {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).flushOnClose(false).clock(new ManualClock())
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, r) -> e.ts())).build();
        List<String> out = new ArrayList<>();
        WindowedStream<Ev> w = engine.keyBy(Ev::key).window(EventTimeSessionWindows.withDynamicGap(VALUE_SECONDS))
                .allowedLateness(Duration.ofSeconds(2));
        if (general) {
            w.trigger(forwarding());
        }
        WindowResults<Ev> results = w.reduce((a, b) -> new Ev(a.key(), a.value() + b.value(), a.ts()))
                .results((k, win, r, ts) -> out.add(k + " " + win + " " + r.value() + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 0));
        in.send(new Ev("a", 5, 900));
        in.send(new Ev("a", 1, 6000));
        in.send(new Ev("b", 3, 0));
        in.send(new Ev("b", 1, 2500));
        h.runUntilIdle();
        assertEquals(3, results.metrics().windows());
        in.watermark(7000);
        h.runUntilIdle();
        assertEquals(2, results.metrics().windows(), "b's session is past cleanup");
        in.send(new Ev("a", 2, 5000));
        in.send(new Ev("b", 4, 4000));
        in.send(new Ev("b", 1, 3000));
        h.runUntilIdle();
        assertEquals(0, results.metrics().lateElements());
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        WindowMetrics m = results.metrics();
        assertEquals(0, m.windows());
        assertEquals(0, m.accumulators());
        assertEquals(0, m.timers());
        assertEquals(0, engine.metrics().shards().get(0).keys());
        h.close();
        return out;
    }

    /**
     * A new element whose window equals a merged session exactly: gap = value seconds, 2@4000 opens [4000,6000),
     * 5@2000 opens [2000,7000) and merges it, then another 5@2000 opens [2000,7000) again. Its window joins the
     * session like any overlapping one: [2000,7000) = 12. (Flink 2.3 emits 5 here: its window set reports no merge
     * for an identical window, and the session's earlier contents are left in another state slot.)
     */
    @Test
    void aWindowEqualToAMergedSessionJoinsIt() {
        for (boolean general : new boolean[] {false, true}) {
            CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).clock(new ManualClock())
                    .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, r) -> e.ts())).build();
            List<String> out = new ArrayList<>();
            WindowedStream<Ev> w = engine.keyBy(Ev::key).window(EventTimeSessionWindows.withDynamicGap(VALUE_SECONDS));
            if (general) {
                w.trigger(forwarding());
            }
            w.reduce((a, b) -> new Ev(a.key(), a.value() + b.value(), a.ts()))
                    .results((k, win, r, ts) -> out.add(k + " " + win + " " + r.value() + " @" + ts));
            Producer<Ev> in = engine.newProducer();
            CepTestHarness<Ev> h = CepTestHarness.start(engine);
            in.send(new Ev("a", 2, 4000));
            in.send(new Ev("a", 5, 2000));
            in.send(new Ev("a", 5, 2000));
            in.watermark(Long.MAX_VALUE);
            h.runUntilIdle();
            h.close();
            assertEquals(List.of("a [2000,7000) 12 @6999"), out, general ? "general operator" : "fast path");
        }
    }
}
