package io.cepheus.nfa.conformance;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Compares a case's actual output with the expected one as FORMAT.md says: lines keep their order, except
 * that inside a run of consecutive {@code MATCH} lines, and inside a run of consecutive {@code TIMEOUT}
 * lines, order does not matter (Flink orders them by a priority-queue tie order); two {@code ERROR} lines
 * are equal whatever they say (the message need not match Flink's).
 */
public final class ConformanceComparator {

    private ConformanceComparator() {
    }

    /**
     * @param expected the expected lines
     * @param actual   the actual lines
     * @return whether they agree
     */
    public static boolean matches(List<String> expected, List<String> actual) {
        List<String> e = canonical(expected);
        List<String> a = canonical(actual);
        if (e.size() != a.size()) {
            return false;
        }
        for (int i = 0; i < e.size(); i++) {
            if (!equivalent(e.get(i), a.get(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * @param lines output lines
     * @return the same lines with every run of {@code MATCH} lines and every run of {@code TIMEOUT} lines
     *     sorted, so that two outputs that differ only inside runs become equal (also used for diffs)
     */
    public static List<String> canonical(List<String> lines) {
        List<String> out = new ArrayList<>(lines.size());
        int i = 0;
        while (i < lines.size()) {
            String kind = runKind(lines.get(i));
            int end = i + 1;
            if (kind != null) {
                while (end < lines.size() && kind.equals(runKind(lines.get(end)))) {
                    end++;
                }
            }
            List<String> run = new ArrayList<>(lines.subList(i, end));
            Collections.sort(run);
            out.addAll(run);
            i = end;
        }
        return out;
    }

    /**
     * @param expected an expected line
     * @param actual   an actual line
     * @return whether they are equal, counting any two {@code ERROR} lines as equal
     */
    public static boolean equivalent(String expected, String actual) {
        return expected.equals(actual) || (isError(expected) && isError(actual));
    }

    private static boolean isError(String line) {
        return line.equals("ERROR") || line.startsWith("ERROR ");
    }

    /** @return "MATCH" or "TIMEOUT" for lines whose runs are unordered, else null */
    private static String runKind(String line) {
        if (line.startsWith("MATCH ")) {
            return "MATCH";
        }
        if (line.startsWith("TIMEOUT@")) {
            return "TIMEOUT";
        }
        return null;
    }
}
