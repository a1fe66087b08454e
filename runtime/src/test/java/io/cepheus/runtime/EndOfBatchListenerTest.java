package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A handler that buffers its output flushes it once per batch, told by the engine's end-of-batch listener. */
class EndOfBatchListenerTest {

    record Ev(String key, char kind, long ts) {
    }

    private static Pattern<Ev> orderThenShipment() {
        return Pattern.<Ev>begin("order").where(e -> e.kind() == 'o')
                .followedBy("ship").where(e -> e.kind() == 's').within(Duration.ofMillis(1_000));
    }

    @Test
    void everyBatchEndsWithOneCallAfterItsMatchesWereHandled() {
        List<String> pending = new ArrayList<>();
        List<String> flushed = new ArrayList<>();
        List<Integer> batchSizes = new ArrayList<>();
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).batchSize(4).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts()))
                .onEndOfBatch((shard, records) -> {
                    batchSizes.add(records);
                    flushed.add("batch of " + records + ": " + pending);
                    pending.clear();
                })
                .build();
        engine.keyBy(Ev::key).pattern(orderThenShipment())
                .select((key, m, ts) -> pending.add("match " + key))
                .timeouts((key, m, ts) -> pending.add("timeout " + key));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'o', 10));
        in.send(new Ev("u2", 'o', 11));
        in.send(new Ev("u1", 's', 12));
        in.watermark(20); // the 4th record: the first batch ends with it, u1's match inside
        in.send(new Ev("u3", 'o', 30));
        in.watermark(40);
        h.runUntilIdle();

        assertEquals(List.of(4, 2), batchSizes, "batches of at most 4 records");
        assertEquals(List.of("batch of 4: [match u1]", "batch of 2: []"), flushed);
        h.close(); // the final flush times out u2 and u3, then one more call
        assertEquals(List.of(4, 2, 0), batchSizes);
        assertEquals("batch of 0: [timeout u2, timeout u3]", flushed.get(2));
        assertTrue(pending.isEmpty());
    }

    @Test
    void aThrowingListenerIsAFailureOfUserCode() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts()))
                .onEndOfBatch((shard, records) -> {
                    throw new IllegalStateException("sink down");
                })
                .build();
        engine.keyBy(Ev::key).pattern(orderThenShipment());
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'o', 10));

        UserCodeException e = assertThrows(UserCodeException.class, h::runUntilIdle);
        assertEquals("end-of-batch listener", e.function());
        assertEquals("shard 0", e.operator());
        assertEquals("sink down", e.getCause().getMessage());
    }
}
