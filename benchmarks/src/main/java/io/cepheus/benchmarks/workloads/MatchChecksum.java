package io.cepheus.benchmarks.workloads;

/**
 * The order-independent match checksum of WORKLOADS.md: the wrapping sum over matches of
 * {@code mix(first event time, last event time)}. Two engines with the same count but different matches
 * almost surely differ here.
 */
public final class MatchChecksum {

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private MatchChecksum() {
    }

    /**
     * @param firstTs the time of the match's oldest event
     * @param lastTs  the time of its newest event
     * @return {@code h ^ (h >>> 29)} with {@code h = firstTs * 0x9E3779B97F4A7C15 + lastTs} (64-bit, wrapping)
     */
    public static long mix(long firstTs, long lastTs) {
        long h = firstTs * GOLDEN + lastTs;
        return h ^ (h >>> 29);
    }

    /**
     * @param checksum a checksum
     * @return it as 16 lowercase hex digits, as WORKLOADS.md writes them
     */
    public static String hex(long checksum) {
        return String.format("%016x", checksum);
    }
}
