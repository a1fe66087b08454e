package io.cepheus.runtime.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.testing.PropertySeeds;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Sliding windows on the slice path over many keys, with long runs of elements between watermarks (an engine batch
 * holds many keys' elements, and the keys due at one time fire in one pass over the slice table's columns): these
 * tests pin that nothing of that shows to a user, also when a user function throws in the middle of a batch or a
 * pass.
 */
class SlidingManyKeysTest {

    record Ev(int key, long value, long ts) {
    }

    /** Keys from here on only fill the operator's state. */
    private static final int FILLER = 100;

    private static CepEngine<Ev> engine() {
        return CepEngine.<Ev>builder().shards(1).flushOnClose(false).clock(new ManualClock())
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, r) -> e.ts())).build();
    }

    /** Collects a window's values, sorted: the multiset a window holds, whatever order slices combine in. */
    private static final class Values implements AggregateFunction<Ev, List<Long>, String> {
        @Override
        public List<Long> createAccumulator() {
            return new ArrayList<>();
        }

        @Override
        public List<Long> add(Ev e, List<Long> acc) {
            if (e.value() < 0) {
                throw new IllegalArgumentException("negative " + e.value());
            }
            acc.add(e.value());
            return acc;
        }

        @Override
        public String getResult(List<Long> acc) {
            List<Long> sorted = new ArrayList<>(acc);
            sorted.sort(null);
            return sorted.toString();
        }

        @Override
        public List<Long> merge(List<Long> a, List<Long> b) {
            a.addAll(b);
            return a;
        }
    }

    /** Count, sum and sum of squares of a window's values: a cheap fingerprint of the multiset it holds. */
    private static final class Fingerprint implements AggregateFunction<Ev, long[], String> {
        @Override
        public long[] createAccumulator() {
            return new long[3];
        }

        @Override
        public long[] add(Ev e, long[] acc) {
            acc[0]++;
            acc[1] += e.value();
            acc[2] += e.value() * e.value();
            return acc;
        }

        @Override
        public String getResult(long[] acc) {
            return summary(acc);
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            a[0] += b[0];
            a[1] += b[1];
            a[2] += b[2];
            return a;
        }

        static String summary(long[] acc) {
            return acc[0] + "/" + acc[1] + "/" + acc[2];
        }

        static String of(List<Long> values) {
            long[] acc = new long[3];
            values.forEach(v -> {
                acc[0]++;
                acc[1] += v;
                acc[2] += v * v;
            });
            return summary(acc);
        }
    }

    /**
     * Thousands of out-of-order elements between watermarks, over a few keys, against windows computed by brute
     * force from the elements that were not late: every window, its values and the late elements must agree.
     */
    @Test
    void fewKeysGiveTheBruteForceWindows() {
        long seed = PropertySeeds.seed(20261130L);
        PropertySeeds.reportingSeed(seed, "runtime", "SlidingManyKeysTest", () -> {
            SplittableRandom r = new SplittableRandom(seed);
            for (int round = 0; round < 20; round++) {
                long slide = 100L * (1 + r.nextInt(2));
                checkAgainstBruteForce(r, 100L * (2 + r.nextInt(8)), slide, 1 + r.nextInt(40), 500 + r.nextInt(3000),
                        false);
            }
        });
    }

    /**
     * Many keys and slices (tens of thousands of slice values, columns of a thousand keys), against brute force.
     */
    @Test
    void manyKeysGiveTheBruteForceWindowsThroughTheBatches() {
        long seed = PropertySeeds.seed(20261201L);
        PropertySeeds.reportingSeed(seed, "runtime", "SlidingManyKeysTest", () -> {
            SplittableRandom r = new SplittableRandom(seed);
            for (int round = 0; round < 2; round++) {
                long most = checkAgainstBruteForce(r, 30_000, 1_000, 2_000 + r.nextInt(1_000), 30_000, true);
                assertTrue(most > 16_384, "slices held at most " + most + ": the batches were not used");
            }
        });
    }

    /** @return a key and a window's start (an int: the streams span less than 25 days) as one map key */
    private static long keyAndWindow(int key, long windowStart) {
        return ((long) key << 32) | (windowStart & 0xFFFF_FFFFL);
    }

    /** @return the most slices the operator held at a watermark */
    private static long checkAgainstBruteForce(SplittableRandom r, long size, long slide, int keyCount, int n,
            boolean fingerprints) {
        CepEngine<Ev> engine = engine();
        Map<Long, String> actual = new HashMap<>();
        List<String> late = new ArrayList<>();
        WindowedStream<Ev> windowed = engine.keyBy(Ev::key)
                .window(SlidingEventTimeWindows.of(Duration.ofMillis(size), Duration.ofMillis(slide)))
                .sideOutputLateData((k, e, ts) -> late.add(k + ":" + e.value()));
        WindowResults<String> results = fingerprints ? windowed.aggregate(new Fingerprint())
                : windowed.aggregate(new Values());
        results.results((k, w, v, ts) -> actual.merge(keyAndWindow((Integer) k, ((TimeWindow) w).start()), v,
                (a, b) -> a + " AGAIN " + b));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        Map<Long, List<Long>> expected = new HashMap<>();
        List<String> expectedLate = new ArrayList<>();
        long watermark = Long.MIN_VALUE;
        long time = 0;
        long most = 0;
        for (int i = 0; i < n; i++) {
            time += r.nextInt(3);
            long ts = Math.max(0, time - r.nextInt(400));
            Ev e = new Ev(r.nextInt(keyCount), i, ts);
            in.send(e);
            boolean anyOpen = false;
            for (long start = ts - Math.floorMod(ts, slide); start > ts - size; start -= slide) {
                if (start + size - 1 > watermark) {
                    anyOpen = true;
                }
            }
            if (!anyOpen) {
                expectedLate.add(e.key() + ":" + e.value());
                continue;
            }
            for (long start = ts - Math.floorMod(ts, slide); start > ts - size; start -= slide) {
                if (start + size - 1 > watermark) {
                    expected.computeIfAbsent(keyAndWindow(e.key(), start), x -> new ArrayList<>()).add(e.value());
                }
            }
            if (i % 1000 == 999) {
                h.runUntilIdle();
            }
            if (r.nextInt(1500) == 0) {
                watermark = Math.max(watermark, time - 300);
                in.watermark(watermark);
                h.runUntilIdle();
                most = Math.max(most, results.metrics().accumulators());
            }
        }
        h.runUntilIdle();
        most = Math.max(most, results.metrics().accumulators());
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        Map<Long, String> want = new HashMap<>();
        expected.forEach((w, values) -> {
            values.sort(null);
            want.put(w, fingerprints ? Fingerprint.of(values) : values.toString());
        });
        String config = "size " + size + ", slide " + slide + ", keys " + keyCount + ", elements " + n;
        for (long w : want.keySet()) {
            assertEquals(want.get(w), actual.get(w), config + ": key " + (w >> 32) + ", window from " + (int) w);
        }
        assertEquals(want.keySet(), actual.keySet(), config + ": windows fired");
        assertEquals(expectedLate, late);
        h.close();
        return most;
    }

    /**
     * A key's first element throws while a later element of the same key waits in the same batch: the first goes to
     * the dead letters, the second still opens the key's windows; a key whose only element threw leaves nothing.
     * 17,000 other keys hold a slice each first, so that the operator is loading state ahead.
     */
    @Test
    void aThrowInsideABatchKeepsTheKeysLaterElements() {
        CepEngine<Ev> engine = engine();
        List<String> dead = new ArrayList<>();
        List<String> out = new ArrayList<>();
        WindowResults<String> results = engine.keyBy(Ev::key)
                .window(SlidingEventTimeWindows.of(Duration.ofMillis(200), Duration.ofMillis(100)))
                .deadLetters((k, e, ts, err) -> dead.add(k + " " + err.getMessage()))
                .aggregate(new Values())
                .results((k, w, v, ts) -> {
                    if ((Integer) k < FILLER) {
                        out.add(k + " " + w + " " + v);
                    }
                });
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        for (int k = FILLER; k < FILLER + 17_000; k++) {
            in.send(new Ev(k, 1, 5));
        }
        h.runUntilIdle();
        assertTrue(results.metrics().accumulators() > 16_384, "loading ahead: " + results.metrics());
        in.send(new Ev(1, -1, 10));
        in.send(new Ev(2, -2, 20));
        in.send(new Ev(1, 5, 30));
        in.watermark(1000);
        h.runUntilIdle();
        assertEquals(List.of("1 negative -1", "2 negative -2"), dead);
        assertEquals(List.of("1 [-100,100) [5]", "1 [0,200) [5]"), out);
        assertEquals(0, results.metrics().windows(), "no window left");
        assertEquals(0, engine.metrics().shards().get(0).keys(), "both keys released");
        h.close();
    }
}
