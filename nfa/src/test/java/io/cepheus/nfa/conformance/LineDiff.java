package io.cepheus.nfa.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * A unified diff of two short line lists, from a longest common subsequence (quadratic, which is fine for
 * the few dozen lines of a conformance case).
 */
public final class LineDiff {

    /** Lines of context around each change, as {@code diff -u}. */
    private static final int CONTEXT = 3;

    private LineDiff() {
    }

    private enum Op { KEEP, DELETE, INSERT }

    /** One step of the edit script; {@code a}/{@code b} are indexes into the old/new lists. */
    private record Edit(Op op, int a, int b) {
    }

    /**
     * @param oldLabel the label of the {@code ---} line (the expected output)
     * @param newLabel the label of the {@code +++} line (the actual output)
     * @param oldLines the expected lines
     * @param newLines the actual lines
     * @param same     when an old and a new line count as equal (the old one is shown as context)
     * @return the unified diff, or the empty string if the lists are equal
     */
    public static String unified(String oldLabel, String newLabel, List<String> oldLines, List<String> newLines,
            BiPredicate<String, String> same) {
        List<Edit> script = editScript(oldLines, newLines, same);
        if (script.stream().allMatch(e -> e.op == Op.KEEP)) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        sb.append("--- ").append(oldLabel).append('\n').append("+++ ").append(newLabel).append('\n');
        int i = 0;
        while (i < script.size()) {
            if (script.get(i).op == Op.KEEP) {
                i++;
                continue;
            }
            // a hunk: from CONTEXT lines before this change to CONTEXT lines after the last change that is
            // separated from the previous one by at most 2 * CONTEXT unchanged lines
            int start = Math.max(0, i - CONTEXT);
            int end = i;
            int lastChange = i;
            while (end < script.size() && end - lastChange <= 2 * CONTEXT + 1) {
                if (script.get(end).op != Op.KEEP) {
                    lastChange = end;
                }
                end++;
            }
            end = Math.min(script.size(), lastChange + 1 + CONTEXT);
            appendHunk(sb, script.subList(start, end), oldLines, newLines);
            i = end;
        }
        return sb.toString();
    }

    private static void appendHunk(StringBuilder sb, List<Edit> hunk, List<String> oldLines,
            List<String> newLines) {
        int oldStart = -1;
        int newStart = -1;
        int oldCount = 0;
        int newCount = 0;
        for (Edit e : hunk) {
            if (e.op != Op.INSERT) {
                oldStart = oldStart < 0 ? e.a : oldStart;
                oldCount++;
            }
            if (e.op != Op.DELETE) {
                newStart = newStart < 0 ? e.b : newStart;
                newCount++;
            }
        }
        // diff -u prints an empty range as the line before it
        sb.append("@@ -").append(range(oldStart, oldCount, hunk.get(0).a)).append(" +")
                .append(range(newStart, newCount, hunk.get(0).b)).append(" @@\n");
        for (Edit e : hunk) {
            switch (e.op) {
                case KEEP -> sb.append(' ').append(oldLines.get(e.a));
                case DELETE -> sb.append('-').append(oldLines.get(e.a));
                case INSERT -> sb.append('+').append(newLines.get(e.b));
                default -> throw new IllegalStateException();
            }
            sb.append('\n');
        }
    }

    private static String range(int start, int count, int position) {
        if (count == 0) {
            return position + ",0";
        }
        return count == 1 ? String.valueOf(start + 1) : (start + 1) + "," + count;
    }

    private static List<Edit> editScript(List<String> a, List<String> b, BiPredicate<String, String> same) {
        int n = a.size();
        int m = b.size();
        // lcs[i][j] = length of the LCS of a[i..] and b[j..]
        int[][] lcs = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                lcs[i][j] = same.test(a.get(i), b.get(j)) ? lcs[i + 1][j + 1] + 1
                        : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        List<Edit> out = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && same.test(a.get(i), b.get(j))) {
                out.add(new Edit(Op.KEEP, i++, j++));
            } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
                out.add(new Edit(Op.DELETE, i++, j)); // deletions first, as diff -u shows them
            } else {
                out.add(new Edit(Op.INSERT, i, j++));
            }
        }
        return out;
    }
}
