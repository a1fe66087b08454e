package io.cepheus.benchmarks.workloads;

/**
 * The four workloads of {@code benchmarks/WORKLOADS.md}: the stream parameters and the counts every correct
 * engine must report for seed 42. The patterns themselves are built by {@link Workloads}.
 */
public enum Workload {
    /** Fraud: five consecutive F events of a key within 10 minutes. */
    W1(1_000_000, 10_000, 1, "FN", new double[] {0.30, 0.70}, 600_000,
            2_220, Constants.NOT_COUNTED, "7d79d952e9b4caab"),
    /** Sequence: A, then B, then C of a key within one minute. */
    W2(1_000_000, 10_000, 1, "ABCX", new double[] {0.25, 0.25, 0.25, 0.25}, 60_000,
            106_581, Constants.NOT_COUNTED, "b7440c5743a2ebf5"),
    /** Kleene closure: A, any run of Bs, then C within 30 seconds. */
    W3(200_000, 1_000, 5, "ABCX", new double[] {0.20, 0.50, 0.15, 0.15}, 30_000,
            83_031, Constants.NOT_COUNTED, "eb1fb4cd4893157a"),
    /** Absence: an order O that is (or is not) shipped S within one hour; the unshipped ones time out. */
    W4(1_000_000, 50_000, 10, "OSX", new double[] {0.45, 0.40, 0.15}, 3_600_000,
            380_698, 69_354, "86fde9db71644037");

    /** The seed the expected counts are for. */
    public static final long DEFAULT_SEED = 42;

    /** Marks a workload whose timeouts WORKLOADS.md does not count. */
    public static final long NOT_COUNTED_TIMEOUTS = Constants.NOT_COUNTED;

    // Enum constant arguments may not refer to the enum's own static fields (illegal forward reference).
    private static final class Constants {
        static final long NOT_COUNTED = -1;
    }

    private final int events;
    private final int keys;
    private final long stepMs;
    private final String types;
    private final double[] probabilities;
    private final long windowMs;
    private final long expectedMatches;
    private final long expectedTimeouts;
    private final long expectedChecksum;

    Workload(int events, int keys, long stepMs, String types, double[] probabilities, long windowMs,
            long expectedMatches, long expectedTimeouts, String expectedChecksumHex) {
        this.events = events;
        this.keys = keys;
        this.stepMs = stepMs;
        this.types = types;
        this.probabilities = probabilities;
        this.windowMs = windowMs;
        this.expectedMatches = expectedMatches;
        this.expectedTimeouts = expectedTimeouts;
        this.expectedChecksum = Long.parseUnsignedLong(expectedChecksumHex, 16);
    }

    /** @return the number of events in the stream */
    public int events() {
        return events;
    }

    /** @return the number of distinct keys events are drawn from */
    public int keys() {
        return keys;
    }

    /** @return milliseconds between consecutive events */
    public long stepMs() {
        return stepMs;
    }

    /** @return the number of event types */
    public int typeCount() {
        return types.length();
    }

    /**
     * @param index a type index
     * @return the type letter
     */
    public char type(int index) {
        return types.charAt(index);
    }

    /**
     * @param index a type index
     * @return that type's probability
     */
    public double probability(int index) {
        return probabilities[index];
    }

    /** @return the pattern window in milliseconds */
    public long windowMs() {
        return windowMs;
    }

    /** @return the match count for {@link #DEFAULT_SEED} */
    public long expectedMatches() {
        return expectedMatches;
    }

    /** @return the timeout count for {@link #DEFAULT_SEED}, or {@link #NOT_COUNTED_TIMEOUTS} */
    public long expectedTimeouts() {
        return expectedTimeouts;
    }

    /** @return whether WORKLOADS.md states a timeout count for this workload */
    public boolean countsTimeouts() {
        return expectedTimeouts != NOT_COUNTED_TIMEOUTS;
    }

    /** @return the match checksum for {@link #DEFAULT_SEED} (see {@link MatchChecksum}) */
    public long expectedChecksum() {
        return expectedChecksum;
    }
}
