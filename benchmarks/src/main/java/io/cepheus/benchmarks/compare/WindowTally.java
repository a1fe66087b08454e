package io.cepheus.benchmarks.compare;

import io.cepheus.benchmarks.workloads.RunResult;
import java.io.Serializable;

/**
 * Counts window results and folds each into an order-independent checksum (a wrapping sum of a 64-bit hash of
 * {@code (watermark epoch, key, window start, window end, count, sum)}): two engines agree only if they fire the
 * same windows with the same contents <em>after the same watermark</em>, in whatever order within it. The epoch
 * is the number of watermarks given to the engine so far, set by the driver before each watermark is processed.
 *
 * <p>Owned by the thread that drives the engine (both engines run their result handlers on it). Serializable only
 * because Flink checks that the window function holding it is.
 */
final class WindowTally implements Serializable {

    private static final long serialVersionUID = 1L;

    private long epoch;
    private long results;
    private long counted;
    private long checksum;

    /** The driver is about to hand the engine its next watermark. */
    void nextWatermark() {
        epoch++;
    }

    /** @param watermarks results from now on count as fired by the watermark with this number (from 1) */
    void epoch(long watermarks) {
        epoch = watermarks;
    }

    /**
     * @param key   the result's key
     * @param start the window's start
     * @param end   the window's end (exclusive)
     * @param count elements in the window
     * @param sum   their amounts' sum
     */
    void result(int key, long start, long end, long count, long sum) {
        results++;
        counted += count;
        long h = mix(epoch);
        h = mix(h ^ key);
        h = mix(h ^ start);
        h = mix(h ^ end);
        h = mix(h ^ count);
        checksum += mix(h ^ sum);
    }

    /** @return results fired, elements counted over them, checksum */
    RunResult result() {
        return new RunResult(results, counted, checksum);
    }

    /** The SplitMix64 finaliser: a bijection of 64-bit values that spreads every input bit. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
