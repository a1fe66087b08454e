package io.cepheus.benchmarks.compare.agreement;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Randomized agreement of Cepheus's joins with Apache Flink 2.3's own operators ({@link RandomJoinCase}): after
 * each input item both must have emitted the same pairs (coGroups) with the same timestamps; for interval joins
 * also the same late elements, and a bound both refuse. The one documented difference (README: an interval join
 * keeps an element until the watermark passes its bound, Flink drops it when the watermark reaches it) is allowed
 * only where it explains the whole difference: each engine's output equals {@link IntervalJoinModel} under its own
 * rule.
 *
 * <p>{@code -Dcepheus.agreement.cases=N} (default 1,500, a third per family) and {@code -Dcepheus.agreement.seed=S}
 * choose the cases; a failure names each differing case's seed.
 */
class JoinAgreementWithFlinkTest {

    private static final int CASES = Integer.getInteger("cepheus.agreement.cases", 1_500) / 3;
    private static final long FIRST_SEED = Long.getLong("cepheus.agreement.seed", 0L);
    private static final int SHOWN = 5;

    /**
     * Window joins and coGroups in processing time, on the same cases near time zero
     * ({@link RandomJoinCase#inProcessingTime()}): the clocks pass every millisecond; after each input item both
     * must have emitted the same pairs (coGroups) with the same timestamps.
     */
    @ParameterizedTest(name = "{0} in processing time")
    @ValueSource(strings = {"wj", "cg"})
    void inProcessingTimeCepheusEmitsWhatFlinksWindowJoinEmits(String family) throws Exception {
        int same = 0;
        int leftOut = 0;
        int withOutput = 0;
        List<String> differences = new ArrayList<>();
        for (long seed = FIRST_SEED; seed < FIRST_SEED + CASES; seed++) {
            RandomJoinCase c = RandomJoinCase.draw(seed, family).inProcessingTime();
            if (!c.nearZero()) {
                leftOut++;
                continue;
            }
            JoinOutputs flink = FlinkJoinReplay.windowJoin(c);
            JoinOutputs cepheus = CepheusJoinReplay.windowJoin(c);
            if (flink.error() != null || cepheus.error() != null) {
                if (!Objects.equals(flink.error(), cepheus.error())) {
                    differences.add(c + "\n    Flink:   " + flink + "\n    Cepheus: " + cepheus);
                }
                continue;
            }
            if (flink.multiset(true, false).equals(cepheus.multiset(true, false))) {
                same++;
                withOutput += flink.multiset(false, false).isEmpty() ? 0 : 1;
            } else {
                differences.add(c + "\n    Flink:   " + flink + "\n    Cepheus: " + cepheus);
            }
        }
        System.out.printf("%s agreement with Flink in processing time: %d cases from seed %d: %d the same, %d"
                + " different, %d left out (times far from zero). Same cases with output %d%n", family, CASES,
                FIRST_SEED, same, differences.size(), leftOut, withOutput);
        if (!differences.isEmpty()) {
            fail(differences.size() + " " + family + " cases differ from Flink in processing time; the first "
                    + Math.min(SHOWN, differences.size()) + ":\n"
                    + String.join("\n", differences.subList(0, Math.min(SHOWN, differences.size()))));
        }
        assertTrue(same >= CASES / 4, "too few cases the same: " + same);
        assertTrue(withOutput >= same / 2, "too few cases with output: " + withOutput);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ij", "wj", "cg"})
    void cepheusEmitsWhatFlinksJoinOperatorsEmit(String family) throws Exception {
        boolean interval = family.equals("ij");
        int same = 0;
        int boundary = 0;
        int refused = 0;
        int withOutput = 0;
        int withLate = 0;
        List<String> differences = new ArrayList<>();
        for (long seed = FIRST_SEED; seed < FIRST_SEED + CASES; seed++) {
            RandomJoinCase c = RandomJoinCase.draw(seed, family);
            JoinOutputs flink = interval ? FlinkJoinReplay.intervalJoin(c) : FlinkJoinReplay.windowJoin(c);
            JoinOutputs cepheus = interval ? CepheusJoinReplay.intervalJoin(c) : CepheusJoinReplay.windowJoin(c);
            if (flink.error() != null || cepheus.error() != null) {
                if (Objects.equals(flink.error(), cepheus.error())) {
                    refused++;
                } else {
                    differences.add(c + "\n    Flink:   " + flink + "\n    Cepheus: " + cepheus);
                }
                continue;
            }
            // window joins: Flink's join API has no late output, so late elements are not compared
            if (flink.multiset(true, interval).equals(cepheus.multiset(true, interval))) {
                same++;
                withOutput += flink.multiset(false, false).isEmpty() ? 0 : 1;
                withLate += cepheus.multiset(false, true).keySet().stream().anyMatch(s -> s.contains("LATE")) ? 1 : 0;
                continue;
            }
            if (interval
                    && IntervalJoinModel.run(c, false).multiset(false, true).equals(flink.multiset(false, true))
                    && IntervalJoinModel.run(c, true).multiset(false, true).equals(cepheus.multiset(false, true))) {
                boundary++;
                continue;
            }
            differences.add(c + "\n    Flink:   " + flink + "\n    Cepheus: " + cepheus);
        }
        int compared = same + boundary + differences.size();
        System.out.printf("%s agreement with Flink: %d cases from seed %d: %d the same, %d differing only by the"
                + " documented cleanup boundary, %d refused by both, %d different. Same cases with output %d, with"
                + " late elements %d%n", family, CASES, FIRST_SEED, same, boundary, refused, differences.size(),
                withOutput, withLate);
        if (!differences.isEmpty()) {
            fail(differences.size() + " of " + compared + " " + family + " cases differ from Flink; the first "
                    + Math.min(SHOWN, differences.size()) + ":\n"
                    + String.join("\n", differences.subList(0, Math.min(SHOWN, differences.size()))));
        }
        assertTrue(same >= compared / 2, "too few cases the same: " + same + " of " + compared);
        assertTrue(withOutput >= same / 2, "too few cases with output: " + withOutput);
        assertTrue(withLate >= same / 10, "too few cases with late elements: " + withLate);
    }

    /**
     * Snapshots: the same cases, each Cepheus run cut at a random input item, snapshotted there and continued by a
     * fresh engine restored from the snapshot (on the same clock); both engines together must emit what Flink emits
     * uninterrupted, by the rules of the uncut tests. Window joins and coGroups also in processing time, on the
     * cases near time zero. {@code -Dcepheus.agreement.restoreCases=N} (default 300 per family).
     */
    @ParameterizedTest(name = "{0} across a snapshot and restore")
    @ValueSource(strings = {"ij", "wj", "cg"})
    void restoredFromASnapshotCepheusEmitsWhatFlinksJoinOperatorsEmit(String family) throws Exception {
        int cases = Integer.getInteger("cepheus.agreement.restoreCases", 300);
        boolean interval = family.equals("ij");
        int same = 0;
        int boundary = 0;
        int skipped = 0;
        List<String> differences = new ArrayList<>();
        for (long seed = FIRST_SEED; seed < FIRST_SEED + cases; seed++) {
            for (boolean processingTime : interval ? new boolean[] {false} : new boolean[] {false, true}) {
                RandomJoinCase drawn = RandomJoinCase.draw(seed, family);
                RandomJoinCase c = processingTime ? drawn.inProcessingTime() : drawn;
                if (processingTime && !c.nearZero()) {
                    skipped++;
                    continue;
                }
                int cut = new java.util.Random(seed ^ 0x5A5A).nextInt(c.input().size() + 2);
                JoinOutputs flink = interval ? FlinkJoinReplay.intervalJoin(c) : FlinkJoinReplay.windowJoin(c);
                JoinOutputs cepheus = interval ? CepheusJoinReplay.intervalJoin(c, cut)
                        : CepheusJoinReplay.windowJoin(c, cut);
                if (flink.error() != null || cepheus.error() != null) {
                    if (!Objects.equals(flink.error(), cepheus.error())) {
                        differences.add(c + " cut at " + cut + "\n    Flink:   " + flink + "\n    Cepheus: " + cepheus);
                    } else {
                        skipped++;
                    }
                    continue;
                }
                boolean lateToo = interval && !processingTime;
                if (flink.multiset(true, lateToo).equals(cepheus.multiset(true, lateToo))) {
                    same++;
                } else if (interval
                        && IntervalJoinModel.run(c, false).multiset(false, true).equals(flink.multiset(false, true))
                        && IntervalJoinModel.run(c, true).multiset(false, true).equals(cepheus.multiset(false, true))) {
                    boundary++;
                } else {
                    differences.add(c + (processingTime ? " in processing time" : "") + " cut at " + cut
                            + "\n    Flink:   " + flink + "\n    Cepheus: " + cepheus);
                }
            }
        }
        System.out.printf("%s agreement with Flink across a snapshot and restore: %d cases from seed %d: %d the same,"
                + " %d differing only by the documented cleanup boundary, %d different, %d skipped%n", family, cases,
                FIRST_SEED, same, boundary, differences.size(), skipped);
        if (!differences.isEmpty()) {
            fail(differences.size() + " " + family + " restored cases differ from Flink; the first "
                    + Math.min(SHOWN, differences.size()) + ":\n"
                    + String.join("\n", differences.subList(0, Math.min(SHOWN, differences.size()))));
        }
        assertTrue(same >= cases / 2, "too few cases the same: " + same);
    }
}
