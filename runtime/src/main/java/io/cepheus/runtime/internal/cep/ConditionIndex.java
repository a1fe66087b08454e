package io.cepheus.runtime.internal.cep;

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

/**
 * Which versions of a rule set an event can do something for: a filter index over the conditions the versions
 * begin with, the idea behind Esper's filter indexes (statements' event filters indexed by field, equality by hash,
 * ranges by sorted bounds), and checks of the conditions their waiting partial matches go on with, so that an event
 * costs the rules it can begin or extend, not every rule.
 *
 * <p>Design. Each version names the ways it can begin ({@code CompiledPattern#startConditions}) and the ways an event
 * can change its waiting partial matches ({@code CompiledPattern#waitingConditions}), each way with conditions that
 * must all hold; an {@link IndexableCondition} among them states requirements on fields ({@code value == 7},
 * {@code amount >= 100}, {@code country in ('DE', 'FR')}). The fields are read once per event ({@link EventFields}).
 * Every way to begin is indexed under one of its requirements, the one that lets the fewest events through as far as
 * the index can tell: measured on recent events' values ({@link FieldSamples}) once every field of the way has a
 * sample, else, and to break ties, an equality whose (field, value) fewest ways share, else a range. Per field the
 * index keeps the ways under each value (equalities, {@code in}-lists: {@link NumberEqualities}, by value in an array
 * or by hash; text by hash) and the ranges sorted by lower bound; a way without a requirement is looked at for every
 * event. What the lookup finds is then checked against the way's other requirements
 * ({@link WayChecks}), and a version holding the event's key is handed the event only if it may begin or extend
 * something. The index only ever lets too many through: the version's matcher still evaluates its conditions, and an
 * event that fails a requirement would have failed the condition.
 *
 * <p>Before any of that, an arriving event is asked whether some version may begin or extend anything with it at all
 * ({@link ArrivalGate}, on a field or two that every way names with a list of values): if not, the rule set does not
 * keep it, and only the events it keeps are looked up when released.
 *
 * <p>A field read that throws (a getter's own exception, a map rule given another event) voids the event's reads:
 * the caller then hands the event to every version, whose conditions report the failure as they would without the
 * index.
 *
 * <p>Versions come and go with rule changes; the index is rebuilt, at the next event, from the versions then
 * present (a few milliseconds for a thousand rules). It is also rebuilt when a field's sample first fills, to plan
 * on it.
 *
 * <p>Owned by the shard's worker thread, like the rule set's buffer that holds it.
 *
 * @param <T> the event type
 */
final class ConditionIndex<T> {

    private static final int[] NO_HANDLES = new int[0];

    /** The ways each version (by handle) begins and goes on. */
    private final Map<Integer, Ways<T>> waysOf = new LinkedHashMap<>();
    private boolean stale = true;
    private final EventFields<T> fields = new EventFields<>();
    private final FieldSamples samples = new FieldSamples();

    // built by rebuild()
    private int[] always = NO_HANDLES;
    private NumberField[] numberFields = new NumberField[0];
    private TextField[] textFields = new TextField[0];
    /** The checks of every version's ways; by handle, the entries of its ways to begin and to go on. */
    private final WayChecks checks = new WayChecks();
    private int[] startChecks = new int[0];
    private int[] waitChecks = new int[0];
    /** The entry of ways that need nothing. */
    private int alwaysPasses;
    private boolean statesAnything;
    /** What an arriving event must be for some version to take it. */
    private ArrivalGate<T> gate = ArrivalGate.open();

    // what collect() found
    private int[] found = new int[16];

    private record Ways<T>(List<List<Condition<T>>> start, List<List<Condition<T>>> waiting) {
    }

    /**
     * A version joined (or rejoined) under {@code handle}.
     *
     * @param start   its ways to begin
     * @param waiting its ways to change a waiting partial match; null if it cannot say
     */
    void put(int handle, List<List<Condition<T>>> start, List<List<Condition<T>>> waiting) {
        waysOf.put(handle, new Ways<>(start, waiting));
        stale = true;
    }

    /** The version under {@code handle} left. */
    void remove(int handle) {
        waysOf.remove(handle);
        stale = true;
    }

    /**
     * Reads the event's fields, for {@link #collect}, {@link #mayBegin} and {@link #mayChange}.
     *
     * @return false if a read threw: then any version may need the event
     */
    boolean read(T event) {
        if (stale) {
            rebuild();
        }
        if (!fields.read(event)) {
            return false;
        }
        if (samples.offer(fields.numbers(), fields.texts())) {
            stale = true; // a field's sample is full: plan on it at the next event
        }
        return true;
    }

    /**
     * Finds the versions the event last {@link #read} may begin a partial match of (a handle may appear twice; not
     * yet checked against the way's other requirements: see {@link #mayBegin}).
     *
     * @return how many are in {@link #found()}
     */
    int collect() {
        int n = append(always, 0);
        for (NumberField f : numberFields) {
            double x = fields.number(f.slot);
            if (x != x) {
                n = append(f.all, n); // a value the field's reader cannot place: every way on the field
                continue;
            }
            int[] equal = f.equal.get(x);
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
        for (TextField f : textFields) {
            String s = fields.text(f.slot);
            int[] equal = s == null ? f.all : f.equal.get(s);
            if (equal != null) {
                n = append(equal, n);
            }
        }
        return n;
    }

    /**
     * @return false if no version can begin or extend anything with the event, whatever its key and whatever waits
     *         when it is released ({@link ArrivalGate}); it reads a field or two itself, and leaves the reads of
     *         {@link #read} as they were
     */
    boolean mayConcern(T event) {
        if (stale) {
            rebuild();
        }
        return gate.mayConcern(event);
    }

    /** @return the handles {@link #collect} found */
    int[] found() {
        return found;
    }

    /** @return whether the event last read may begin a partial match of the version */
    boolean mayBegin(int handle) {
        return checks.anyPasses(startChecks[handle], fields);
    }

    /** @return whether the event last read may change a partial match the version has waiting */
    boolean mayChange(int handle) {
        return checks.anyPasses(waitChecks[handle], fields);
    }

    private int append(int[] handles, int n) {
        if (n + handles.length > found.length) {
            found = Arrays.copyOf(found, Math.max(found.length * 2, n + handles.length));
        }
        System.arraycopy(handles, 0, found, n, handles.length);
        return n + handles.length;
    }

    // ------------------------------------------------------------------ building

    /** @return whether some version states a requirement (else the index lets every event through) */
    boolean statesAnything() {
        if (stale) {
            rebuild();
        }
        return statesAnything;
    }

    /** Tests: @return how many versions are looked at for every event */
    int unindexed() {
        if (stale) {
            rebuild();
        }
        return always.length;
    }

    private void rebuild() {
        fields.clear();
        int handles = 0;
        for (int h : waysOf.keySet()) {
            handles = Math.max(handles, h + 1);
        }
        checks.clear();
        alwaysPasses = checks.add(List.of(List.of()), fields);
        startChecks = new int[handles];
        waitChecks = new int[handles];
        // what each way to begin requires, and how many ways share each (field, value) and each field's ranges
        Map<Object, Integer> shared = new HashMap<>();
        List<Integer> wayHandles = new ArrayList<>();
        List<List<FieldRequirement<T>>> required = new ArrayList<>();
        for (Map.Entry<Integer, Ways<T>> e : waysOf.entrySet()) {
            int h = e.getKey();
            startChecks[h] = checks.add(e.getValue().start(), fields);
            waitChecks[h] = e.getValue().waiting() == null ? alwaysPasses : checks.add(e.getValue().waiting(), fields);
            for (List<Condition<T>> way : e.getValue().start()) {
                List<FieldRequirement<T>> rs = WayChecks.requirements(way);
                wayHandles.add(h);
                required.add(rs);
                for (FieldRequirement<T> r : rs) {
                    for (Object k : shareKeys(r)) {
                        shared.merge(k, 1, Integer::sum);
                    }
                }
            }
        }
        Set<Integer> unindexed = new LinkedHashSet<>();
        Map<Integer, NumberFieldBuilder> numbers = new LinkedHashMap<>();
        Map<Integer, TextFieldBuilder> texts = new LinkedHashMap<>();
        for (int w = 0; w < required.size(); w++) {
            List<FieldRequirement<T>> rs = required.get(w);
            double[] shares = new double[rs.size()];
            boolean sampled = true;
            for (int i = 0; i < shares.length; i++) {
                shares[i] = samples.shareReached(rs.get(i));
                sampled &= !Double.isNaN(shares[i]);
            }
            FieldRequirement<T> best = null;
            double bestShare = Double.MAX_VALUE;
            double bestCost = Double.MAX_VALUE;
            for (int i = 0; i < shares.length; i++) {
                FieldRequirement<T> r = rs.get(i);
                // measured on the sample when every field of the way has one; the counts break ties
                double share = sampled ? shares[i] : 0;
                double cost = cost(r, shared);
                if (share < bestShare || share == bestShare && cost < bestCost) {
                    best = r;
                    bestShare = share;
                    bestCost = cost;
                }
            }
            int handle = wayHandles.get(w);
            if (best == null) {
                unindexed.add(handle);
                continue;
            }
            int slot = fields.slotOf(best);
            if (best.kind() == FieldRequirement.Kind.TEXT_ONE_OF) {
                texts.computeIfAbsent(slot, TextFieldBuilder::new).add(best, handle);
            } else {
                numbers.computeIfAbsent(slot, NumberFieldBuilder::new).add(best, handle);
            }
        }
        List<List<List<Condition<T>>>> starting = new ArrayList<>();
        List<List<List<Condition<T>>>> waiting = new ArrayList<>();
        for (Ways<T> w : waysOf.values()) {
            starting.add(w.start());
            waiting.add(w.waiting());
        }
        gate = ArrivalGate.over(ArrivalGate.waysOf(starting, waiting));
        fields.freeze();
        samples.bind(fields.numberNames(), fields.textNames());
        statesAnything = fields.any();
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

    /** A numeric field: its slot, the ways under each value, and the ranges by lower bound. */
    private record NumberField(int slot, NumberEqualities equal, double[] rangeMin, double[] rangeMax,
            int[] rangeHandle, int[] all) {
    }

    /** A text field: its slot and the ways under each value. */
    private record TextField(int slot, Map<String, int[]> equal, int[] all) {
    }

    private static final class NumberFieldBuilder {
        final int slot;
        final NumberEqualities.Builder equal = new NumberEqualities.Builder();
        final List<double[]> ranges = new ArrayList<>(); // {min, max, handle}
        final Set<Integer> all = new LinkedHashSet<>();

        NumberFieldBuilder(int slot) {
            this.slot = slot;
        }

        void add(FieldRequirement<?> r, int handle) {
            all.add(handle);
            if (r.kind() == FieldRequirement.Kind.NUMBER_BETWEEN) {
                ranges.add(new double[] {r.min(), r.max(), handle});
                return;
            }
            for (double v : r.numbers()) {
                if (v == v) { // NaN equals nothing
                    equal.add(v, handle);
                }
            }
        }

        NumberField build() {
            ranges.sort((a, b) -> Double.compare(a[0], b[0]));
            double[] mins = new double[ranges.size()];
            double[] maxs = new double[ranges.size()];
            int[] hs = new int[ranges.size()];
            for (int i = 0; i < hs.length; i++) {
                mins[i] = ranges.get(i)[0];
                maxs[i] = ranges.get(i)[1];
                hs[i] = (int) ranges.get(i)[2];
            }
            return new NumberField(slot, equal.build(), mins, maxs, hs, toArray(all));
        }
    }

    private static final class TextFieldBuilder {
        final int slot;
        final Map<String, Set<Integer>> equal = new HashMap<>();
        final Set<Integer> all = new LinkedHashSet<>();

        TextFieldBuilder(int slot) {
            this.slot = slot;
        }

        void add(FieldRequirement<?> r, int handle) {
            all.add(handle);
            for (String s : r.texts()) {
                equal.computeIfAbsent(s, k -> new LinkedHashSet<>()).add(handle);
            }
        }

        TextField build() {
            Map<String, int[]> map = new HashMap<>();
            for (Map.Entry<String, Set<Integer>> e : equal.entrySet()) {
                map.put(e.getKey(), toArray(e.getValue()));
            }
            return new TextField(slot, map, toArray(all));
        }
    }
}
