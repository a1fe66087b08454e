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
 * Evictors run after the window function ({@code doEvictAfter}, Flink's {@code evictAfter}): the function sees
 * every element, and the eviction only shows at the next firing. Beside each, the same stream with the evictor
 * before the function. Tumbling 10 s windows fired every second element ({@link CountTrigger}: the count restarts
 * after each firing); the function lists the values it sees.
 */
class EvictAfterFunctionTest {

    private static List<String> run(Evictor<Ev> evictor, long[][] valueAndTs, long[] bufferedAtEnd) {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).flushOnClose(false).clock(new ManualClock())
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, r) -> e.ts())).build();
        List<String> out = new ArrayList<>();
        WindowResults<String> results = engine.keyBy(Ev::key)
                .window(TumblingEventTimeWindows.of(Duration.ofSeconds(10)))
                .trigger(CountTrigger.of(2))
                .evictor(evictor)
                .<String>process((key, ctx, elements, o) -> {
                    List<Long> values = new ArrayList<>();
                    elements.forEach(e -> values.add(e.value()));
                    o.collect(values.toString());
                })
                .results((k, w, r, ts) -> out.add(r));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        for (long[] v : valueAndTs) {
            in.send(new Ev("a", v[0], v[1]));
        }
        h.runUntilIdle();
        bufferedAtEnd[0] = results.metrics().bufferedElements();
        h.close();
        return out;
    }

    /**
     * Span 2 s; elements (value@ts) 1@1000, 2@2000, 3@4000, 4@4500, 5@5000, 6@9000. After the function: it sees
     * [1, 2] (newest 2000, nothing at or before 0 to evict), [1, 2, 3, 4] (then 1 and 2, at or before 4500 - 2000,
     * go), [3, 4, 5, 6] (then all but 6 go: cut-off 7000). Before the function the eviction shows at once: [1, 2],
     * [3, 4], [6]. Either way only 6 is left.
     */
    @Test
    void timeEvictorAfterTheFunction() {
        long[][] stream = {{1, 1000}, {2, 2000}, {3, 4000}, {4, 4500}, {5, 5000}, {6, 9000}};
        long[] buffered = new long[1];
        assertEquals(List.of("[1, 2]", "[1, 2, 3, 4]", "[3, 4, 5, 6]"),
                run(TimeEvictor.of(Duration.ofSeconds(2), true), stream, buffered));
        assertEquals(1, buffered[0], "6 is left in the window");
        assertEquals(List.of("[1, 2]", "[3, 4]", "[6]"), run(TimeEvictor.of(Duration.ofSeconds(2)), stream, buffered));
        assertEquals(1, buffered[0]);
    }

    /**
     * Threshold 5 on |a - b| against the newest element; values 1, 3, 10, 12, 11, 20. After the function: [1, 3]
     * (3 - 1 = 2 stays), [1, 3, 10, 12] (then 1 and 3, 11 and 9 from 12, go), [10, 12, 11, 20] (then all but 20
     * go). Before the function: [1, 3], [10, 12], [20].
     */
    @Test
    void deltaEvictorAfterTheFunction() {
        long[][] stream = {{1, 100}, {3, 200}, {10, 300}, {12, 400}, {11, 500}, {20, 600}};
        long[] buffered = new long[1];
        DeltaEvictor.DeltaFunction<Ev> distance = (a, b) -> Math.abs(a.value() - b.value());
        assertEquals(List.of("[1, 3]", "[1, 3, 10, 12]", "[10, 12, 11, 20]"),
                run(DeltaEvictor.of(5.0, distance, true), stream, buffered));
        assertEquals(1, buffered[0], "20 is left in the window");
        assertEquals(List.of("[1, 3]", "[10, 12]", "[20]"), run(DeltaEvictor.of(5.0, distance), stream, buffered));
        assertEquals(1, buffered[0]);
    }
}
