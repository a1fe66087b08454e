package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A close with shards whose handlers do not return: it reports every shard that did not stop in time, not only the
 * first, and asks every one of them to stop, so that each thread ends once its handler returns instead of running on.
 */
class CloseWithStuckShardsTest {

    record Ev(String key, long ts) {
    }

    private static String keyOnShard(int shard) {
        for (int i = 0; ; i++) {
            if (CepEngine.shardOf("k" + i, 2) == shard) {
                return "k" + i;
            }
        }
    }

    private static List<Thread> shardThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("cepheus-shard-")).toList();
    }

    @Test
    void everyStuckShardIsReportedAndEveryOneStopsOnceItsHandlerReturns() throws Exception {
        List<Thread> before = shardThreads(); // another test's engine may have left some
        CountDownLatch bothStuck = new CountDownLatch(2);
        CountDownLatch gate = new CountDownLatch(1);
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
        engine.keyBy(Ev::key).pattern(Pattern.<Ev>begin("e").where(e -> true)).select((k, m, ts) -> {
            bothStuck.countDown();
            try {
                gate.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Producer<Ev> in = engine.newProducer();
        engine.start();
        in.send(new Ev(keyOnShard(0), 1));
        in.send(new Ev(keyOnShard(1), 1));
        in.watermark(10);
        assertTrue(bothStuck.await(60, TimeUnit.SECONDS));
        List<Thread> threads = shardThreads().stream().filter(t -> !before.contains(t)).toList();
        assertEquals(2, threads.size());

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> engine.close(Duration.ofMillis(200)));
        assertTrue(e.getMessage().contains("did not stop within"), e.getMessage());
        assertEquals(1, e.getSuppressed().length, "the second stuck shard is reported too");

        gate.countDown();
        for (Thread t : threads) {
            t.join(60_000);
            assertFalse(t.isAlive(), t.getName() + " still runs: it was never asked to stop");
        }
    }
}
