package io.cepheus.runtime.internal.cep;

import com.carrotsearch.hppc.LongObjectHashMap;
import io.cepheus.pattern.Condition;
import io.cepheus.pattern.FieldRequirement;
import io.cepheus.pattern.IndexableCondition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Which versions of a rule set an event may begin a partial match of: a filter index over the conditions the
 * versions begin with, the idea behind Esper's filter indexes (statements' event filters indexed by field, equality
 * by hash, ranges by sorted bounds), so that an event costs the rules it can start, not every rule.
 *
 * <p>Design. Each version names the ways it can begin ({@code CompiledPattern#startConditions}), each with conditions
 * that must all hold; an {@link IndexableCondition} among them states requirements on fields ({@code value == 7},
 * {@code amount >= 100}, {@code country in ('DE', 'FR')}). Every way is indexed under one of its requirements, the
 * one that lets the fewest events through as far as the index can tell: an equality whose (field, value) fewest ways
 * share, else a range. Per field the index keeps a hash of values (equalities, {@code in}-lists) and the ranges sorted
 * by lower bound; per event it reads each field once, whatever the number of rules naming it, looks the value up and
 * walks the ranges up to the value. A way without a requirement is looked at for every event. The index only ever
 * lets too many through: the version's matcher still evaluates its conditions, so an event the index lets through
 * that meets none of them begins nothing, and one that fails a requirement would have failed the condition.
 *
 * <p>A field read that throws (a getter's own exception, a map rule given another event) stops the lookup: the caller
 * then hands the event to every version, whose conditions report the failure as they would without the index.
 *
 * <p>Versions come and go with rule changes; the index is rebuilt, at the next event, from the versions then
 * present (a few milliseconds for a thousand rules).
 *
 * <p>Owned by the shard's worker thread, like the rule set's buffer that holds it.
 *
 * @param <T> the event type
 */
final class StartIndex<T> {

    private static final int[] NO_HANDLES = new int[0];

    /** The ways each version (by handle) begins; null for a handle not in use. */
    private final Map<Integer, List<List<Condition<T>>>> waysOf = new LinkedHashMap<>();
    private boolean stale = true;

    // built by rebuild()
    private int[] always = NO_HANDLES;
    private NumberField<T>[] numberFields;
    private TextField<T>[] textFields;

    // what collect() found
    private int[] found = new int[16];

    /** A version joined (or rejoined) under {@code handle}. */
    void put(int handle, List<List<Condition<T>>> ways) {
        waysOf.put(handle, ways);
        stale = true;
    }

    /** The version under {@code handle} left. */
    void remove(int handle) {
        waysOf.remove(handle);
        stale = true;
    }

    /**
     * Finds the versions {@code event} may begin a partial match of, as handles in {@link #found()} (a handle may
     * appear more than once).
     *
     * @return how many were found, or -1 if reading a field threw: then any version may need the event
     */
    int collect(T event) {
        if (stale) {
            rebuild();
        }
        int n = 0;
        n = append(always, n);
        try {
            for (NumberField<T> f : numberFields) {
                double x = f.reader.applyAsDouble(event);
                if (x != x) {
                    n = append(f.all, n); // a value the field's reader cannot place: every way on the field
                    continue;
                }
                int[] equal = f.equal.get(Double.doubleToLongBits(x + 0.0)); // + 0.0: -0.0 and 0.0 are one value
                if (equal != null) {
                    n = append(equal, n);
                }
                double[] mins = f.rangeMin;
                double[] maxs = f.rangeMax;
                for (int i = 0; i < mins.length && mins[i] <= x; i++) {
                    if (x <= maxs[i]) {
                        if (n == found.length) {
                            found = Arrays.copyOf(found, n * 2);
                        }
                        found[n++] = f.rangeHandle[i];
                    }
                }
            }
            for (TextField<T> f : textFields) {
                String s = f.reader.apply(event);
                int[] equal = s == null ? f.all : f.equal.get(s);
                if (equal != null) {
                    n = append(equal, n);
                }
            }
        } catch (RuntimeException e) {
            return -1;
        }
        return n;
    }

    /** @return the handles {@link #collect} found */
    int[] found() {
        return found;
    }

    private int append(int[] handles, int n) {
        if (n + handles.length > found.length) {
            found = Arrays.copyOf(found, Math.max(found.length * 2, n + handles.length));
        }
        System.arraycopy(handles, 0, found, n, handles.length);
        return n + handles.length;
    }

    // ------------------------------------------------------------------ building

    /** Tests: @return how many ways are looked at for every event */
    int unindexedWays() {
        if (stale) {
            rebuild();
        }
        return always.length;
    }

    @SuppressWarnings("unchecked")
    private void rebuild() {
        // what each way requires, and how many ways share each (field, value) and each field's ranges
        Map<Object, Integer> shared = new HashMap<>();
        List<Integer> handles = new ArrayList<>();
        List<List<FieldRequirement<T>>> required = new ArrayList<>();
        for (Map.Entry<Integer, List<List<Condition<T>>>> e : waysOf.entrySet()) {
            for (List<Condition<T>> way : e.getValue()) {
                List<FieldRequirement<T>> rs = new ArrayList<>();
                for (Condition<T> c : way) {
                    if (c instanceof IndexableCondition<T> ic) {
                        rs.addAll(ic.requirements());
                    }
                }
                handles.add(e.getKey());
                required.add(rs);
                for (FieldRequirement<T> r : rs) {
                    for (Object k : shareKeys(r)) {
                        shared.merge(k, 1, Integer::sum);
                    }
                }
            }
        }
        Set<Integer> unindexed = new LinkedHashSet<>();
        Map<String, NumberFieldBuilder<T>> numbers = new LinkedHashMap<>();
        Map<String, TextFieldBuilder<T>> texts = new LinkedHashMap<>();
        for (int w = 0; w < required.size(); w++) {
            FieldRequirement<T> best = null;
            double bestCost = Double.MAX_VALUE;
            for (FieldRequirement<T> r : required.get(w)) {
                double cost = cost(r, shared);
                if (cost < bestCost) {
                    best = r;
                    bestCost = cost;
                }
            }
            int handle = handles.get(w);
            if (best == null) {
                unindexed.add(handle);
                continue;
            }
            FieldRequirement<T> chosen = best;
            if (chosen.kind() == FieldRequirement.Kind.TEXT_ONE_OF) {
                texts.computeIfAbsent(chosen.field(), k -> new TextFieldBuilder<>(chosen.textReader()))
                        .add(chosen, handle);
            } else {
                numbers.computeIfAbsent(chosen.field(), k -> new NumberFieldBuilder<>(chosen.numberReader()))
                        .add(chosen, handle);
            }
        }
        always = toArray(unindexed);
        numberFields = numbers.values().stream().map(NumberFieldBuilder::build).toArray(NumberField[]::new);
        textFields = texts.values().stream().map(TextFieldBuilder::build).toArray(TextField[]::new);
        stale = false;
    }

    /** @return the keys under which {@link #rebuild} counts how many ways share what a requirement lets through */
    private static List<Object> shareKeys(FieldRequirement<?> r) {
        List<Object> keys = new ArrayList<>();
        switch (r.kind()) {
            case NUMBER_ONE_OF -> {
                for (double v : r.numbers()) {
                    keys.add(List.of("n", r.field(), v + 0.0));
                }
            }
            case TEXT_ONE_OF -> {
                for (String s : r.texts()) {
                    keys.add(List.of("t", r.field(), s));
                }
            }
            case NUMBER_BETWEEN -> keys.add(List.of("r", r.field()));
        }
        return keys;
    }

    /**
     * @return how many ways an event meeting {@code r} would reach, as far as the counts tell: an equality reaches
     *         the ways sharing its values; a range is taken to reach half the ranges on its field, and loses ties
     */
    private static double cost(FieldRequirement<?> r, Map<Object, Integer> shared) {
        double cost = 0;
        for (Object k : shareKeys(r)) {
            int n = shared.getOrDefault(k, 0);
            cost += r.kind() == FieldRequirement.Kind.NUMBER_BETWEEN ? Math.max(1, n / 2.0) + 0.5 : n;
        }
        return cost;
    }

    private static int[] toArray(java.util.Collection<Integer> list) {
        int[] out = new int[list.size()];
        int i = 0;
        for (int h : list) {
            out[i++] = h;
        }
        return out;
    }

    /** A numeric field: its reader, the ways under each value, and the ranges by lower bound. */
    private record NumberField<T>(ToDoubleFunction<? super T> reader, LongObjectHashMap<int[]> equal,
            double[] rangeMin, double[] rangeMax, int[] rangeHandle, int[] all) {
    }

    /** A text field: its reader and the ways under each value. */
    private record TextField<T>(Function<? super T, String> reader, Map<String, int[]> equal, int[] all) {
    }

    private static final class NumberFieldBuilder<T> {
        final ToDoubleFunction<? super T> reader;
        final Map<Long, List<Integer>> equal = new LinkedHashMap<>();
        final List<double[]> ranges = new ArrayList<>(); // {min, max, handle}
        final Set<Integer> all = new LinkedHashSet<>();

        NumberFieldBuilder(ToDoubleFunction<? super T> reader) {
            this.reader = reader;
        }

        void add(FieldRequirement<T> r, int handle) {
            all.add(handle);
            if (r.kind() == FieldRequirement.Kind.NUMBER_BETWEEN) {
                ranges.add(new double[] {r.min(), r.max(), handle});
                return;
            }
            for (double v : r.numbers()) {
                if (v == v) { // NaN equals nothing
                    List<Integer> hs = equal.computeIfAbsent(Double.doubleToLongBits(v + 0.0), k -> new ArrayList<>());
                    if (!hs.contains(handle)) {
                        hs.add(handle);
                    }
                }
            }
        }

        NumberField<T> build() {
            LongObjectHashMap<int[]> map = new LongObjectHashMap<>();
            for (Map.Entry<Long, List<Integer>> e : equal.entrySet()) {
                map.put(e.getKey(), toArray(e.getValue()));
            }
            ranges.sort((a, b) -> Double.compare(a[0], b[0]));
            double[] mins = new double[ranges.size()];
            double[] maxs = new double[ranges.size()];
            int[] hs = new int[ranges.size()];
            for (int i = 0; i < hs.length; i++) {
                mins[i] = ranges.get(i)[0];
                maxs[i] = ranges.get(i)[1];
                hs[i] = (int) ranges.get(i)[2];
            }
            return new NumberField<>(reader, map, mins, maxs, hs, toArray(all));
        }
    }

    private static final class TextFieldBuilder<T> {
        final Function<? super T, String> reader;
        final Map<String, List<Integer>> equal = new HashMap<>();
        final Set<Integer> all = new LinkedHashSet<>();

        TextFieldBuilder(Function<? super T, String> reader) {
            this.reader = reader;
        }

        void add(FieldRequirement<T> r, int handle) {
            all.add(handle);
            for (String s : r.texts()) {
                List<Integer> hs = equal.computeIfAbsent(s, k -> new ArrayList<>());
                if (!hs.contains(handle)) {
                    hs.add(handle);
                }
            }
        }

        TextField<T> build() {
            Map<String, int[]> map = new HashMap<>();
            for (Map.Entry<String, List<Integer>> e : equal.entrySet()) {
                map.put(e.getKey(), toArray(e.getValue()));
            }
            return new TextField<>(reader, map, toArray(all));
        }
    }
}
