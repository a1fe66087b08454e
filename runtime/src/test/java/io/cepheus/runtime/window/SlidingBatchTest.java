package io.cepheus.runtime.window;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.nfa.testing.PropertySeeds;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.WindowResults;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Sliding windows on the slice path add their elements in batches (a group of keys at a time, to load the keys'
 * state ahead): these tests pin that the batch changes nothing a user sees, over runs much longer than one batch
 * between watermarks, and when a user function throws in the middle of a batch.
 */
class SlidingBatchTest {

    record Ev(int key, long value, long ts) {
    }

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

    /**
     * Thousands of out-of-order elements between watermarks, over a few keys, against windows computed by brute
     * force from the elements that were not late: every window, its values and the late elements must agree.
     */
    @Test
    void longBatchesBetweenWatermarksGiveTheBruteForceWindows() {
        long seed = PropertySeeds.seed(20261130L);
        PropertySeeds.reportingSeed(seed, "runtime", "SlidingBatchTest", () -> {
            SplittableRandom r = new SplittableRandom(seed);
            for (int round = 0; round < 20; round++) {
                checkAgainstBruteForce(r);
            }
        });
    }

    private static void checkAgainstBruteForce(SplittableRandom r) {
        long size = 100L * (2 + r.nextInt(8));
        long slide = 100L * (1 + r.nextInt(2));
        int keyCount = 1 + r.nextInt(40);
        CepEngine<Ev> engine = engine();
        TreeMap<String, String> actual = new TreeMap<>();
        List<String> late = new ArrayList<>();
        engine.keyBy(Ev::key).window(SlidingEventTimeWindows.of(Duration.ofMillis(size), Duration.ofMillis(slide)))
                .sideOutputLateData((k, e, ts) -> late.add(k + ":" + e.value()))
                .aggregate(new Values())
                .results((k, w, v, ts) -> actual.merge(k + " " + w, v, (a, b) -> a + " AGAIN " + b));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        TreeMap<String, List<Long>> expected = new TreeMap<>();
        List<String> expectedLate = new ArrayList<>();
        long watermark = Long.MIN_VALUE;
        long time = 0;
        int n = 500 + r.nextInt(3000);
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
                    expected.computeIfAbsent(e.key() + " " + new TimeWindow(start, start + size),
                            x -> new ArrayList<>()).add(e.value());
                }
            }
            if (r.nextInt(1500) == 0) {
                watermark = Math.max(watermark, time - 300);
                in.watermark(watermark);
                h.runUntilIdle();
            }
        }
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        TreeMap<String, String> want = new TreeMap<>();
        expected.forEach((w, values) -> {
            values.sort(null);
            want.put(w, values.toString());
        });
        String config = "size " + size + ", slide " + slide + ", keys " + keyCount + ", elements " + n;
        for (String w : want.keySet()) {
            assertEquals(want.get(w), actual.get(w), config + ": key and window " + w);
        }
        assertEquals(want.keySet(), actual.keySet(), config + ": windows fired");
        assertEquals(expectedLate, late);
        h.close();
    }

    /**
     * A key's first element throws while a later element of the same key waits in the same batch: the first goes to
     * the dead letters, the second still opens the key's windows; a key whose only element threw leaves nothing.
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
                .results((k, w, v, ts) -> out.add(k + " " + w + " " + v));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
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
