package io.cepheus.runtime.window;

import static io.cepheus.runtime.window.WindowTestKit.Ev;
import static io.cepheus.runtime.window.WindowTestKit.engine;
import static io.cepheus.runtime.window.WindowTestKit.summing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.ShardMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Window arithmetic on the slice operator far from the epoch, where a naive {@code start - size} overflows: near
 * {@code Long.MIN_VALUE} an element whose windows fit in a long gets them, as on the general operator and in Flink,
 * one whose first window would start before {@code Long.MIN_VALUE} is refused as a dead letter (never dropped
 * silently), and lateness is judged exactly at any watermark. Found by a randomized comparison with Flink 2.3's
 * window operator; each case runs on both operators where they must agree.
 */
class SliceExtremeTimestampsTest {

    private static final long MIN = Long.MIN_VALUE;

    /** One engine with one windowed sum, on the slice operator or (forced by a forwarding trigger) the general one. */
    private static final class Run {
        final CepEngine<Ev> engine = engine();
        final List<String> out = new ArrayList<>();
        /** The key of each result, in the order they came (as {@link #out} before a watermark reorders it). */
        final List<String> outKeys = new ArrayList<>();
        final List<String> late = new ArrayList<>();
        final List<String> dead = new ArrayList<>();
        final Producer<Ev> in;
        final CepTestHarness<Ev> h;

        Run(WindowAssigner<Ev> assigner, long lateness, boolean general) {
            var w = engine.keyBy(Ev::key).window(assigner).allowedLateness(Duration.ofMillis(lateness))
                    .sideOutputLateData((k, e, ts) -> late.add(e.value() + "@" + ts))
                    .deadLetters((k, e, ts, error) -> dead.add(e.value() + "@" + ts + ": " + rootMessage(error)));
            if (general) {
                w.trigger(ForwardingTrigger.of(EventTimeTrigger.create()));
            }
            w.reduce(summing()).results((k, win, r, ts) -> {
                out.add(win + " " + r.value() + " @" + ts);
                outKeys.add(String.valueOf(k));
            });
            in = engine.newProducer();
            h = CepTestHarness.start(engine);
        }

        Run send(long value, long ts) {
            return send("k", value, ts);
        }

        Run send(String key, long value, long ts) {
            in.send(new Ev(key, value, ts));
            h.runUntilIdle();
            return this;
        }

        /**
         * Within one watermark the slice operator fires key by key and the general operator time by time (the record
         * order between two watermarks carries no meaning), so each watermark's results are put in key order, each
         * key's in the order they came: the two operators must then agree exactly.
         */
        Run watermark(long wm) {
            int from = out.size();
            in.watermark(wm);
            h.runUntilIdle();
            List<String> byKey = java.util.stream.IntStream.range(from, out.size()).boxed()
                    .sorted(java.util.Comparator.comparing(outKeys::get)) // stable: each key's keep their order
                    .map(out::get).toList();
            out.subList(from, out.size()).clear();
            out.addAll(byKey);
            return this;
        }

        Run close() {
            watermark(Long.MAX_VALUE);
            h.close();
            return this;
        }
    }

    private static String rootMessage(Throwable t) {
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getMessage();
    }

    @Test
    void aLateElementFarBelowZeroGoesToTheLateOutput() {
        // window [-5000000000000000004, -4999999999999999993) is past cleanup (max 4999999999999999994 + 1 <= wm)
        for (boolean general : new boolean[] {false, true}) {
            Run r = new Run(TumblingEventTimeWindows.of(Duration.ofMillis(11)), 1, general)
                    .watermark(-4_999_999_999_999_999_989L).send(5, -5_000_000_000_000_000_000L).close();
            assertEquals(List.of("5@-5000000000000000000"), r.late, general ? "general" : "slices");
            assertEquals(List.of(), r.out, general ? "general" : "slices");
        }
    }

    @Test
    void anElementNearLongMinValueGetsItsWindowWhenTheWindowFitsInALong() {
        // multiples of 21 near MIN: MIN + 8, MIN + 29 ...; MIN + 25 lies in [MIN + 8, MIN + 29)
        for (boolean general : new boolean[] {false, true}) {
            Run r = new Run(TumblingEventTimeWindows.of(Duration.ofMillis(21)), 0, general).send(3, MIN + 25).close();
            assertEquals(List.of(window(MIN + 8, MIN + 29) + " 3 @" + (MIN + 28)), r.out,
                    general ? "general" : "slices");
            assertEquals(List.of(), r.dead);
        }
    }

    @Test
    void slidingWindowsNearLongMinValueAreAllThere() {
        // multiples of 10 near MIN: MIN + 8, MIN + 18 ...; MIN + 40 lies in the three windows of size 30 from MIN + 18
        for (boolean general : new boolean[] {false, true}) {
            Run r = new Run(SlidingEventTimeWindows.of(Duration.ofMillis(30), Duration.ofMillis(10)), 0, general)
                    .send(1, MIN + 40).close();
            assertEquals(List.of(window(MIN + 18, MIN + 48) + " 1 @" + (MIN + 47),
                    window(MIN + 28, MIN + 58) + " 1 @" + (MIN + 57), window(MIN + 38, MIN + 68) + " 1 @" + (MIN + 67)),
                    r.out, general ? "general" : "slices");
        }
    }

    @Test
    void anElementWhoseFirstWindowWouldStartBeforeLongMinValueIsADeadLetter() {
        // MIN + 5 lies in [MIN - 13, MIN + 8): not a long
        Run r = new Run(TumblingEventTimeWindows.of(Duration.ofMillis(21)), 0, false).send(7, MIN + 5).close();
        assertEquals(List.of(), r.out);
        assertEquals(1, r.dead.size());
        assertTrue(r.dead.get(0).startsWith("7@" + (MIN + 5) + ": element at " + (MIN + 5)
                + " is too close to Long.MIN_VALUE"), r.dead.get(0));
        assertTrue(r.dead.get(0).endsWith("the earliest time taken is " + (MIN + 8)), r.dead.get(0));
    }

    /**
     * An element whose last window would end at or after {@code Long.MAX_VALUE} is a dead letter on the slice
     * operator, as on the general one (whose assigner wraps there and hands out an empty window); the key's other
     * windows still fire. Taking it instead would fail the whole shard at the firing.
     */
    @Test
    void anElementWhoseWindowWouldPassLongMaxValueIsADeadLetterAndTheRestStillFires() {
        long max = Long.MAX_VALUE;
        for (long offset : new long[] {0, -3, 3}) {
            List<List<String>> outputs = new ArrayList<>();
            for (boolean general : new boolean[] {false, true}) {
                Run r = new Run(TumblingEventTimeWindows.of(Duration.ofMillis(10), Duration.ofMillis(offset)), 0,
                        general).send(1, max - 20).send(2, max - 2).send(4, max - 1).close();
                assertEquals(2, r.dead.size(), r.dead.toString());
                if (!general) {
                    assertTrue(r.dead.get(0).startsWith("2@" + (max - 2) + ": element at " + (max - 2)
                            + " is too close to Long.MAX_VALUE: its last window"), r.dead.get(0));
                }
                outputs.add(r.out);
            }
            assertEquals(1, outputs.get(1).size(), "offset " + offset + ": " + outputs);
            assertEquals(outputs.get(1), outputs.get(0), "offset " + offset);
        }
    }

    /**
     * A watermark just above {@code Long.MIN_VALUE} asks for windows ending after a time whose distance below a
     * window's size is not a long: the bound is taken as no bound, and an on-time element gets all its windows.
     * The slice operator used to compute a wrapped bound there and drop the element without a word.
     */
    @Test
    void anOnTimeElementAfterAWatermarkJustAboveLongMinValueGetsItsWindows() {
        List<List<String>> outputs = new ArrayList<>();
        for (boolean general : new boolean[] {false, true}) {
            Run r = new Run(SlidingEventTimeWindows.of(Duration.ofMillis(9), Duration.ofMillis(1)), 0, general)
                    .watermark(MIN + 2).send(5, MIN + 12).close();
            assertEquals(List.of(), r.dead, general ? "general" : "slices");
            assertEquals(List.of(), r.late, general ? "general" : "slices");
            outputs.add(r.out);
        }
        assertEquals(9, outputs.get(1).size(), outputs.get(1).toString());
        assertEquals(outputs.get(1), outputs.get(0));
    }

    /**
     * Elements far apart, for one key and across keys, while the watermark stalls: the slice operator keeps one
     * column per slice held, never the range of slices between them (a per-key ring of slices once refused an
     * element 2^27 slices away from the key's open window as a dead letter), so every element is taken and fires
     * as on the general operator, including slice numbers at both ends of the long range.
     */
    @Test
    void elementsFarApartAreAllTakenAsOnTheGeneralOperator() {
        List<List<String>> outputs = new ArrayList<>();
        for (boolean general : new boolean[] {false, true}) {
            Run r = new Run(TumblingEventTimeWindows.of(Duration.ofMillis(1)), 0, general)
                    .send(1, 0)
                    .send(2, 1L << 27) // 2^27 one-ms slices from slice 0
                    .send(4, 1L << 20)
                    .send("far", 8, MIN + 1_000).send("far", 16, Long.MAX_VALUE - 1_000)
                    .close();
            assertEquals(List.of(), r.dead, general ? "general" : "slices");
            List<String> out = new ArrayList<>(r.out);
            out.sort(null); // one watermark fires them all: their order carries no meaning
            outputs.add(out);
        }
        assertEquals(List.of("[" + (MIN + 1_000) + "," + (MIN + 1_001) + ") 8 @" + (MIN + 1_000), "[0,1) 1 @0",
                "[" + (1L << 20) + "," + ((1L << 20) + 1) + ") 4 @" + (1L << 20),
                "[" + (1L << 27) + "," + ((1L << 27) + 1) + ") 2 @" + (1L << 27),
                "[" + (Long.MAX_VALUE - 1_000) + "," + (Long.MAX_VALUE - 999) + ") 16 @" + (Long.MAX_VALUE - 1_000))
                .stream().sorted().toList(), outputs.get(1));
        assertEquals(outputs.get(1), outputs.get(0));
    }

    /**
     * The remembered answers start out as the true ones for slice 0 (no "nothing remembered yet" flags): a key whose
     * first slice is slice 0 is let go at its cleanup time, and its late element refused, as on the general operator.
     */
    @Test
    void theFirstRememberedAnswersAreTrueOnes() {
        List<List<String>> outputs = new ArrayList<>();
        for (boolean general : new boolean[] {false, true}) {
            // [0, 10) fires at 9, is cleaned up at 9 + 5 = 14: an element of it after watermark 14 is late
            Run r = new Run(TumblingEventTimeWindows.of(Duration.ofMillis(10)), 5, general)
                    .send(1, 3).watermark(13).send(2, 4).watermark(14);
            long keysHeld = r.engine.metrics().total(ShardMetrics::keys);
            r.send(4, 5).close();
            outputs.add(List.of(String.join("; ", r.out), String.join("; ", r.late), "keys held " + keysHeld));
        }
        assertEquals(List.of(window(0, 10) + " 1 @9; " + window(0, 10) + " 3 @9", "4@5", "keys held 0"),
                outputs.get(1));
        assertEquals(outputs.get(1), outputs.get(0));
    }

    /**
     * The slice operator remembers its last slice and window arithmetic answers (consecutive elements mostly share
     * them): on random streams of several keys, in and out of order, with offsets and lateness, around zero and near
     * both ends of the long range, it must give what the general operator, which remembers nothing, gives.
     */
    @Test
    void randomStreamsAnywhereInTimeAgreeWithTheGeneralOperator() {
        long seed = Long.getLong("cepheus.slice.seed", 7L);
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 300; round++) {
            long size = 1 + random.nextInt(40);
            long slide = random.nextBoolean() ? size : 1 + random.nextInt((int) size);
            long offset = random.nextInt((int) slide);
            long lateness = random.nextBoolean() ? 0 : random.nextInt(30);
            long base = switch (random.nextInt(3)) {
                case 0 -> MIN + 200 + random.nextInt(200);
                case 1 -> -200 + random.nextInt(400);
                default -> Long.MAX_VALUE - 600 + random.nextInt(200);
            };
            int n = 1 + random.nextInt(40);
            long[] ts = new long[n];
            String[] key = new String[n];
            long[] watermarkAfter = new long[n]; // Long.MIN_VALUE: none
            long t = base;
            for (int i = 0; i < n; i++) {
                t += random.nextInt(6);
                ts[i] = t - (random.nextInt(4) == 0 ? random.nextInt(50) : 0);
                key[i] = "k" + random.nextInt(3);
                watermarkAfter[i] = random.nextInt(3) == 0 ? ts[i] - random.nextInt(3) : Long.MIN_VALUE;
            }
            WindowAssigner<Ev> assigner = slide == size
                    ? TumblingEventTimeWindows.of(Duration.ofMillis(size), Duration.ofMillis(offset))
                    : SlidingEventTimeWindows.of(Duration.ofMillis(size), Duration.ofMillis(slide),
                            Duration.ofMillis(offset));
            List<List<String>> outputs = new ArrayList<>();
            for (boolean general : new boolean[] {false, true}) {
                Run r = new Run(assigner, lateness, general);
                for (int i = 0; i < n; i++) {
                    r.send(key[i], i, ts[i]);
                    if (watermarkAfter[i] != Long.MIN_VALUE) {
                        r.watermark(watermarkAfter[i]);
                    }
                }
                r.close();
                outputs.add(List.of(String.join("; ", r.out), String.join("; ", r.late), String.join("; ", r.dead)));
            }
            assertEquals(outputs.get(1), outputs.get(0), "seed " + seed + ", round " + round + ": size " + size
                    + ", slide " + slide + ", offset " + offset + ", lateness " + lateness + ", times "
                    + Arrays.toString(ts));
        }
    }

    private static String window(long start, long end) {
        return new TimeWindow(start, end).toString();
    }
}
