package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.LiveSnapshotTest.Ev;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A close while a snapshot's barriers are being aligned: one producer checkpointed and went on sending, the other
 * never checkpointed. The records held back behind the first producer's barrier are input like any other: they are
 * matched before the final flush, and the snapshot, whose cut never reached every producer, is not taken.
 */
class CloseDuringAlignmentTest {

    private static CepEngine<Ev> engine(List<String> out, AtomicInteger snapshots) {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts()))
                .snapshots(LiveSnapshotTest.EVENTS, LiveSnapshotTest.KEYS)
                .build();
        engine.keyBy(Ev::key).pattern(Pattern.<Ev>begin("a").where(e -> e.kind() == 'a')
                        .followedBy("b").where(e -> e.kind() == 'b').within(Duration.ofSeconds(10)))
                .select((k, m, ts) -> out.add("match " + k))
                .timeouts((k, m, ts) -> out.add("timeout " + k));
        engine.onSnapshot(bytes -> snapshots.incrementAndGet());
        return engine;
    }

    private static List<String> expected() {
        List<String> out = new ArrayList<>();
        for (int k = 0; k < 20; k++) {
            out.add("match " + k);
        }
        return out;
    }

    private static void feed(Producer<Ev> a, Producer<Ev> b) {
        for (int k = 0; k < 20; k++) {
            a.send(new Ev(k, 'a', 10 + k));
        }
        a.checkpoint(1);
        for (int k = 0; k < 20; k++) {
            a.send(new Ev(k, 'b', 100 + k));
        }
        b.send(new Ev(99, 'x', 5));
        a.watermark(1_000);
        b.watermark(1_000);
    }

    @Test
    void onShardThreadsHeldBackRecordsAreMatchedBeforeTheFinalFlush() {
        List<String> out = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger snapshots = new AtomicInteger();
        CepEngine<Ev> engine = engine(out, snapshots);
        Producer<Ev> a = engine.newProducer();
        Producer<Ev> b = engine.newProducer();
        engine.start();
        feed(a, b);
        engine.close();

        List<String> sorted = new ArrayList<>(out);
        sorted.sort(null);
        List<String> want = expected();
        want.sort(null);
        assertEquals(want, sorted, "every held-back b completes its a; nothing times out");
        assertEquals(40 + 1, engine.metrics().total(ShardMetrics::events));
        assertEquals(0, snapshots.get(), "producer b never marked the cut: no snapshot");
    }

    @Test
    void underTheHarnessAsWell() {
        List<String> out = new ArrayList<>();
        AtomicInteger snapshots = new AtomicInteger();
        CepEngine<Ev> engine = engine(out, snapshots);
        Producer<Ev> a = engine.newProducer();
        Producer<Ev> b = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        feed(a, b);
        h.runUntilIdle();
        assertEquals(List.of(), out, "the b events wait behind a's barrier for b's");
        h.close();
        out.sort(null);
        List<String> want = expected();
        want.sort(null);
        assertEquals(want, out);
        assertEquals(0, snapshots.get());
    }
}
