package io.cepheus.benchmarks.compare.agreement;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a join emitted, as lines {@code i|TEXT}: {@code i} the index of the input item that caused it (the input's
 * length for the final watermarks), TEXT {@code PAIR a L1@3 R2@5 @5}, {@code CG a [L1@3] [R2@5] @9} or
 * {@code LATE L:aL1@3}; or an error (the join was refused). Used on the test's thread.
 */
final class JoinOutputs {

    private final List<String> lines = new ArrayList<>();
    private String error;

    void add(int item, String text) {
        lines.add(item + "|" + text);
    }

    void refuse(String why) {
        error = why;
    }

    String error() {
        return error;
    }

    /** @return the pair or coGroup text of {@code aL1@3 aR2@5} (a pair) or of a coGroup text (unchanged) */
    static String pair(String joined) {
        if (joined.startsWith("CG")) {
            return joined;
        }
        String[] p = joined.split(" ");
        return RandomJoinCase.keyOf(p[0]) + " " + RandomJoinCase.withoutKey(p[0]) + " "
                + RandomJoinCase.withoutKey(p[1]);
    }

    /**
     * @param withItem whether each line keeps the item that caused it (when), or only what was emitted
     * @param withLate whether late elements count
     * @return the lines as a multiset
     */
    Map<String, Integer> multiset(boolean withItem, boolean withLate) {
        Map<String, Integer> m = new TreeMap<>();
        for (String l : lines) {
            String s = withItem ? l : l.substring(l.indexOf('|') + 1);
            if (withLate || !s.contains("LATE")) {
                m.merge(s, 1, Integer::sum);
            }
        }
        return m;
    }

    @Override
    public String toString() {
        if (error != null) {
            return "refused: " + error;
        }
        List<String> sorted = new ArrayList<>(lines);
        sorted.sort((a, b) -> {
            int ia = Integer.parseInt(a.substring(0, a.indexOf('|')));
            int ib = Integer.parseInt(b.substring(0, b.indexOf('|')));
            return ia != ib ? Integer.compare(ia, ib) : a.compareTo(b);
        });
        return sorted.toString();
    }
}
