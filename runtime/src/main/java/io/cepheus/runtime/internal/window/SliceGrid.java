package io.cepheus.runtime.internal.window;

import java.math.BigInteger;
import io.cepheus.runtime.window.SlidingEventTimeWindows;
import io.cepheus.runtime.window.TumblingEventTimeWindows;
import io.cepheus.runtime.window.WindowAssigner;

/**
 * The window arithmetic of {@link SliceWindowOperator}: time cut into slices of length {@code g = gcd(size, slide)}
 * aligned with the windows, so that every window is {@code size / g} consecutive slices. Slice numbers and window
 * ends are relative to the assigner's offset (slice {@code k} covers {@code [k * g, (k + 1) * g)}, the window
 * ending at {@code end} covers {@code [end - size, end)}); cleanup times are absolute.
 *
 * <p>Every function works over the whole long range: near {@code Long.MIN_VALUE} it avoids the overflowing
 * subtraction, and elements before {@link #minTimestamp} or after {@link #maxTimestamp} are refused by the operator,
 * so nothing overflows between them.
 *
 * <p>The hot functions divide (a long division costs tens of cycles), so they remember their last answers: in
 * order, consecutive elements fall in one slice and share their first window, and the keys firing at one time
 * share their window and its slices, so most calls would work out a recent answer again. Those memories make this
 * object mutable: owned by the shard thread, like its operator.
 */
final class SliceGrid {

    private static final long NONE = Long.MIN_VALUE;

    final long size;
    final long slide;
    final long offset;
    final long g;
    final long slicesPerWindow;
    final long lateness;
    /**
     * Elements before this time are refused (as dead letters): their slice, or the first window holding it, would
     * start before {@code Long.MIN_VALUE} (Flink computes wrapped windows there). From it on, the window
     * arithmetic cannot overflow downwards.
     */
    final long minTimestamp;
    /**
     * Elements after this time are refused (as dead letters): the last window holding them would end at or after
     * {@code Long.MAX_VALUE}, in absolute time or relative to the offset (Flink's window arithmetic wraps there; the
     * general operator refuses an element whose window wraps too, as assigned an empty window). Up to it, the window
     * arithmetic cannot overflow upwards, and no window ends at {@code Long.MAX_VALUE}, which the arithmetic uses to
     * say "no window".
     */
    final long maxTimestamp;
    /** The largest {@code j} whose window start {@code j * slide} (relative) is a long. */
    private final long maxWindowIndex;

    /**
     * @param assigner tumbling or sliding event-time windows
     * @param lateness the allowed lateness, {@code >= 0}
     * @return the grid of those windows
     */
    static SliceGrid of(WindowAssigner<?> assigner, long lateness) {
        if (assigner instanceof TumblingEventTimeWindows<?> t) {
            return new SliceGrid(t.size(), t.size(), t.offset(), lateness);
        }
        SlidingEventTimeWindows<?> s = (SlidingEventTimeWindows<?>) assigner;
        return new SliceGrid(s.size(), s.slide(), s.offset(), lateness);
    }

    SliceGrid(long size, long slide, long offset, long lateness) {
        this.size = size;
        this.slide = slide;
        this.offset = offset;
        this.g = gcd(size, slide);
        this.slicesPerWindow = size / g;
        this.lateness = lateness;
        this.minTimestamp = minTimestamp(size, g, offset);
        this.maxTimestamp = maxTimestamp(size, slide, offset);
        this.maxWindowIndex = Long.MAX_VALUE / slide;
        // the memories start out holding a true answer each
        endMemoMin = NONE;
        endMemo = firstWindowEndOf(0, NONE);
        firstSliceMemo = Math.floorDiv(-size, g);
        cleanupMemo = cleanupOfSlice(0);
        cleanupMemo2 = cleanupMemo;
    }

    /**
     * @return the earliest element time whose slice start {@code s} (relative, a multiple of {@code g}) leaves the
     *         first window holding it a start of at least {@code Long.MIN_VALUE}: that start is at least
     *         {@code s - size + g}, so {@code s >= Long.MIN_VALUE + size - g} suffices
     */
    static long minTimestamp(long size, long g, long offset) {
        long x = Long.MIN_VALUE + (size - g);
        long r = Math.floorMod(x, g);
        long firstSliceStart = r == 0 ? x : x + (g - r);
        long t = firstSliceStart + offset;
        return offset < 0 && t > firstSliceStart ? Long.MIN_VALUE : t; // wrapped: every time is late enough
    }

    /**
     * @return the latest element time whose last window ends before {@code Long.MAX_VALUE} both relative to the
     *         offset and absolute: that window starts at {@code j * slide} (relative) with
     *         {@code j = floor((t - offset) / slide)}, so {@code j * slide + size <= MAX - 1 - max(offset, 0)} bounds
     *         {@code j}, and every time before the next start is taken, as far as the relative time is a long
     *         (worked out exactly, once per operator)
     */
    static long maxTimestamp(long size, long slide, long offset) {
        BigInteger limit = BigInteger.valueOf(Long.MAX_VALUE - 1).subtract(BigInteger.valueOf(Math.max(offset, 0)))
                .subtract(BigInteger.valueOf(size));
        BigInteger[] qr = limit.divideAndRemainder(BigInteger.valueOf(slide));
        BigInteger lastStart = (qr[1].signum() < 0 ? qr[0].subtract(BigInteger.ONE) : qr[0])
                .multiply(BigInteger.valueOf(slide));
        // relative times stay longs too (after the last window, a gap may reach past Long.MAX_VALUE)
        BigInteger relative = lastStart.add(BigInteger.valueOf(slide - 1)).min(BigInteger.valueOf(Long.MAX_VALUE));
        BigInteger t = relative.add(BigInteger.valueOf(offset));
        return t.min(BigInteger.valueOf(Long.MAX_VALUE)).max(BigInteger.valueOf(Long.MIN_VALUE)).longValueExact();
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }


    /** {@link #sliceOf}: the relative times {@code [sliceMemoFrom, sliceMemoTo)} are slice {@code sliceMemo}. */
    private long sliceMemoFrom;
    private long sliceMemoTo;
    private long sliceMemo;
    /** {@link #firstWindowEnd}'s last arguments and answer (seeded by the constructor, as the others). */
    private long endMemoSlice;
    private long endMemoMin;
    private long endMemo;
    /** {@link #firstSlice}'s last argument and answer. */
    private long firstSliceMemoEnd;
    private long firstSliceMemo;
    /** {@link #cleanupOf}'s last two arguments and answers (a firing asks for its first slice, then the next). */
    private long cleanupMemoSlice;
    private long cleanupMemo;
    private long cleanupMemoSlice2;
    private long cleanupMemo2;

    /** @return the end of the first window ending at or after {@code minEnd} that holds slice {@code k}, or NONE */
    long firstWindowEnd(long k, long minEnd) {
        if (k != endMemoSlice || minEnd != endMemoMin) {
            endMemo = firstWindowEndOf(k, minEnd);
            endMemoSlice = k;
            endMemoMin = minEnd;
        }
        return endMemo;
    }

    private long firstWindowEndOf(long k, long minEnd) {
        long sliceStart = k * g;
        long j = floorOfMinusSize(sliceStart) + 1;
        if (minEnd != NONE) {
            j = Math.max(j, ceilOfMinusSize(minEnd));
        }
        if (j > maxWindowIndex) {
            return NONE; // it would start past Long.MAX_VALUE (a slice in the gap after the last window)
        }
        return j * slide <= sliceStart ? j * slide + size : NONE;
    }

    /** @return floor((x - size) / slide), also where {@code x - size} would overflow (x near Long.MIN_VALUE) */
    private long floorOfMinusSize(long x) {
        return x >= Long.MIN_VALUE + size ? Math.floorDiv(x - size, slide)
                : Math.floorDiv(x, slide) + Math.floorDiv(Math.floorMod(x, slide) - size, slide);
    }

    /**
     * @return ceil((x - size) / slide), also where {@code x - size} would overflow (x near Long.MIN_VALUE); where the
     *         quotient itself is below Long.MIN_VALUE, Long.MIN_VALUE (it is a lower bound on a window index, and no
     *         window index is below that)
     */
    private long ceilOfMinusSize(long x) {
        if (x > Long.MIN_VALUE + size) {
            return -Math.floorDiv(size - x, slide);
        }
        long q = Math.floorDiv(x, slide);
        long down = Math.floorDiv(size - Math.floorMod(x, slide), slide); // >= 0
        return q >= Long.MIN_VALUE + down ? q - down : Long.MIN_VALUE;
    }

    /** @return the end of the last window holding slice {@code k} */
    long lastWindowEnd(long k) {
        return Math.floorDiv(k * g, slide) * slide + size;
    }

    /** @return the smallest window end (relative) that has not fired at the current watermark */
    long openEnd(long watermark) {
        return watermark == Long.MIN_VALUE ? NONE : firstEndAfter(watermark);
    }

    /**
     * @return the smallest window end (relative) whose window's max timestamp is after {@code t}: NONE if every
     *         representable one is (the relative time underflows), Long.MAX_VALUE if none is
     */
    private long firstEndAfter(long t) {
        if (t > Long.MAX_VALUE - 2) {
            return Long.MAX_VALUE; // the end would pass Long.MAX_VALUE: no window ends there
        }
        long end = t + 2; // absolute: max timestamp end - 1 > t
        long relative = end - offset;
        if (offset < 0 && relative < end) {
            return Long.MAX_VALUE; // overflowed upwards: past every window's relative end
        }
        return offset > 0 && relative > end ? NONE : relative;
    }

    /**
     * @return the smallest window end (relative) not past cleanup at the current watermark, NONE if every window
     *         is alive, Long.MAX_VALUE if none is
     */
    long aliveEnd(long watermark) {
        if (lateness == 0) {
            return openEnd(watermark);
        }
        if (watermark == Long.MIN_VALUE) {
            return NONE;
        }
        long w = watermark - lateness;
        if (w > watermark) {
            return NONE; // before any window's cleanup
        }
        return firstEndAfter(w); // alive: maxTimestamp + lateness > watermark
    }

    /** @return the absolute time at which every window holding slice {@code k} is past cleanup */
    long cleanupOf(long k) {
        if (k == cleanupMemoSlice) {
            return cleanupMemo;
        }
        if (k == cleanupMemoSlice2) {
            return cleanupMemo2;
        }
        cleanupMemoSlice2 = cleanupMemoSlice;
        cleanupMemo2 = cleanupMemo;
        cleanupMemoSlice = k;
        cleanupMemo = cleanupOfSlice(k);
        return cleanupMemo;
    }

    private long cleanupOfSlice(long k) {
        long t = lastWindowEnd(k) + offset - 1;
        long c = t + lateness;
        return c >= t ? c : Long.MAX_VALUE;
    }

    /** @return the slice holding {@code timestamp} */
    long sliceOf(long timestamp) {
        long rel = timestamp - offset;
        if (rel >= sliceMemoFrom && rel < sliceMemoTo) {
            return sliceMemo;
        }
        long k = Math.floorDiv(rel, g);
        long from = rel - Math.floorMod(rel, g);
        if (from <= rel) { // else k * g is below Long.MIN_VALUE: not remembered
            long to = from + g;
            sliceMemoFrom = from;
            sliceMemoTo = to > from ? to : Long.MAX_VALUE; // the slice's last times stay unremembered
            sliceMemo = k;
        }
        return k;
    }

    /** @return the first slice of the window ending at {@code end} (relative) */
    long firstSlice(long end) {
        if (end != firstSliceMemoEnd) {
            firstSliceMemo = Math.floorDiv(end - size, g);
            firstSliceMemoEnd = end;
        }
        return firstSliceMemo;
    }
}
