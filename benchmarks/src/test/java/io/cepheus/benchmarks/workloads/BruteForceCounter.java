package io.cepheus.benchmarks.workloads;

/**
 * Counts the matches of W1-W4 directly from the workload definitions, without any NFA: per key, a plain
 * scan over that key's events. It pins the generator (and the checksum) to WORKLOADS.md independently of the
 * engine, so when the engine's counts differ, it is clear which side is wrong.
 *
 * <p>Semantics encoded here (Flink CEP's, no after-match skip, a match needs last - first &lt; window):
 * <ul>
 *   <li>W1: every 5 consecutive events of a key that are all F.</li>
 *   <li>W2: every A, with the first B after it and the first C after that B.</li>
 *   <li>W3: every A, every run b_j..b_k of consecutive Bs (in the key's B subsequence) after it, and the
 *       first C after b_k.</li>
 *   <li>W4: every O with the first S after it; an O without one inside the window times out.</li>
 * </ul>
 */
final class BruteForceCounter {

    private final WorkloadStream stream;
    private final int[][] eventsByKey;
    private long matches;
    private long timeouts;
    private long checksum;

    private BruteForceCounter(WorkloadStream stream) {
        this.stream = stream;
        this.eventsByKey = groupByKey(stream);
    }

    /**
     * @param stream a workload stream
     * @return its matches, timeouts (W4 only; 0 otherwise) and checksum
     */
    static RunResult count(WorkloadStream stream) {
        BruteForceCounter counter = new BruteForceCounter(stream);
        for (int[] events : counter.eventsByKey) {
            switch (stream.workload()) {
                case W1 -> counter.fiveConsecutiveF(events);
                case W2 -> counter.abcSequence(events);
                case W3 -> counter.abPlusC(events);
                case W4 -> counter.orderShipped(events);
            }
        }
        return new RunResult(counter.matches, counter.timeouts, counter.checksum);
    }

    private void fiveConsecutiveF(int[] events) {
        char[] types = stream.types();
        for (int p = 0; p + 4 < events.length; p++) {
            boolean allF = true;
            for (int q = p; q <= p + 4 && allF; q++) {
                allF = types[events[q]] == 'F';
            }
            if (allF) {
                match(events[p], events[p + 4]);
            }
        }
    }

    private void abcSequence(int[] events) {
        char[] types = stream.types();
        for (int p = 0; p < events.length; p++) {
            if (types[events[p]] == 'A') {
                int b = firstOfType(events, p + 1, 'B');
                int c = b < 0 ? -1 : firstOfType(events, b + 1, 'C');
                if (c >= 0) {
                    match(events[p], events[c]);
                }
            }
        }
    }

    private void abPlusC(int[] events) {
        char[] types = stream.types();
        for (int p = 0; p < events.length; p++) {
            if (types[events[p]] != 'A') {
                continue;
            }
            // the k-th B after the A ends k runs (starting at the 1st..k-th B), all closed by the same C
            int k = 0;
            for (int q = p + 1; q < events.length; q++) {
                if (types[events[q]] == 'B') {
                    k++;
                    int c = firstOfType(events, q + 1, 'C');
                    if (c < 0 || !inWindow(events[p], events[c])) {
                        break; // later Bs have later closing Cs, also outside the window
                    }
                    for (int run = 0; run < k; run++) {
                        match(events[p], events[c]);
                    }
                }
            }
        }
    }

    private void orderShipped(int[] events) {
        char[] types = stream.types();
        for (int p = 0; p < events.length; p++) {
            if (types[events[p]] == 'O') {
                int s = firstOfType(events, p + 1, 'S');
                if (s >= 0 && inWindow(events[p], events[s])) {
                    match(events[p], events[s]);
                } else {
                    timeouts++;
                }
            }
        }
    }

    /** Counts a match if it fits the window. */
    private void match(int first, int last) {
        if (inWindow(first, last)) {
            matches++;
            checksum += MatchChecksum.mix(stream.timestamps()[first], stream.timestamps()[last]);
        }
    }

    private boolean inWindow(int first, int last) {
        long[] ts = stream.timestamps();
        return ts[last] - ts[first] < stream.workload().windowMs();
    }

    private int firstOfType(int[] events, int from, char type) {
        char[] types = stream.types();
        for (int q = from; q < events.length; q++) {
            if (types[events[q]] == type) {
                return q;
            }
        }
        return -1;
    }

    /** Event indices per key, in stream order (a counting sort). */
    private static int[][] groupByKey(WorkloadStream stream) {
        int[] keys = stream.keys();
        int[] sizes = new int[stream.workload().keys()];
        for (int key : keys) {
            sizes[key]++;
        }
        int[][] byKey = new int[sizes.length][];
        for (int k = 0; k < sizes.length; k++) {
            byKey[k] = new int[sizes[k]];
        }
        int[] filled = new int[sizes.length];
        for (int i = 0; i < keys.length; i++) {
            byKey[keys[i]][filled[keys[i]]++] = i;
        }
        return byKey;
    }
}
