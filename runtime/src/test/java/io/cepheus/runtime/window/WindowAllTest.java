package io.cepheus.runtime.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.KeyedStream;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.ShardMetrics;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Non-keyed windows (Flink's {@code windowAll}) through {@code engine.windowAll(...)} and {@code engine.all()}: every
 * element, whatever its own key, goes to the same windows, on one key and so one shard.
 */
class WindowAllTest {

    record Ev(String user, long value, long ts) {
    }

    /**
     * Two shards; elements of users a, b, c. Tumbling 10 s windows over all of them: a1@1000 and b2@2000 share
     * [0,10000) = 3, c4@12 000 is [10000,20000) = 4. A reduce (sliced fast path) and a process function (general
     * operator) on the same stream give one result per window, on the one key {@code true}; all elements were
     * taken by one shard.
     */
    @Test
    void allElementsShareTheSameWindows() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).flushOnClose(false).clock(new ManualClock())
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, r) -> e.ts())).build();
        List<String> sums = new ArrayList<>();
        List<String> users = new ArrayList<>();
        engine.windowAll(TumblingEventTimeWindows.of(Duration.ofSeconds(10)))
                .reduce((a, b) -> new Ev(a.user() + b.user(), a.value() + b.value(), a.ts()))
                .results((k, w, r, ts) -> sums.add(k + " " + w + " " + r.value() + " @" + ts));
        KeyedStream<Ev> all = engine.all();
        assertSame(all, engine.all(), "one all-stream per engine, shared by its windows and patterns");
        all.window(TumblingEventTimeWindows.of(Duration.ofSeconds(10)))
                .<String>process((key, ctx, elements, o) -> {
                    StringBuilder b = new StringBuilder();
                    elements.forEach(e -> b.append(e.user()));
                    o.collect(key + " " + ctx.window() + " " + b);
                })
                .results((k, w, r, ts) -> users.add(r));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 1000));
        in.send(new Ev("b", 2, 2000));
        in.send(new Ev("c", 4, 12_000));
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(List.of("true [0,10000) 3 @9999", "true [10000,20000) 4 @19999"), sums);
        assertEquals(List.of("true [0,10000) ab", "true [10000,20000) c"), users);
        List<Long> events = engine.metrics().shards().stream().map(ShardMetrics::events).sorted().toList();
        assertEquals(List.of(0L, 3L), events, "one shard took every element");
        h.close();
    }

    /** An engine has one key selector: a keyed stream after the all-stream, or the reverse, is refused clearly. */
    @Test
    void anEngineIsEitherKeyedOrAll() {
        CepEngine<Ev> allFirst = CepEngine.<Ev>builder().shards(1).build();
        allFirst.windowAll(TumblingEventTimeWindows.of(Duration.ofSeconds(10)));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> allFirst.keyBy(Ev::user));
        assertTrue(e.getMessage().contains("keyBy() was already called"), e.getMessage());
        CepEngine<Ev> keyedFirst = CepEngine.<Ev>builder().shards(1).build();
        keyedFirst.keyBy(Ev::user);
        assertThrows(IllegalStateException.class,
                () -> keyedFirst.windowAll(TumblingEventTimeWindows.of(Duration.ofSeconds(10))));
    }
}
