package io.cepheus.benchmarks;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Measures the cost of a dependent memory load for working sets of growing size (a random pointer chase,
 * one load per 64-byte line). It tells how much per-key state fits in the caches of the machine at hand:
 * a keyed workload whose per-key state exceeds that pays roughly this latency for every key it touches, so
 * it bounds what any engine can reach on W2 (10,000 keys) and W4 (50,000 keys).
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar io.cepheus.benchmarks.MemoryLatencyProbe</pre>
 */
public final class MemoryLatencyProbe {

    private MemoryLatencyProbe() {
    }

    /** @param args ignored */
    public static void main(String[] args) {
        for (int kb : new int[] {64, 256, 1024, 2048, 4096, 16384, 65536}) {
            System.out.printf(Locale.ROOT, "%,8d KB working set: %6.1f ns per dependent load%n", kb, probe(kb));
        }
    }

    private static double probe(int kb) {
        int lines = kb * 1024 / 64;
        int stride = 16; // ints per 64-byte line
        int[] next = new int[lines * stride];
        int[] order = new int[lines];
        for (int i = 0; i < lines; i++) {
            order[i] = i;
        }
        SplittableRandom random = new SplittableRandom(42);
        for (int i = lines - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int i = 0; i < lines; i++) {
            next[order[i] * stride] = order[(i + 1) % lines] * stride;
        }
        long steps = 10_000_000;
        int p = 0;
        double best = Double.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            long t0 = StopwatchClock.nanos();
            for (long s = 0; s < steps; s++) {
                p = next[p];
            }
            best = Math.min(best, (StopwatchClock.nanos() - t0) / (double) steps);
        }
        if (p == -1) {
            System.out.println("unreachable");
        }
        return best;
    }
}
