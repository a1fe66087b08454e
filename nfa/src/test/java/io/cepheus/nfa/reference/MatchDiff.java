package io.cepheus.nfa.reference;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The difference between two lists of matches compared as multisets (order ignored, duplicates counted):
 * within one step the engine may emit matches in any order, but it must emit each match exactly as often as
 * the reference finds it (once).
 *
 * @param missing    matches the expected list has more often than the actual one
 * @param unexpected matches the actual list has more often than the expected one
 */
public record MatchDiff(List<Map<String, List<RefEvent>>> missing, List<Map<String, List<RefEvent>>> unexpected) {

    /**
     * @param expected the reference's matches
     * @param actual   the engine's matches
     * @return what differs
     */
    public static MatchDiff between(List<Map<String, List<RefEvent>>> expected,
            List<Map<String, List<RefEvent>>> actual) {
        return new MatchDiff(minus(expected, actual), minus(actual, expected));
    }

    /** @return whether both lists hold the same matches equally often */
    public boolean isEmpty() {
        return missing.isEmpty() && unexpected.isEmpty();
    }

    private static List<Map<String, List<RefEvent>>> minus(List<Map<String, List<RefEvent>>> from,
            List<Map<String, List<RefEvent>>> take) {
        Map<Map<String, List<RefEvent>>, Integer> counts = new LinkedHashMap<>();
        from.forEach(m -> counts.merge(m, 1, Integer::sum));
        take.forEach(m -> counts.computeIfPresent(m, (k, n) -> n == 1 ? null : n - 1));
        List<Map<String, List<RefEvent>>> out = new ArrayList<>();
        counts.forEach((m, n) -> {
            for (int i = 0; i < n; i++) {
                out.add(m);
            }
        });
        return out;
    }

    /**
     * @param match a match
     * @return it with stream positions, e.g. {@code {a=[#0:A1@1], b=[#2:B0@3]}}, unambiguous when two events
     *         print alike
     */
    public static String describe(Map<String, List<RefEvent>> match) {
        List<String> parts = new ArrayList<>();
        match.forEach((stage, events) -> {
            List<String> labels = new ArrayList<>();
            events.forEach(e -> labels.add(e.label()));
            parts.add(stage + "=[" + String.join(",", labels) + "]");
        });
        return "{" + String.join(", ", parts) + "}";
    }

    /**
     * @param matches matches
     * @return one per line, indented
     */
    public static String describeAll(List<Map<String, List<RefEvent>>> matches) {
        StringBuilder sb = new StringBuilder();
        for (Map<String, List<RefEvent>> m : matches) {
            sb.append("\n    ").append(describe(m));
        }
        return matches.isEmpty() ? " (none)" : sb.toString();
    }
}
