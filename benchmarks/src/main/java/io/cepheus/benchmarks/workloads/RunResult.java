package io.cepheus.benchmarks.workloads;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What one run of a workload produced.
 *
 * @param matches  complete matches
 * @param timeouts timed-out partial matches
 * @param checksum the {@link MatchChecksum} over the matches
 */
public record RunResult(long matches, long timeouts, long checksum) {

    /**
     * Compares with the counts WORKLOADS.md states (for the default seed). Timeouts are compared only for the
     * workloads that count them.
     *
     * @param workload the workload that was run
     * @return one line per difference, e.g. {@code matches: expected 2,220, got 2,219 (-1)}; empty if all agree
     */
    public List<String> differencesFrom(Workload workload) {
        List<String> out = new ArrayList<>();
        if (matches != workload.expectedMatches()) {
            out.add(String.format(Locale.ROOT, "matches: expected %,d, got %,d (%+,d)", workload.expectedMatches(),
                    matches, matches - workload.expectedMatches()));
        }
        if (workload.countsTimeouts() && timeouts != workload.expectedTimeouts()) {
            out.add(String.format(Locale.ROOT, "timeouts: expected %,d, got %,d (%+,d)",
                    workload.expectedTimeouts(), timeouts, timeouts - workload.expectedTimeouts()));
        }
        if (checksum != workload.expectedChecksum()) {
            out.add("checksum: expected " + MatchChecksum.hex(workload.expectedChecksum()) + ", got "
                    + MatchChecksum.hex(checksum));
        }
        return out;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "matches %,d, timeouts %,d, checksum %s", matches, timeouts,
                MatchChecksum.hex(checksum));
    }
}
