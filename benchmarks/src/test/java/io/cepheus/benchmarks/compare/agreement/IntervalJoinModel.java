package io.cepheus.benchmarks.compare.agreement;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain model of an interval join over a {@link RandomJoinCase}: every element is kept in a list until its
 * cleanup, each arriving element is paired with the other side's kept elements of its key within the bounds, and an
 * element behind the watermark is late. The two cleanup rules differ only in the documented boundary (README):
 * Flink drops a left element once the watermark <em>reaches</em> {@code ts + upper} (a right one {@code ts - lower};
 * a bound on the element's own side of zero means {@code ts}), Cepheus once it <em>passes</em> it. Running both
 * engines' outputs against their own rule tells a boundary difference from anything else.
 */
final class IntervalJoinModel {

    private IntervalJoinModel() {
    }

    /**
     * @param c            an interval-join case
     * @param cepheusRule whether elements are dropped when the watermark passes their bound (else reaches it)
     * @return what the model emits
     */
    static JoinOutputs run(RandomJoinCase c, boolean cepheusRule) {
        JoinOutputs o = new JoinOutputs();
        long lo = c.lowerExclusive() ? c.lower() + 1 : c.lower();
        long hi = c.upperExclusive() ? c.upper() - 1 : c.upper();
        List<String> lefts = new ArrayList<>();
        List<String> rights = new ArrayList<>();
        long left = Long.MIN_VALUE;
        long right = Long.MIN_VALUE;
        long watermark = Long.MIN_VALUE;
        for (int i = 0; i <= c.input().size(); i++) {
            if (i == c.input().size()) {
                left = Long.MAX_VALUE;
                right = Long.MAX_VALUE;
            } else {
                RandomJoinCase.Item t = c.input().get(i);
                if (!t.isWatermark()) {
                    if (t.ts() < watermark) {
                        o.add(i, "LATE " + t.side() + ":" + t.element());
                        continue;
                    }
                    for (String x : t.side() == 'L' ? rights : lefts) {
                        if (!RandomJoinCase.keyOf(x).equals(RandomJoinCase.keyOf(t.element()))) {
                            continue;
                        }
                        long lt = t.side() == 'L' ? t.ts() : RandomJoinCase.timeOf(x);
                        long rt = t.side() == 'L' ? RandomJoinCase.timeOf(x) : t.ts();
                        if (rt >= lt + lo && rt <= lt + hi) {
                            String l = t.side() == 'L' ? t.element() : x;
                            String r = t.side() == 'L' ? x : t.element();
                            o.add(i, "PAIR " + JoinOutputs.pair(l + " " + r) + " @" + Math.max(lt, rt));
                        }
                    }
                    (t.side() == 'L' ? lefts : rights).add(t.element());
                    continue;
                }
                left = t.side() != 'R' ? Math.max(left, t.ts()) : left;
                right = t.side() != 'L' ? Math.max(right, t.ts()) : right;
            }
            long combined = Math.min(left, right);
            if (combined > watermark) {
                long w = combined;
                watermark = w;
                if (cepheusRule) {
                    lefts.removeIf(x -> RandomJoinCase.timeOf(x) + hi < w);
                    rights.removeIf(x -> RandomJoinCase.timeOf(x) - lo < w);
                } else {
                    lefts.removeIf(x -> (hi > 0 ? RandomJoinCase.timeOf(x) + hi : RandomJoinCase.timeOf(x)) <= w);
                    rights.removeIf(x -> (lo < 0 ? RandomJoinCase.timeOf(x) - lo : RandomJoinCase.timeOf(x)) <= w);
                }
            }
        }
        return o;
    }
}
