package io.cepheus.runtime.internal.cep;

import com.carrotsearch.hppc.LongObjectHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The ways a condition index keeps under equalities on one numeric field ({@code value == 7}, {@code code in (1, 2)}),
 * looked up by an event's value once per event.
 *
 * <p>Design. When every value is a whole number and together they span few integers (at most {@link #MIN_SPAN}, or
 * {@link #SPAN_PER_VALUE} per value), the ways sit in an array indexed by the value less the smallest one: a lookup
 * is a bounds check and one load, and for the many events whose value no way names it ends at a null, which the
 * branch predictor soon expects. Otherwise they sit in a hash map keyed by the value ({@link #key}); a lookup then
 * costs a hash and a probe, and once the map holds a few values, probes run on over other values' slots, which the
 * processor mispredicts. On W5's stream (events' values 0-999), ten rules with one equality each
 * ({@code value == 0}, {@code 100} ... {@code 900}) cost about 14 ns more per event than one rule when looked up in
 * the map, and about the same as one rule in the array (see {@code benchmarks/results}).
 *
 * <p>Immutable once built; read by the shard's worker thread, which owns the index.
 */
final class NumberEqualities {

    /** The widest span of whole values an array always covers: 1,024 slots, 4 KB of references. */
    static final int MIN_SPAN = 1_024;
    /** With more values, the array may span this many slots per value. */
    static final int SPAN_PER_VALUE = 16;

    /** By key, when the values do not fit an array; null when they do. */
    private final LongObjectHashMap<int[]> hashed;
    /** By value less {@link #min}, when they fit; null when they do not. */
    private final int[][] byValue;
    private final long min;
    private final long max;

    /** Collects the ways under each value, then builds the lookup (while the index is rebuilt). */
    static final class Builder {
        private final Map<Long, Set<Integer>> byKey = new LinkedHashMap<>();
        private boolean wholeValues = true;

        /**
         * @param value  a value the way requires, not NaN
         * @param handle the way's version handle
         */
        void add(double value, int handle) {
            byKey.computeIfAbsent(key(value), k -> new LinkedHashSet<>()).add(handle);
            wholeValues &= (long) value == value;
        }

        NumberEqualities build() {
            Map<Long, int[]> ways = new LinkedHashMap<>();
            byKey.forEach((k, handles) -> ways.put(k, handles.stream().mapToInt(Integer::intValue).toArray()));
            return new NumberEqualities(ways, wholeValues);
        }
    }

    /**
     * @param ways        the ways under each value's {@link #key}
     * @param wholeValues whether every value is a whole number (then each key is its value)
     */
    private NumberEqualities(Map<Long, int[]> ways, boolean wholeValues) {
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (long k : ways.keySet()) {
            lo = Math.min(lo, k);
            hi = Math.max(hi, k);
        }
        long widest = Math.max(MIN_SPAN, (long) SPAN_PER_VALUE * ways.size());
        long gap = hi - lo; // negative when the keys are far apart enough to overflow: then they do not fit
        if (wholeValues && !ways.isEmpty() && gap >= 0 && gap < widest) {
            byValue = new int[(int) gap + 1][];
            for (Map.Entry<Long, int[]> e : ways.entrySet()) {
                byValue[(int) (e.getKey() - lo)] = e.getValue();
            }
            hashed = null;
            min = lo;
            max = hi;
        } else {
            hashed = new LongObjectHashMap<>(ways.size());
            for (Map.Entry<Long, int[]> e : ways.entrySet()) {
                hashed.put(e.getKey(), e.getValue());
            }
            byValue = null;
            min = 0;
            max = -1;
        }
    }

    /**
     * @param x an event's value, not NaN
     * @return the ways under {@code x}, or null if none
     */
    int[] get(double x) {
        if (byValue == null) {
            return hashed.get(key(x));
        }
        long whole = (long) x;
        return whole == x && whole >= min && whole <= max ? byValue[(int) (whole - min)] : null;
    }

    /** @return whether the ways sit in an array by value (for tests) */
    boolean byValue() {
        return byValue != null;
    }

    /**
     * @return the key of a number: a whole one as its long (the bits of a double such as 5.0 differ in their high bits
     *         only, which the hash spreads badly), another as its bits; -0.0 and 0.0 are one value
     */
    static long key(double x) {
        long whole = (long) x;
        return whole == x ? whole : Double.doubleToLongBits(x);
    }
}
