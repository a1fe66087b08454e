package io.cepheus.runtime.internal.cep;

import io.cepheus.pattern.Condition;
import io.cepheus.pattern.FieldRequirement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Keeps out of a rule set's buffer the events no version can do anything with, judged on one or two fields: when
 * every way of every version, to begin and to go on, requires a field to be one of some values ({@code type == 'A'},
 * {@code type in ('B', 'C')}), an arriving event whose value is none of them can neither begin nor extend a partial
 * match, whatever its key and whatever waits for it, and is never kept. Then, among the ways naming the event's
 * value, the same question about a second field ({@code type == 'A' && merchant == 17}). Most rule sets name the kind
 * of event at every stage; a stream's other kinds, and the events of merchants no rule names, then cost a field read
 * and a lookup or two, not a key id, a place in the buffer and a release.
 *
 * <p>Design. A decision tree of at most {@link #MAX_FIELDS} levels over list requirements (the idea of Esper's filter
 * index tree, where each level narrows the statements an event can reach), asked with a read and an array or hash
 * lookup per level: every requirement of every way found, checked as the {@link ConditionIndex} checks at release,
 * measured to cost about what keeping the event does. At each level the field is the one every remaining way names
 * with a list, with the fewest values (then by name), chosen from the versions alone and never from the events'
 * values, so that an engine restored from a snapshot keeps the events an uninterrupted one keeps and gives their keys
 * the same ids. Ranges and requirement-free ways end the tree there: the event is kept. A value the reader cannot
 * place (NaN, a null string) or a read that throws keeps it too: the versions' conditions will tell.
 *
 * <p>Immutable; read by the shard's worker thread.
 *
 * @param <T> the event type
 */
final class ArrivalGate<T> {

    /** How many fields an event may be asked about: each costs a read and a lookup. */
    static final int MAX_FIELDS = 2;

    private static final ArrivalGate<Object> OPEN = new ArrivalGate<>(null, null, null, null, null);

    private final ToDoubleFunction<? super T> numberReader;
    /** The values of the field some way names, each under the index of its gate in {@link #next}. */
    private final NumberEqualities numbers;
    private final Function<? super T, String> textReader;
    private final Map<String, ArrivalGate<T>> texts;
    /** By value, the gate on the ways that name that value. */
    private final ArrivalGate<T>[] next;

    private ArrivalGate(ToDoubleFunction<? super T> numberReader, NumberEqualities numbers,
            Function<? super T, String> textReader, Map<String, ArrivalGate<T>> texts, ArrivalGate<T>[] next) {
        this.numberReader = numberReader;
        this.numbers = numbers;
        this.textReader = textReader;
        this.texts = texts;
        this.next = next;
    }

    /** @return a gate that lets every event in */
    @SuppressWarnings("unchecked")
    static <T> ArrivalGate<T> open() {
        return (ArrivalGate<T>) OPEN;
    }

    /**
     * @param ways every way of every version, to begin and to go on, each as conditions that must all hold; null
     *             if some version cannot say how its waiting partial matches go on
     * @return the gate on the field every way names with the fewest values, then, per value, on the field the ways
     *         naming that value name (up to {@link #MAX_FIELDS}); an open gate if no field qualifies
     */
    static <T> ArrivalGate<T> over(List<List<Condition<T>>> ways) {
        if (ways == null) {
            return open();
        }
        List<List<FieldRequirement<T>>> lists = new ArrayList<>(ways.size());
        for (List<Condition<T>> way : ways) {
            List<FieldRequirement<T>> named = new ArrayList<>();
            for (FieldRequirement<T> r : WayChecks.requirements(way)) {
                // the first on a field: a way meets every one of them, so it meets the first
                if (r.kind() != FieldRequirement.Kind.NUMBER_BETWEEN && on(named, r.field(), r.kind()) == null) {
                    named.add(r);
                }
            }
            lists.add(named);
        }
        return over(lists, null, MAX_FIELDS);
    }

    /**
     * @param ways      per way, its list requirements (one per field)
     * @param asked     the field the gate above asked about, null at the top
     * @param fieldsLeft how many more fields may be asked about
     */
    private static <T> ArrivalGate<T> over(List<List<FieldRequirement<T>>> ways, String asked, int fieldsLeft) {
        if (ways.isEmpty() || fieldsLeft == 0) {
            return open();
        }
        FieldRequirement<T> chosen = null;
        int fewest = Integer.MAX_VALUE;
        for (FieldRequirement<T> candidate : ways.get(0)) {
            if (candidate.field().equals(asked)) {
                continue;
            }
            Set<Object> values = new HashSet<>();
            for (List<FieldRequirement<T>> way : ways) {
                FieldRequirement<T> r = on(way, candidate.field(), candidate.kind());
                if (r == null) {
                    values = null; // a way that does not name it: no gate on it
                    break;
                }
                values.addAll(valuesOf(r));
            }
            if (values != null && (values.size() < fewest
                    || values.size() == fewest && candidate.field().compareTo(chosen.field()) < 0)) {
                chosen = candidate;
                fewest = values.size();
            }
        }
        if (chosen == null) {
            return open();
        }
        // per value, the ways naming it
        Map<Object, List<List<FieldRequirement<T>>>> naming = new LinkedHashMap<>();
        for (List<FieldRequirement<T>> way : ways) {
            for (Object v : valuesOf(on(way, chosen.field(), chosen.kind()))) {
                naming.computeIfAbsent(v, k -> new ArrayList<>()).add(way);
            }
        }
        List<ArrivalGate<T>> gates = new ArrayList<>();
        NumberEqualities.Builder numbers = new NumberEqualities.Builder();
        Map<String, ArrivalGate<T>> texts = new HashMap<>();
        for (Map.Entry<Object, List<List<FieldRequirement<T>>>> e : naming.entrySet()) {
            ArrivalGate<T> then = over(e.getValue(), chosen.field(), fieldsLeft - 1);
            if (e.getKey() instanceof String s) {
                texts.put(s, then);
            } else if (e.getKey() instanceof Double d && !d.isNaN()) { // NaN equals nothing
                numbers.add(d, gates.size());
                gates.add(then);
            }
        }
        @SuppressWarnings("unchecked")
        ArrivalGate<T>[] next = gates.toArray(new ArrivalGate[0]);
        if (chosen.kind() == FieldRequirement.Kind.TEXT_ONE_OF) {
            return new ArrivalGate<>(null, null, chosen.textReader(), Map.copyOf(texts), null);
        }
        return new ArrivalGate<>(chosen.numberReader(), numbers.build(), null, null, next);
    }

    /** @return the way's requirement on {@code field} of {@code kind}, or null */
    private static <T> FieldRequirement<T> on(List<FieldRequirement<T>> way, String field, FieldRequirement.Kind kind) {
        for (FieldRequirement<T> r : way) {
            if (r.kind() == kind && r.field().equals(field)) {
                return r;
            }
        }
        return null;
    }

    private static List<Object> valuesOf(FieldRequirement<?> r) {
        List<Object> out = new ArrayList<>();
        if (r.kind() == FieldRequirement.Kind.TEXT_ONE_OF) {
            out.addAll(r.texts());
        } else {
            for (double v : r.numbers()) {
                out.add(v + 0.0); // -0.0 and 0.0 are one value
            }
        }
        return out;
    }

    /** @return the ways of every version, to begin and to go on; null if some version cannot say how it goes on */
    static <T> List<List<Condition<T>>> waysOf(Iterable<List<List<Condition<T>>>> startWays,
            Iterable<List<List<Condition<T>>>> waitingWays) {
        List<List<Condition<T>>> all = new ArrayList<>();
        for (List<List<Condition<T>>> ways : startWays) {
            all.addAll(ways);
        }
        for (List<List<Condition<T>>> ways : waitingWays) {
            if (ways == null) {
                return null;
            }
            all.addAll(ways);
        }
        return all;
    }

    /** @return whether the gate lets every event in */
    boolean isOpen() {
        return numberReader == null && textReader == null;
    }

    /** @return false if no version can do anything with the event, whatever its key; true if one may */
    boolean mayConcern(T event) {
        ArrivalGate<T> g = this;
        try {
            while (true) {
                if (g.numberReader != null) {
                    double x = g.numberReader.applyAsDouble(event);
                    if (x != x) {
                        return true;
                    }
                    int[] at = g.numbers.get(x);
                    if (at == null) {
                        return false;
                    }
                    g = g.next[at[0]];
                } else if (g.textReader != null) {
                    String s = g.textReader.apply(event);
                    if (s == null) {
                        return true;
                    }
                    g = g.texts.get(s);
                    if (g == null) {
                        return false;
                    }
                } else {
                    return true;
                }
            }
        } catch (RuntimeException e) {
            return true; // the versions' conditions report it, naming the stage
        }
    }
}
