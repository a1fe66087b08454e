package io.cepheus.runtime.internal.cep;

import io.cepheus.pattern.Condition;
import io.cepheus.pattern.FieldRequirement;
import io.cepheus.pattern.IndexableCondition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Whether an event may meet one of a rule version's ways (to begin a partial match, or to change a waiting one),
 * judged from the fields {@link EventFields} read: a way passes unless a requirement of one of its conditions fails
 * on a value that was read. The version's matcher stays the judge of every event that passes.
 *
 * <p>The checks of every version live in two flat arrays, one entry per version and kind of way, so that checking the
 * few versions an event concerns reads a few neighbouring ints and doubles, not a chain of small objects per version
 * (with a thousand rules those misses cost more than the checks). An entry is: the number of ways ({@link #ALWAYS}:
 * one needs nothing), then per way the number of checks and per check {@code kind, field slot, data index, count};
 * numbers sit in {@code data} (a range's bounds, or the sorted values), string sets in {@code texts}.
 *
 * <p>Built with the index and read by the shard's worker thread.
 */
final class WayChecks {

    /** An entry whose ways need nothing: every event passes. */
    static final int ALWAYS = -1;

    private static final int RANGE = 0;
    private static final int ONE_OF = 1;
    private static final int TEXT = 2;

    private int[] code = new int[64];
    private int codeSize;
    private double[] data = new double[64];
    private int dataSize;
    private final List<Set<String>> texts = new ArrayList<>();

    /** Forgets every entry (before the index is rebuilt). */
    void clear() {
        codeSize = 0;
        dataSize = 0;
        texts.clear();
    }

    /**
     * @param ways   the ways, each as conditions that must all hold
     * @param fields where the requirements' fields are registered
     * @param <T>    the event type
     * @return the entry of the ways
     */
    <T> int add(List<List<Condition<T>>> ways, EventFields<T> fields) {
        for (List<Condition<T>> way : ways) {
            if (requirements(way).isEmpty()) {
                return emit(ALWAYS);
            }
        }
        int entry = emit(ways.size());
        for (List<Condition<T>> way : ways) {
            List<FieldRequirement<T>> rs = requirements(way);
            emit(rs.size());
            for (FieldRequirement<T> r : rs) {
                int slot = fields.slotOf(r);
                switch (r.kind()) {
                    case NUMBER_BETWEEN -> {
                        emit(RANGE);
                        emit(slot);
                        emit(store(r.min(), r.max()));
                        emit(2);
                    }
                    case NUMBER_ONE_OF -> {
                        double[] values = r.numbers();
                        for (int i = 0; i < values.length; i++) {
                            values[i] += 0.0; // -0.0 and 0.0 are one value
                        }
                        Arrays.sort(values);
                        emit(ONE_OF);
                        emit(slot);
                        emit(store(values));
                        emit(values.length);
                    }
                    case TEXT_ONE_OF -> {
                        texts.add(Set.copyOf(r.texts()));
                        emit(TEXT);
                        emit(slot);
                        emit(texts.size() - 1);
                        emit(0);
                    }
                }
            }
        }
        return entry;
    }

    /** @return the requirements the conditions of a way state */
    static <T> List<FieldRequirement<T>> requirements(List<Condition<T>> way) {
        List<FieldRequirement<T>> rs = new ArrayList<>();
        for (Condition<T> c : way) {
            if (c instanceof IndexableCondition<T> ic) {
                rs.addAll(ic.requirements());
            }
        }
        return rs;
    }

    /** @return whether the event whose fields were read last may meet one of the ways of {@code entry} */
    boolean anyPasses(int entry, EventFields<?> fields) {
        int[] c = code;
        int ways = c[entry];
        if (ways == ALWAYS) {
            return true;
        }
        double[] numbers = fields.numbers();
        int at = entry + 1;
        for (int w = 0; w < ways; w++) {
            int end = at + 1 + 4 * c[at];
            at++;
            boolean all = true;
            // one loop with the common checks written out: called for every version an event may concern
            for (; at < end; at += 4) {
                int kind = c[at];
                if (kind == TEXT) {
                    String s = fields.text(c[at + 1]);
                    if (s != null && !texts.get(c[at + 2]).contains(s)) {
                        all = false;
                        break;
                    }
                    continue;
                }
                double x = numbers[c[at + 1]];
                if (x != x) {
                    continue; // a value the reader could not place passes: the condition will tell
                }
                int d = c[at + 2];
                boolean pass = kind == RANGE ? x >= data[d] && x <= data[d + 1]
                        : c[at + 3] == 1 ? data[d] == x + 0.0 : oneOf(x + 0.0, d, c[at + 3]);
                if (!pass) {
                    all = false;
                    break;
                }
            }
            if (all) {
                return true;
            }
            at = end;
        }
        return false;
    }

    private boolean oneOf(double x, int d, int count) {
        double[] v = data;
        if (count <= 8) {
            for (int i = d; i < d + count; i++) {
                if (v[i] == x) {
                    return true;
                }
            }
            return false;
        }
        return Arrays.binarySearch(v, d, d + count, x) >= 0;
    }

    private int emit(int value) {
        if (codeSize == code.length) {
            code = Arrays.copyOf(code, codeSize * 2);
        }
        code[codeSize] = value;
        return codeSize++;
    }

    private int store(double... values) {
        if (dataSize + values.length > data.length) {
            data = Arrays.copyOf(data, Math.max(data.length * 2, dataSize + values.length));
        }
        System.arraycopy(values, 0, data, dataSize, values.length);
        int at = dataSize;
        dataSize += values.length;
        return at;
    }
}
