package io.cepheus.runtime.conformance.windows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compares what the engine emitted with an {@code .expected} file by FORMAT.md's rules: order matters between
 * input tokens, lines of one token are compared sorted; window joins ignore {@code LATE} lines (Flink has no
 * late output for them); list values of session windows are compared sorted inside; an {@code ERROR} line matches
 * on the exception type only (the message need not match Flink's).
 */
public final class WindowOutputComparator {

    private static final Pattern LIST = Pattern.compile("\\[([^\\[\\]]*)\\]\\s+@");
    private static final Comparator<String> BY_TIMESTAMP_THEN_TEXT =
            Comparator.comparingLong(WindowOutputComparator::recordTimestamp).thenComparing(Comparator.naturalOrder());

    private WindowOutputComparator() {
    }

    /**
     * Normalises both sides into comparable line lists: each actual group sorted, and the expected lines cut into
     * groups of the same sizes and sorted alike (so a different line count still shows up as a difference).
     *
     * @return {expected, actual}, equal when the case passes
     */
    public static List<List<String>> normalise(WindowCase c, List<String> expected, List<List<String>> actualGroups) {
        boolean windowJoin = c.kind().equals("windowjoin");
        boolean sortLists = c.setting("assigner").map(a -> a.trim().startsWith("session")).orElse(false);
        List<String> exp = new ArrayList<>();
        for (String line : expected) {
            if (!(windowJoin && line.startsWith("LATE "))) {
                exp.add(normaliseLine(line, sortLists));
            }
        }
        List<String> act = new ArrayList<>();
        List<String> expOut = new ArrayList<>();
        int at = 0;
        for (List<String> group : actualGroups) {
            List<String> g = new ArrayList<>();
            for (String line : group) {
                if (!(windowJoin && line.startsWith("LATE "))) {
                    g.add(normaliseLine(line, sortLists));
                }
            }
            g.sort(BY_TIMESTAMP_THEN_TEXT);
            act.addAll(g);
            int end = Math.min(exp.size(), at + g.size());
            List<String> slice = new ArrayList<>(exp.subList(at, end));
            slice.sort(BY_TIMESTAMP_THEN_TEXT);
            expOut.addAll(slice);
            at = end;
        }
        expOut.addAll(exp.subList(at, exp.size()));
        return List.of(expOut, act);
    }

    private static String normaliseLine(String line, boolean sortLists) {
        if (line.startsWith("ERROR ")) {
            int colon = line.indexOf(':');
            return colon < 0 ? line : line.substring(0, colon); // the exception type only
        }
        if (!sortLists || !line.startsWith("WIN ")) {
            return line;
        }
        Matcher m = LIST.matcher(line);
        if (!m.find() || m.group(1).isBlank()) {
            return line;
        }
        long[] values = Arrays.stream(m.group(1).split(",")).mapToLong(s -> Long.parseLong(s.trim())).sorted().toArray();
        StringBuilder sorted = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            sorted.append(i == 0 ? "" : ",").append(values[i]);
        }
        return line.substring(0, m.start(1)) + sorted + line.substring(m.end(1));
    }

    /** The record timestamp of a WIN or PAIR line (after its last '@'), or Long.MIN_VALUE for other lines. */
    private static long recordTimestamp(String line) {
        if (!line.startsWith("WIN ") && !line.startsWith("PAIR ")) {
            return Long.MIN_VALUE;
        }
        int at = line.lastIndexOf(" @");
        try {
            return at < 0 ? Long.MIN_VALUE : Long.parseLong(line.substring(at + 2).trim());
        } catch (NumberFormatException e) {
            return Long.MIN_VALUE;
        }
    }
}
