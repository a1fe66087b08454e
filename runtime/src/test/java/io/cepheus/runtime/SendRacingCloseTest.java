package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.WatermarkGenerator;
import io.cepheus.runtime.time.WatermarkOutput;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A send either delivers its event and returns normally, or delivers nothing and throws: never both. The race that
 * made it both: {@code close()} closing the inboxes between the event's enqueue and the watermark that follows it.
 * The generator here closes the engine right there, so the race is taken every time.
 */
class SendRacingCloseTest {

    record Ev(String key, long ts) {
    }

    @Test
    void aCloseBetweenTheEnqueueAndItsWatermarkLeavesTheSendSuccessful() throws Exception {
        AtomicReference<CepEngine<Ev>> engineRef = new AtomicReference<>();
        AtomicReference<Thread> closer = new AtomicReference<>();
        WatermarkGenerator<Ev> closingOnEvent = new WatermarkGenerator<>() {
            @Override
            public void onEvent(Ev event, long timestamp, WatermarkOutput out) {
                CepEngine<Ev> engine = engineRef.get();
                Thread t = new Thread(() -> engine.close(Duration.ofSeconds(60)), "closer");
                closer.set(t);
                t.start();
                while (!engine.inboxes()[0].isClosed()) {
                    Thread.onSpinWait(); // the event is enqueued, the engine has closed its inboxes
                }
                out.emitWatermark(timestamp);
            }

            @Override
            public void onPeriodicEmit(WatermarkOutput out) {
            }
        };
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1)
                .watermarks(WatermarkStrategy.<Ev>forGenerator(() -> closingOnEvent)
                        .withTimestampAssigner((e, ts) -> e.ts()))
                .build();
        engineRef.set(engine);
        List<String> matched = new CopyOnWriteArrayList<>();
        engine.keyBy(Ev::key).pattern(Pattern.<Ev>begin("e").where(e -> true)).select((k, m, ts) -> matched.add(
                (String) k));
        Producer<Ev> in = engine.newProducer();
        engine.start();

        assertTrue(in.send(new Ev("k", 5)), "delivered, so the send succeeds");
        closer.get().join(60_000);
        assertEquals(1, engine.metrics().total(ShardMetrics::events), "the shard received the event once");
        assertEquals(List.of("k"), matched, "and the final flush matched it");
    }
}
