package io.cepheus.runtime.internal.window;

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
 * subtraction, and elements before {@link #minTimestamp} are refused by the operator, so nothing overflows
 * downwards from there on.
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
        return j * slide <= sliceStart ? j * slide + size : NONE;
    }

    /** @return floor((x - size) / slide), also where {@code x - size} would overflow (x near Long.MIN_VALUE) */
    private long floorOfMinusSize(long x) {
        return x >= Long.MIN_VALUE + size ? Math.floorDiv(x - size, slide)
                : Math.floorDiv(x, slide) + Math.floorDiv(Math.floorMod(x, slide) - size, slide);
    }

    /** @return ceil((x - size) / slide), also where {@code x - size} would overflow (x near Long.MIN_VALUE) */
    private long ceilOfMinusSize(long x) {
        return x > Long.MIN_VALUE + size ? -Math.floorDiv(size - x, slide)
                : Math.floorDiv(x, slide) - Math.floorDiv(size - Math.floorMod(x, slide), slide);
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
        if (t >= Long.MAX_VALUE - 2 - Math.abs(offset)) {
            return Long.MAX_VALUE;
        }
        long end = t + 2; // absolute: max timestamp end - 1 > t
        long relative = end - offset;
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
