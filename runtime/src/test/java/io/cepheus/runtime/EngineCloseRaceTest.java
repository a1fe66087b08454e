package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.Pattern;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link CepEngine#close()} while producer threads are still sending, with the shards on their own threads: each
 * send either returns, and then its event is matched exactly once (by the close's final flush at the latest), or
 * throws {@link IllegalStateException}, and then it is never matched. Nothing accepted is lost, nothing refused
 * gets through. Many short rounds, each closing after a different number of sends. The narrowest window (an
 * enqueue that lands after a shard's last look at its inbox) is pinned by {@code ShardInboxStressTest}, whose
 * consumer looks far more often; this test checks the whole engine's close around it. No timing is asserted.
 */
@Tag("stress")
class EngineCloseRaceTest {

    private static final int ROUNDS = 40;
    private static final int PRODUCERS = 2;
    private static final long WAIT_SECONDS = 60;

    /** An event of one producer: its sequence number is also its event time, so each producer's times rise. */
    record Ev(int producer, int sequence) {
    }

    @Test
    void everySendRacingWithCloseIsEitherMatchedOnceOrRefused() throws InterruptedException {
        for (int round = 0; round < ROUNDS; round++) {
            closeRace(round);
        }
    }

    private static void closeRace(int round) throws InterruptedException {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).inboxCapacity(64).build();
        AtomicLongArray matched = new AtomicLongArray(PRODUCERS);
        // one stage that takes every event: each accepted event is exactly one match
        engine.keyBy(e -> e.sequence() % 11)
                .pattern(Pattern.<Ev>begin("any").where(e -> true))
                .select((key, match, ts) -> matched.incrementAndGet(match.events("any").get(0).producer()));
        List<Producer<Ev>> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            producers.add(engine.newProducer());
        }
        engine.start();

        long[] accepted = new long[PRODUCERS];
        boolean[] refused = new boolean[PRODUCERS];
        AtomicReferenceArray<Throwable> failures = new AtomicReferenceArray<>(PRODUCERS);
        AtomicLongArray progress = new AtomicLongArray(PRODUCERS);
        Thread[] threads = new Thread[PRODUCERS];
        for (int p = 0; p < PRODUCERS; p++) {
            int producer = p;
            Producer<Ev> in = producers.get(p);
            threads[p] = new Thread(() -> {
                try {
                    for (int sequence = 0; ; sequence++) {
                        try {
                            in.send(new Ev(producer, sequence), sequence);
                        } catch (IllegalStateException closed) {
                            refused[producer] = true;
                            return;
                        }
                        accepted[producer] = sequence + 1L;
                        progress.lazySet(producer, sequence + 1L);
                    }
                } catch (Throwable t) {
                    failures.set(producer, t);
                }
            }, "close-race-sender-" + p);
            threads[p].start();
        }
        long closeAfter = 50L + (round % 10) * 400L; // sends before the close: a different point every round
        while (progress.get(0) + progress.get(1) < closeAfter && failures.get(0) == null && failures.get(1) == null) {
            Thread.onSpinWait();
        }
        engine.close();
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            assertFalse(t.isAlive(), "round " + round + ": " + t.getName() + " did not stop");
        }
        for (int p = 0; p < PRODUCERS; p++) {
            assertNull(failures.get(p), "round " + round + ": sender " + p + " failed");
            assertTrue(refused[p], "round " + round + ": sender " + p + " stopped without a refusal");
            // close() joined the shard threads, whose handlers counted before finishing
            assertEquals(accepted[p], matched.get(p), "round " + round + ", sender " + p
                    + ": events matched against sends that returned");
        }
    }
}
