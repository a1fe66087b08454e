package io.cepheus.benchmarks.workloads;

import io.cepheus.rules.Rule;
import io.cepheus.rules.Rules;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * W5 of {@code benchmarks/WORKLOADS.md}: R rules on one stream. The stream is W2's shape under ordinal 4; rule
 * {@code r} of R, with {@code V = r * 1000 / R}, is
 * {@code begin a where type == 'A' && value == V ; followedBy b where type == 'B' && value >= V} within 60 s, written
 * as a JSON rule file as an analyst would write it, and every rule's matches count.
 */
public final class ManyRulesWorkload {

    /** The rule counts WORKLOADS.md gives counts for. */
    public static final int[] RULE_COUNTS = {1, 10, 100, 1_000};
    private static final long[] MATCHES = {183, 1_250, 11_666, 117_609};
    private static final String[] CHECKSUMS = {"9d246b38b01d0773", "d199d0b4b41ae493", "f31a0a4bb194982e",
        "129fa7b65beae011"};
    /** W5's ordinal in the seed (W1 to W4 are 0 to 3). */
    private static final int ORDINAL = 4;

    private ManyRulesWorkload() {
    }

    /** @return W5's stream for {@link Workload#DEFAULT_SEED} */
    public static WorkloadStream stream() {
        return WorkloadGenerator.generate(Workload.W2, ORDINAL, Workload.DEFAULT_SEED);
    }

    /**
     * @param ruleCount R
     * @return the index of R in {@link #RULE_COUNTS}
     * @throws IllegalArgumentException if WORKLOADS.md has no counts for R
     */
    private static int row(int ruleCount) {
        for (int i = 0; i < RULE_COUNTS.length; i++) {
            if (RULE_COUNTS[i] == ruleCount) {
                return i;
            }
        }
        throw new IllegalArgumentException("W5 has counts for R = 1, 10, 100 and 1,000, not " + ruleCount);
    }

    /**
     * @param ruleCount R
     * @return the match count every rule together must give
     */
    public static long expectedMatches(int ruleCount) {
        return MATCHES[row(ruleCount)];
    }

    /**
     * @param ruleCount R
     * @return the checksum over every rule's matches ({@link MatchChecksum})
     */
    public static long expectedChecksum(int ruleCount) {
        return Long.parseUnsignedLong(CHECKSUMS[row(ruleCount)], 16);
    }

    /**
     * @param r         the rule's number, 0 to R - 1
     * @param ruleCount R
     * @param version   the rule's version
     * @param windowMs  the window (W5's is 60,000 ms)
     * @return rule {@code r} as a JSON rule file, id {@code w5-r}
     */
    public static String ruleJson(int r, int ruleCount, int version, long windowMs) {
        long v = (long) r * 1000 / ruleCount;
        return String.format(Locale.ROOT, """
                {
                  "id": "w5-%d", "version": %d,
                  "description": "W5 rule %d of %d: an A of value %d, then a B of value %d or more, within %d ms",
                  "pattern": {
                    "name": "b", "type": "COMPOSITE",
                    "quantifier": {"consumingStrategy": "SKIP_TILL_NEXT", "properties": ["SINGLE"], "times": null,
                      "untilCondition": null},
                    "condition": null,
                    "nodes": [
                      {"name": "a", "type": "ATOMIC",
                       "quantifier": {"consumingStrategy": "SKIP_TILL_NEXT", "properties": ["SINGLE"], "times": null,
                         "untilCondition": null},
                       "condition": {"type": "EXPRESSION", "expression": "type == 'A' && value == %d"}},
                      {"name": "b", "type": "ATOMIC",
                       "quantifier": {"consumingStrategy": "SKIP_TILL_NEXT", "properties": ["SINGLE"], "times": null,
                         "untilCondition": null},
                       "condition": {"type": "EXPRESSION", "expression": "type == 'B' && value >= %d"}}
                    ],
                    "edges": [{"source": "a", "target": "b", "type": "SKIP_TILL_NEXT"}],
                    "window": {"type": "FIRST_AND_LAST", "time": {"unit": "MILLISECONDS", "size": %d}},
                    "afterMatchStrategy": {"type": "NO_SKIP", "patternName": null},
                    "version": 1
                  }
                }
                """, r, version, r, ruleCount, v, v, windowMs, v, v, windowMs);
    }

    /**
     * @param ruleCount R
     * @return W5's R rules, parsed
     */
    public static List<Rule> rules(int ruleCount) {
        List<Rule> out = new ArrayList<>(ruleCount);
        for (int r = 0; r < ruleCount; r++) {
            out.add(Rules.parse(ruleJson(r, ruleCount, 1, 60_000)));
        }
        return out;
    }
}
