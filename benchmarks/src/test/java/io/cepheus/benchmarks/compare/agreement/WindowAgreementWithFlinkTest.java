package io.cepheus.benchmarks.compare.agreement;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Randomized agreement of Cepheus's keyed event-time windows with Apache Flink 2.3's own {@code WindowOperator}:
 * on seeded random configurations ({@link RandomWindowCase}: every assigner, trigger, purging, evictor, function and
 * lateness combination the case draws) and random inputs, after <em>each</em> input item both must have emitted the
 * same window results (key, window, result, timestamp) and late elements, and in the same order for one key and
 * timestamp.
 *
 * <p>Left out, and counted: cases the README lists as deliberate or Flink-side differences — an order-sensitive
 * result (concatenation, count or delta evictor) on sessions or on out-of-order slices, and Flink's dynamic-gap
 * session bug — and cases on which Flink throws.
 *
 * <p>{@code -Dcepheus.agreement.cases=N} (default 1,500) and {@code -Dcepheus.agreement.seed=S} choose the cases; a
 * failure names each differing case's seed.
 */
class WindowAgreementWithFlinkTest {

    private static final int CASES = Integer.getInteger("cepheus.agreement.cases", 1_500);
    private static final long FIRST_SEED = Long.getLong("cepheus.agreement.seed", 0L);
    private static final int SHOWN = 5;

    @Test
    void cepheusEmitsWhatFlinksWindowOperatorEmitsAfterEveryInput() {
        int orderSensitive = 0;
        int flinkBug = 0;
        int flinkFailed = 0;
        int same = 0;
        int withResults = 0;
        int withLate = 0;
        List<String> differences = new ArrayList<>();
        for (long seed = FIRST_SEED; seed < FIRST_SEED + CASES; seed++) {
            RandomWindowCase c = RandomWindowCase.draw(seed);
            if (c.orderMayDiffer()) {
                orderSensitive++;
                continue;
            }
            if (c.hitsFlinksEqualMergedSessionBug()) {
                flinkBug++;
                continue;
            }
            List<List<String>> flink = FlinkWindowReplay.run(c);
            if (flinkFailed(flink)) {
                flinkFailed++;
                continue;
            }
            List<List<String>> cepheus = CepheusWindowReplay.run(c);
            String difference = firstDifference(c, flink, cepheus);
            if (difference != null) {
                differences.add(c + "\n  " + difference);
                continue;
            }
            same++;
            withResults += flink.stream().flatMap(List::stream).anyMatch(s -> s.startsWith("WIN")) ? 1 : 0;
            withLate += flink.stream().flatMap(List::stream).anyMatch(s -> s.startsWith("LATE")) ? 1 : 0;
        }
        int compared = same + differences.size();
        System.out.printf("window agreement with Flink: %d cases from seed %d, %d compared: %d the same, %d different;"
                + " left out: %d order-sensitive (README), %d Flink's dynamic-gap session bug, %d Flink exceptions."
                + " Same cases with results %d, with late elements %d%n", CASES, FIRST_SEED, compared, same,
                differences.size(), orderSensitive, flinkBug, flinkFailed, withResults, withLate);
        if (!differences.isEmpty()) {
            fail(differences.size() + " of " + compared + " cases differ from Flink; the first "
                    + Math.min(SHOWN, differences.size()) + ":\n"
                    + String.join("\n", differences.subList(0, Math.min(SHOWN, differences.size()))));
        }
        assertTrue(compared >= CASES / 2, "too few cases compared: " + compared);
        assertTrue(withResults >= compared * 3 / 4, "too few cases with results: " + withResults);
        assertTrue(withLate >= compared / 10, "too few cases with late elements: " + withLate);
    }

    /**
     * Processing time, on the same cases ({@link RandomWindowCase#inProcessingTime()}): the processing-time
     * assigners and triggers, the clock passing every millisecond, each element arriving when it reaches the
     * element's time; after each input item both must have emitted the same. Cases with timestamps near
     * {@code Long.MAX_VALUE} are left out (the clock cannot get there), and the same order-sensitive and Flink-bug
     * cases as in event time.
     */
    @Test
    void inProcessingTimeCepheusEmitsWhatFlinksWindowOperatorEmits() {
        int same = 0;
        int leftOut = 0;
        int withResults = 0;
        List<String> differences = new ArrayList<>();
        for (long seed = FIRST_SEED; seed < FIRST_SEED + CASES; seed++) {
            RandomWindowCase c = RandomWindowCase.draw(seed).inProcessingTime();
            if (leftOut(c, true)) {
                leftOut++;
                continue;
            }
            List<List<String>> flink = FlinkWindowReplay.run(c);
            if (flinkFailed(flink)) {
                leftOut++;
                continue;
            }
            String difference = firstDifference(c, flink, CepheusWindowReplay.run(c));
            if (difference != null) {
                differences.add(c + "\n  " + difference);
                continue;
            }
            same++;
            withResults += flink.stream().flatMap(List::stream).anyMatch(s -> s.startsWith("WIN")) ? 1 : 0;
        }
        int compared = same + differences.size();
        System.out.printf("window agreement with Flink in processing time: %d cases from seed %d, %d compared: %d the"
                + " same, %d different; left out %d. Same cases with results %d%n", CASES, FIRST_SEED, compared,
                same, differences.size(), leftOut, withResults);
        if (!differences.isEmpty()) {
            fail(differences.size() + " of " + compared + " cases differ from Flink in processing time; the first "
                    + Math.min(SHOWN, differences.size()) + ":\n"
                    + String.join("\n", differences.subList(0, Math.min(SHOWN, differences.size()))));
        }
        assertTrue(compared >= CASES / 2, "too few cases compared: " + compared);
        assertTrue(withResults >= compared * 3 / 4, "too few cases with results: " + withResults);
    }

    /**
     * Snapshots: the event-time and processing-time cases again, each Cepheus run cut at a random input item,
     * snapshotted there (every window operator, trigger, evictor and function the cases draw takes part) and
     * continued by a fresh engine restored from the snapshot, on the same clock; after each input item both engines
     * together must have emitted what Flink emits uninterrupted (the same rules and exclusions as the uncut tests).
     * {@code -Dcepheus.agreement.restoreCases=N} (default 600 of each).
     */
    @Test
    void restoredFromASnapshotCepheusEmitsWhatFlinksWindowOperatorEmits() {
        int cases = Integer.getInteger("cepheus.agreement.restoreCases", 600);
        int same = 0;
        int leftOut = 0;
        List<String> differences = new ArrayList<>();
        for (long seed = FIRST_SEED; seed < FIRST_SEED + cases; seed++) {
            for (boolean processingTime : new boolean[] {false, true}) {
                RandomWindowCase drawn = RandomWindowCase.draw(seed);
                RandomWindowCase c = processingTime ? drawn.inProcessingTime() : drawn;
                if (leftOut(c, processingTime)) {
                    leftOut++;
                    continue;
                }
                List<List<String>> flink = FlinkWindowReplay.run(c);
                if (flinkFailed(flink)) {
                    leftOut++;
                    continue;
                }
                int cut = new java.util.Random(seed ^ 0x5A5A).nextInt(c.input().size() + 1);
                String difference = firstDifference(c, flink, CepheusWindowReplay.runRestoredAt(c, cut));
                if (difference != null) {
                    differences.add(c + (processingTime ? " in processing time" : "") + ", restored after item " + cut
                            + "\n  " + difference);
                } else {
                    same++;
                }
            }
        }
        int compared = same + differences.size();
        System.out.printf("window agreement with Flink across a snapshot and restore: %d cases from seed %d in event"
                + " and in processing time, %d compared: %d the same, %d different; left out %d%n", cases,
                FIRST_SEED, compared, same, differences.size(), leftOut);
        if (!differences.isEmpty()) {
            fail(differences.size() + " of " + compared + " restored cases differ from Flink; the first "
                    + Math.min(SHOWN, differences.size()) + ":\n"
                    + String.join("\n", differences.subList(0, Math.min(SHOWN, differences.size()))));
        }
        assertTrue(compared >= cases, "too few cases compared: " + compared);
    }

    /**
     * Sliding windows over many keys ({@link RandomWindowCase#drawManyKeys}: 6,000 keys, about 30,000 elements),
     * so that the slice operator's columns hold thousands of keys and each firing time's pass covers many of them;
     * compared after every input item like the small cases. {@code -Dcepheus.agreement.manyKeysCases=N}
     * (default 8).
     */
    @Test
    void overManyKeysCepheusEmitsWhatFlinksWindowOperatorEmits() {
        int cases = Integer.getInteger("cepheus.agreement.manyKeysCases", 8);
        int same = 0;
        List<String> differences = new ArrayList<>();
        for (long seed = FIRST_SEED; seed < FIRST_SEED + cases; seed++) {
            RandomWindowCase c = RandomWindowCase.drawManyKeys(seed, 6_000);
            List<List<String>> flink = FlinkWindowReplay.run(c);
            String difference = firstDifference(c, flink, CepheusWindowReplay.run(c));
            if (difference == null) {
                same++;
            } else {
                differences.add("seed " + seed + " (many keys): sliding " + c.size() + "/" + c.slide() + ", "
                        + c.function() + ", lateness " + c.lateness() + ", purging " + c.purging() + "\n  "
                        + difference);
            }
        }
        System.out.printf("window agreement with Flink over 6,000 keys: %d cases the same, %d different%n", same,
                differences.size());
        if (!differences.isEmpty()) {
            fail(differences.size() + " many-key cases differ from Flink; the first:\n"
                    + differences.get(0).substring(0, Math.min(4_000, differences.get(0).length())));
        }
    }

    /**
     * @return whether a case is left out of the comparison: a result order the README documents as different, a
     *     Flink bug we do not copy, or (in processing time) element times far from zero
     */
    private static boolean leftOut(RandomWindowCase c, boolean processingTime) {
        boolean farFuture = processingTime
                && c.input().stream().anyMatch(o -> o instanceof WindowElement e && e.ts() > 1_000_000);
        return farFuture || c.orderMayDiffer() || c.hitsFlinksEqualMergedSessionBug();
    }

    /** @return whether Flink's run ended in an exception (the case is left out) */
    private static boolean flinkFailed(List<List<String>> flink) {
        return !flink.isEmpty() && flink.get(flink.size() - 1).stream().anyMatch(s -> s.startsWith("ERROR"));
    }

    /** @return null if both emitted the same after every input item, else where and how they differ */
    private static String firstDifference(RandomWindowCase c, List<List<String>> flink, List<List<String>> cepheus) {
        int n = Math.max(flink.size(), cepheus.size());
        for (int i = 0; i < n; i++) {
            List<String> f = i < flink.size() ? flink.get(i) : List.of("<nothing>");
            List<String> m = i < cepheus.size() ? cepheus.get(i) : List.of("<nothing>");
            String item = i < c.input().size() ? String.valueOf(c.input().get(i)) : "after the input";
            List<String> sortedF = new ArrayList<>(f);
            List<String> sortedM = new ArrayList<>(m);
            Collections.sort(sortedF);
            Collections.sort(sortedM);
            if (!sortedF.equals(sortedM)) {
                return "after item " + i + " (" + item + "):\n    Flink:   " + sortedF + "\n    Cepheus: " + sortedM;
            }
            if (!byKeyAndTime(f).equals(byKeyAndTime(m))) {
                return "after item " + i + " (" + item + "), order for one key and time:\n    Flink:   " + f
                        + "\n    Cepheus: " + m;
            }
        }
        return null;
    }

    /** @return outputs grouped by kind, key and timestamp, each group in emission order */
    private static Map<String, List<String>> byKeyAndTime(List<String> outputs) {
        Map<String, List<String>> groups = new TreeMap<>();
        for (String s : outputs) {
            String[] parts = s.split(" ");
            groups.computeIfAbsent(parts[0] + " " + parts[1] + " " + parts[parts.length - 1], k -> new ArrayList<>())
                    .add(s);
        }
        return groups;
    }
}
