package io.cepheus.benchmarks.compare.agreement;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Outputs of a CEP run in comparable form: per pattern and key, the sorted multiset of {@code KIND body@ts}
 * (order across keys and patterns is the engines' business; within a key both emit in time order, which the
 * timestamps pin down).
 *
 * @param byPatternAndKey {@code p0/k1} to its sorted outputs
 */
record CepOutputs(TreeMap<String, List<String>> byPatternAndKey) {

    /** @return Cepheus's outputs as they are (it already reports a timed-out partial match once per advance) */
    static CepOutputs of(List<CepOutput> outputs, boolean withTimeouts) {
        return group(outputs, withTimeouts, false);
    }

    /**
     * Flink's outputs with the README's timeout rule applied: the same timed-out partial match (same events in
     * the same stages, same key) reported several times in one NFA time advance counts once, with the earliest of
     * its times.
     */
    static CepOutputs ofFlink(List<CepOutput> outputs, boolean withTimeouts) {
        return group(outputs, withTimeouts, true);
    }

    private static CepOutputs group(List<CepOutput> outputs, boolean withTimeouts, boolean oncePerAdvance) {
        TreeMap<String, List<String>> grouped = new TreeMap<>();
        Map<String, Long> earliestTimeout = new LinkedHashMap<>();
        for (CepOutput o : outputs) {
            String where = "p" + o.pattern() + "/k" + o.key();
            if (o.kind() == CepOutput.Kind.TIMEOUT) {
                if (!withTimeouts) {
                    continue;
                }
                if (oncePerAdvance) {
                    earliestTimeout.merge(where + "|" + o.advance() + "|" + o.body(), o.ts(), Math::min);
                    continue;
                }
            }
            grouped.computeIfAbsent(where, k -> new ArrayList<>()).add(o.kind() + " " + o.body() + "@" + o.ts());
        }
        for (Map.Entry<String, Long> t : earliestTimeout.entrySet()) {
            String[] parts = t.getKey().split("\\|", 3);
            grouped.computeIfAbsent(parts[0], k -> new ArrayList<>()).add("TIMEOUT " + parts[2] + "@" + t.getValue());
        }
        grouped.values().forEach(Collections::sort);
        return new CepOutputs(grouped);
    }

    /** @return whether some output is a timeout */
    boolean hasTimeouts() {
        return byPatternAndKey.values().stream().flatMap(List::stream).anyMatch(s -> s.startsWith("TIMEOUT"));
    }

    /** @return whether some output is a late event */
    boolean hasLateEvents() {
        return byPatternAndKey.values().stream().flatMap(List::stream).anyMatch(s -> s.startsWith("LATE"));
    }

    /** @return whether some output is a match */
    boolean hasMatches() {
        return byPatternAndKey.values().stream().flatMap(List::stream).anyMatch(s -> s.startsWith("MATCH"));
    }

    /** @return per pattern and key, what only this side and only {@code other} emitted */
    String diff(CepOutputs other, String thisName, String otherName) {
        StringBuilder sb = new StringBuilder();
        Set<String> keys = new TreeSet<>(byPatternAndKey.keySet());
        keys.addAll(other.byPatternAndKey.keySet());
        for (String k : keys) {
            List<String> mine = new ArrayList<>(byPatternAndKey.getOrDefault(k, List.of()));
            List<String> theirs = new ArrayList<>(other.byPatternAndKey.getOrDefault(k, List.of()));
            List<String> onlyMine = new ArrayList<>(mine);
            theirs.forEach(onlyMine::remove);
            List<String> onlyTheirs = new ArrayList<>(theirs);
            mine.forEach(onlyTheirs::remove);
            if (!onlyMine.isEmpty() || !onlyTheirs.isEmpty()) {
                sb.append("    ").append(k).append(": only ").append(thisName).append(' ').append(onlyMine)
                        .append(", only ").append(otherName).append(' ').append(onlyTheirs).append('\n');
            }
        }
        return sb.toString();
    }
}
