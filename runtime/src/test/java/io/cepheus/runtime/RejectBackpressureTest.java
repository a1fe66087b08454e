package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link BackpressurePolicy#REJECT} through the engine: with a tiny inbox and a shard that is not driven (the
 * harness runs shards only when told), {@code send} returns false once the shard's inbox is full, a rejected
 * event is neither enqueued nor seen by the watermark generator, another shard still accepts, and once the
 * shard drains and the caller sends the rejected events again every event is matched exactly once, with the
 * metrics agreeing with the caller's own counts.
 */
class RejectBackpressureTest {

    record Ev(String key, int seq, long ts) {
    }

    private static final int CAPACITY = 4;
    private static final long OUT_OF_ORDERNESS = 10;

    private final ManualClock clock = new ManualClock(0);
    /** Per key, the sequence numbers the pattern matched, in order (all on this thread: the harness). */
    private final Map<Object, List<Integer>> matched = new LinkedHashMap<>();
    private int accepted;
    private int rejected;

    private CepEngine<Ev> engine() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).clock(clock).inboxCapacity(CAPACITY)
                .backpressure(BackpressurePolicy.REJECT)
                .watermarks(WatermarkStrategy.<Ev>forBoundedOutOfOrderness(Duration.ofMillis(OUT_OF_ORDERNESS))
                        .withTimestampAssigner((e, ts) -> e.ts()))
                .build();
        engine.keyBy(Ev::key).pattern(Pattern.<Ev>begin("e").where(e -> true))
                .select((key, m, ts) -> matched.computeIfAbsent(key, k -> new ArrayList<>())
                        .add(m.allEvents().get(0).seq()))
                .lateEvents((key, e, ts) -> matched.computeIfAbsent(key, k -> new ArrayList<>()).add(-e.seq()));
        return engine;
    }

    private boolean send(Producer<Ev> in, Ev e) {
        boolean sent = in.send(e);
        if (sent) {
            accepted++;
        } else {
            rejected++;
        }
        return sent;
    }

    private static String keyOnShard(int shard) {
        for (int i = 0; ; i++) {
            if (CepEngine.shardOf("k" + i, 2) == shard) {
                return "k" + i;
            }
        }
    }

    private static ShardMetrics shard(CepEngine<?> engine, String key) {
        return engine.metrics().shards().get(CepEngine.shardOf(key, 2));
    }

    @Test
    void aFullInboxRejectsAndNothingIsLostOrDuplicatedOnceTheShardDrains() {
        CepEngine<Ev> engine = engine();
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        String full = keyOnShard(0);
        String other = keyOnShard(1);

        // fill shard 0's inbox: exactly CAPACITY events fit, the next ones are refused at once
        List<Ev> pending = new ArrayList<>();
        for (int seq = 0; seq < CAPACITY + 2; seq++) {
            Ev e = new Ev(full, seq, seq < CAPACITY ? 100 + seq : 500 + seq); // the refused ones are the latest
            if (!send(in, e)) {
                pending.add(e);
            }
        }
        assertEquals(CAPACITY, accepted);
        assertEquals(2, pending.size());
        assertFalse(send(in, pending.get(0)), "still full: the shard was not driven");
        assertEquals(CAPACITY, shard(engine, full).queueDepth());
        assertEquals(0, shard(engine, full).events(), "not driven: nothing processed yet");

        // the other shard is not held up by the full one
        assertTrue(send(in, new Ev(other, 0, 100)));
        assertTrue(send(in, new Ev(other, 1, 101)));
        assertEquals(2, shard(engine, other).queueDepth());

        harness.runUntilIdle();
        assertEquals(0, shard(engine, full).queueDepth());
        assertEquals(CAPACITY, shard(engine, full).events());
        assertEquals(2, shard(engine, other).events());

        // a refused event was not seen by the watermark generator: the periodic watermark follows the accepted
        // events only (highest 103), not the refused ones (505, 506), which would make them late when resent
        clock.advance(WatermarkStrategy.DEFAULT_AUTO_WATERMARK_INTERVAL);
        in.tick();
        harness.runUntilIdle();
        assertEquals(100 + CAPACITY - 1 - OUT_OF_ORDERNESS - 1, engine.metrics().watermark());

        for (Ev e : pending) {
            assertTrue(send(in, e), "room again after the shard drained");
        }
        harness.close();

        assertEquals(Map.of(full, List.of(0, 1, 2, 3, 4, 5), other, List.of(0, 1)), matched,
                "each event matched once, in order, none late (a late one shows as a negative number)");
        EngineMetrics m = engine.metrics();
        assertEquals(accepted, m.total(ShardMetrics::events), "events in = sends that returned true");
        assertEquals(accepted, m.total(ShardMetrics::matches));
        assertEquals(0, m.total(ShardMetrics::lateEvents));
        assertEquals(0, m.total(ShardMetrics::queueDepth));
        assertEquals(3, rejected, "sends that returned false: two on the first pass, one retry while full");
        assertEquals(CAPACITY + 2 + 1 + 2 + 2, accepted + rejected, "every send attempt is accounted for");
    }
}
