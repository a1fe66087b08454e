package io.cepheus.runtime.internal.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.cepheus.nfa.testing.PropertySeeds;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link KeyDueHeap} and {@link KeyDueWheel} against plain lists of entries: random adds (duplicates, negative
 * times, times many laps of the wheel ahead) and takes (small steps, jumps over laps, the end of time).
 */
class KeyDueStructuresTest {

    private static final long SEED = PropertySeeds.seed(0xD0E5L);

    private static final Comparator<long[]> TIME_THEN_KEY =
            Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]);

    @Test
    void theHeapComesOutInTimeThenKeyOrder() {
        PropertySeeds.reportingSeed(SEED, "runtime", "KeyDueStructuresTest", () ->
                qt().withFixedSeed(SEED).withExamples(300).forAll(longs().all()).checkAssert(seed -> {
                    Random r = new Random(seed);
                    KeyDueHeap heap = new KeyDueHeap();
                    List<long[]> model = new ArrayList<>();
                    for (int step = 0; step < 400; step++) {
                        if (r.nextInt(3) > 0 || model.isEmpty()) {
                            long time = r.nextInt(50) - 25 + (r.nextInt(10) == 0 ? Long.MAX_VALUE - 30 : 0);
                            int key = r.nextInt(8);
                            heap.push(time, key);
                            model.add(new long[] {time, key});
                        } else {
                            model.sort(TIME_THEN_KEY);
                            long[] first = model.remove(0);
                            assertEquals(first[0], heap.peekTime(), "seed " + seed);
                            assertEquals(first[1], heap.peekKey(), "seed " + seed);
                            heap.pop();
                        }
                        assertEquals(model.size(), heap.size());
                    }
                }));
    }

    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a take looping past the end of time fails, never hangs the build
    void theWheelGivesExactlyTheEntriesTheWatermarkPassed() {
        PropertySeeds.reportingSeed(SEED, "runtime", "KeyDueStructuresTest", () ->
                qt().withFixedSeed(SEED).withExamples(300).forAll(longs().all()).checkAssert(seed -> {
                    Random r = new Random(seed);
                    long width = 1L << r.nextInt(6);
                    int buckets = 1 + r.nextInt(70);
                    KeyDueWheel wheel = new KeyDueWheel(width, buckets);
                    long span = width * Integer.highestOneBit(Math.max(1, buckets)) * 2; // about one lap
                    List<long[]> model = new ArrayList<>();
                    // near the end of time too: the take at Long.MAX_VALUE then follows takes just below it
                    long wm = switch (r.nextInt(3)) {
                        case 0 -> Long.MIN_VALUE;
                        case 1 -> -r.nextInt(1000);
                        default -> Long.MAX_VALUE - span * 40 - r.nextInt(1000);
                    };
                    boolean started = wm != Long.MIN_VALUE;
                    if (started) {
                        assertEquals(0, wheel.takeDue(wm));
                    }
                    long base = started ? wm : -500;
                    for (int step = 0; step < 300; step++) {
                        if (r.nextInt(3) > 0) {
                            long ahead = switch (r.nextInt(4)) {
                                case 0 -> 1 + r.nextInt((int) width * 2);
                                case 1 -> 1 + r.nextInt((int) span);
                                case 2 -> 1 + r.nextInt((int) span * 20); // many laps ahead
                                default -> 1 + r.nextInt(3);
                            };
                            long time = saturatedAdd(base, ahead);
                            if (started && time <= base) {
                                continue; // the end of time was taken: nothing can come after it
                            }
                            int key = r.nextInt(20);
                            wheel.add(time, key);
                            model.add(new long[] {time, key});
                        } else {
                            long next = saturatedAdd(base, switch (r.nextInt(5)) {
                                case 0 -> 1;
                                case 1 -> r.nextInt((int) width + 1);
                                case 2 -> r.nextInt((int) span * 3);
                                case 3 -> r.nextInt((int) span * 30);
                                default -> r.nextInt(5);
                            });
                            int n = wheel.takeDue(next);
                            List<long[]> got = new ArrayList<>();
                            for (int i = 0; i < n; i++) {
                                got.add(new long[] {wheel.takenTime(i), wheel.takenKey(i)});
                            }
                            List<long[]> expected = new ArrayList<>();
                            if (next > base || !started) {
                                long upTo = next;
                                model.removeIf(e -> {
                                    if (e[0] <= upTo) {
                                        expected.add(e);
                                        return true;
                                    }
                                    return false;
                                });
                                base = Math.max(base, next);
                                started = true;
                            }
                            assertEquals(text(expected), text(got), "seed " + seed + " take at " + next);
                        }
                        assertEquals(model.size(), wheel.size(), "seed " + seed);
                    }
                    assertEquals(text(model), text(takeAll(wheel)), "the end of time takes the rest; seed " + seed);
                    assertEquals(0, wheel.size());
                }));
    }

    /**
     * The take at {@code Long.MAX_VALUE} (a final watermark) right after one just below it scans the slices in
     * between: a loop bounded by the last slice number, {@code Long.MAX_VALUE} itself with 1 ms slices, never ended.
     */
    @Test
    @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void theTakeAtTheEndOfTimeAfterOneJustBelowItEnds() {
        KeyDueWheel wheel = new KeyDueWheel(1, 64);
        wheel.add(Long.MAX_VALUE - 1, 7);
        wheel.add(Long.MAX_VALUE, 8);
        assertEquals(0, wheel.takeDue(Long.MAX_VALUE - 2));
        assertEquals(1, wheel.takeDue(Long.MAX_VALUE - 1));
        assertEquals(7, wheel.takenKey(0));
        assertEquals(1, wheel.takeDue(Long.MAX_VALUE));
        assertEquals(8, wheel.takenKey(0));
        assertEquals(0, wheel.size());
    }

    private static long saturatedAdd(long base, long ahead) {
        return base > Long.MAX_VALUE - ahead ? Long.MAX_VALUE : base + ahead;
    }

    private static List<long[]> takeAll(KeyDueWheel wheel) {
        int n = wheel.takeDue(Long.MAX_VALUE);
        List<long[]> got = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            got.add(new long[] {wheel.takenTime(i), wheel.takenKey(i)});
        }
        return got;
    }

    private static List<String> text(List<long[]> entries) {
        return entries.stream().sorted(TIME_THEN_KEY).map(e -> e[0] + "/" + e[1]).toList();
    }

    @Test
    void burstsComeOutWholeAndLeaveTheStructuresWorking() {
        KeyDueWheel wheel = new KeyDueWheel(4, 16);
        KeyDueHeap heap = new KeyDueHeap();
        for (int round = 0; round < 3; round++) {
            long base = round * 1_000L;
            for (int k = 0; k < 5_000; k++) {
                wheel.add(base + 1 + (k % 3), 5_000 - k); // three times, one bucket
            }
            int n = wheel.takeDue(base + 3);
            assertEquals(5_000, n);
            for (int i = 0; i < n; i++) {
                heap.push(wheel.takenTime(i), wheel.takenKey(i));
            }
            wheel.trimTaken();
            long lastTime = Long.MIN_VALUE;
            int lastKey = -1;
            for (int i = 0; i < n; i++) {
                long t = heap.peekTime();
                int k = heap.peekKey();
                boolean ordered = t > lastTime || (t == lastTime && k > lastKey);
                assertEquals(true, ordered, "entry " + i + " of round " + round + ": " + t + "/" + k);
                lastTime = t;
                lastKey = k;
                heap.pop();
            }
            heap.trim();
            assertEquals(0, heap.size());
            assertEquals(0, wheel.size());
        }
    }

    @Test
    void theWheelRefusesAnEntryItWouldNeverGiveOut() {
        KeyDueWheel wheel = new KeyDueWheel(16, 8);
        wheel.add(100, 1);
        assertEquals(1, wheel.takeDue(100));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> wheel.add(100, 2));
        assertEquals("entry at 100 is not after 100, where the entries were already taken", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new KeyDueWheel(0, 8));
    }
}
