package io.cepheus.runtime.internal.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.cepheus.nfa.testing.PropertySeeds;
import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link SliceGrid}'s window arithmetic against its definitions, worked out by enumerating windows in exact
 * (BigInteger) arithmetic: windows end at {@code j * slide + size} (relative to the offset) and hold the slices of
 * length {@code gcd(size, slide)} they cover. Each case asks one grid many questions in a random order, with
 * repeats and near-repeats, so an answer the grid remembers for the wrong arguments shows. Window shapes include
 * tumbling, slides that do not divide the size, gaps (slide above size), offsets of both signs, and times near
 * {@link SliceGrid#minTimestamp} and towards {@code Long.MAX_VALUE}.
 */
class SliceGridTest {

    private static final long SEED = PropertySeeds.seed(0x5_11CE_6B1DL);
    private static final long NONE = Long.MIN_VALUE;
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    @Test
    void everyAnswerIsTheOneItsDefinitionGives() {
        PropertySeeds.reportingSeed(SEED, "runtime", "SliceGridTest", () ->
                qt().withFixedSeed(SEED).withExamples(2000).forAll(longs().all())
                        .checkAssert(SliceGridTest::check));
    }

    @Test
    void aSlidingGridOfTenMinutesByTenSeconds() {
        SliceGrid grid = new SliceGrid(600_000, 10_000, 0, 0);
        assertEquals(10_000, grid.g);
        assertEquals(60, grid.slicesPerWindow);
        assertEquals(12, grid.sliceOf(125_000));
        assertEquals(130_000, grid.firstWindowEnd(12, NONE)); // [-470 s, 130 s) is the first window holding it
        assertEquals(720_000, grid.lastWindowEnd(12));
        assertEquals(719_999, grid.cleanupOf(12));
        assertEquals(-47, grid.firstSlice(130_000));
    }

    private static void check(long caseSeed) {
        Random r = new Random(caseSeed);
        long size = 1 + r.nextInt(r.nextBoolean() ? 12 : 100_000);
        long slide = switch (r.nextInt(4)) {
            case 0 -> size; // tumbling
            case 1 -> 1 + r.nextInt((int) size); // at most the size
            case 2 -> size + 1 + r.nextInt(20); // gaps between windows
            default -> Math.max(1, size / (1 + r.nextInt(6)));
        };
        long offset = r.nextBoolean() ? 0 : r.nextLong() % slide;
        long lateness = switch (r.nextInt(4)) {
            case 0, 1 -> 0;
            case 2 -> r.nextInt(r.nextBoolean() ? 30 : 1_000_000);
            default -> Long.MAX_VALUE - r.nextInt(1_000_000_000); // cleanup times saturate
        };
        SliceGrid grid = new SliceGrid(size, slide, offset, lateness);
        String shape = "size=" + size + " slide=" + slide + " offset=" + offset + " lateness=" + lateness;
        assertEquals(maxTimestamp(size, slide, offset), grid.maxTimestamp, "maxTimestamp " + shape);
        long base = switch (r.nextInt(4)) {
            case 0 -> 0;
            case 1 -> grid.minTimestamp + r.nextInt(1000);
            case 2 -> r.nextBoolean() ? Long.MAX_VALUE / 2 - r.nextInt(1_000_000)
                    : grid.maxTimestamp - r.nextInt(r.nextBoolean() ? (int) size + 1 : 1_000_000_000);
            default -> r.nextLong() / 4;
        };
        long t = base;
        for (int q = 0; q < 200; q++) {
            // mostly nearby times (what the memories serve), now and then a jump
            long step = r.nextInt(8) == 0 ? r.nextInt(1_000_000_000) : r.nextInt(3) * r.nextInt((int) size + 2);
            long from = step == 0 || r.nextInt(8) != 0 ? t : base;
            t = from > Long.MAX_VALUE - step ? base : from + step;
            if (t < grid.minTimestamp || t > grid.maxTimestamp) {
                continue;
            }
            String at = shape + " t=" + t;
            long k = grid.sliceOf(t);
            assertEquals(sliceOf(t, offset, grid.g), k, "sliceOf " + at);
            BigInteger[] ends = endsHolding(k, grid);
            BigInteger near = big(k).multiply(big(grid.g)).add(big(r.nextInt((int) (2 * size + slide)) - size));
            long minEnd = r.nextInt(3) == 0 || !fits(near) ? NONE : near.longValueExact();
            assertEquals(firstWindowEnd(k, minEnd, grid), grid.firstWindowEnd(k, minEnd),
                    "firstWindowEnd(" + k + ", " + minEnd + ") " + at);
            if (ends.length > 0) { // the operator asks these only of slices in some window
                assertEquals(lastWindowEnd(k, grid), grid.lastWindowEnd(k), "lastWindowEnd(" + k + ") " + at);
                assertEquals(cleanupOf(k, grid), grid.cleanupOf(k), "cleanupOf(" + k + ") " + at);
                BigInteger end = big(grid.lastWindowEnd(k)).subtract(big(slide * r.nextInt(3)));
                if (fits(end.subtract(big(size)))) {
                    assertEquals(floorDiv(end.subtract(big(size)), grid.g), big(grid.firstSlice(end.longValueExact())),
                            "firstSlice(" + end + ") " + at);
                }
            }
            long back = r.nextInt((int) size + 1);
            long watermark = t >= Long.MIN_VALUE + back ? t - back : t;
            long open = grid.openEnd(watermark);
            assertEquals(firstEndWhere(k, grid, watermark, 0), open == Long.MAX_VALUE ? NONE
                    : grid.firstWindowEnd(k, open), "first open window of slice " + k + " at watermark " + watermark
                    + " " + at);
            long alive = grid.aliveEnd(watermark);
            assertEquals(firstEndWhere(k, grid, watermark, lateness), alive == Long.MAX_VALUE ? NONE
                    : grid.firstWindowEnd(k, alive), "first live window of slice " + k + " at watermark "
                    + watermark + " " + at);
        }
    }

    /**
     * The latest time whose last window ends before Long.MAX_VALUE relative to the offset and absolute, found by
     * stepping back from Long.MAX_VALUE window start by window start (starts are {@code offset} modulo the slide).
     */
    private static long maxTimestamp(long size, long slide, long offset) {
        BigInteger max = big(Long.MAX_VALUE);
        BigInteger start = max.subtract(max.subtract(big(offset)).mod(big(slide))); // the last start <= MAX
        while (start.subtract(big(offset)).add(big(size)).compareTo(max) >= 0 || start.add(big(size)).compareTo(max) >= 0) {
            start = start.subtract(big(slide));
        }
        // every time before the next start has this last window, or is in the gap after it, as long as the time
        // relative to the offset is a long
        BigInteger last = start.add(big(slide)).subtract(BigInteger.ONE).min(max.add(big(offset)));
        return last.min(max).longValueExact();
    }

    private static long sliceOf(long t, long offset, long g) {
        return floorDiv(big(t).subtract(big(offset)), g).longValueExact();
    }

    /** The window ends (relative) of slice {@code k}, first to last: {@code j * slide + size} with
     *  {@code j * slide <= k * g < j * slide + size}. */
    private static BigInteger[] endsHolding(long k, SliceGrid grid) {
        BigInteger start = big(k).multiply(big(grid.g));
        BigInteger last = floorDiv(start, grid.slide); // the last j with j * slide <= start
        BigInteger first = floorDiv(start.subtract(big(grid.size)), grid.slide).add(BigInteger.ONE);
        int n = Math.max(0, last.subtract(first).intValueExact() + 1);
        BigInteger[] ends = new BigInteger[n];
        for (int i = 0; i < n; i++) {
            ends[i] = first.add(BigInteger.valueOf(i)).multiply(big(grid.slide)).add(big(grid.size));
        }
        return ends;
    }

    private static long firstWindowEnd(long k, long minEnd, SliceGrid grid) {
        for (BigInteger end : endsHolding(k, grid)) {
            if (minEnd == NONE || end.compareTo(big(minEnd)) >= 0) {
                return end.longValueExact();
            }
        }
        return NONE;
    }

    /** The first window of slice {@code k} whose {@code maxTimestamp + lateness} (absolute) is after the watermark. */
    private static long firstEndWhere(long k, SliceGrid grid, long watermark, long lateness) {
        for (BigInteger end : endsHolding(k, grid)) {
            BigInteger maxTimestamp = end.add(big(grid.offset)).subtract(BigInteger.ONE);
            if (maxTimestamp.add(big(lateness)).compareTo(big(watermark)) > 0) {
                return end.longValueExact();
            }
        }
        return NONE;
    }

    private static long lastWindowEnd(long k, SliceGrid grid) {
        BigInteger[] ends = endsHolding(k, grid);
        return ends[ends.length - 1].longValueExact();
    }

    private static long cleanupOf(long k, SliceGrid grid) {
        BigInteger c = big(lastWindowEnd(k, grid)).add(big(grid.offset)).subtract(BigInteger.ONE)
                .add(big(grid.lateness));
        return c.min(LONG_MAX).longValueExact();
    }

    private static BigInteger floorDiv(BigInteger a, long b) {
        BigInteger[] qr = a.divideAndRemainder(big(b));
        return qr[1].signum() < 0 ? qr[0].subtract(BigInteger.ONE) : qr[0];
    }

    private static boolean fits(BigInteger x) {
        return x.bitLength() < 64;
    }

    private static BigInteger big(long x) {
        return BigInteger.valueOf(x);
    }
}
