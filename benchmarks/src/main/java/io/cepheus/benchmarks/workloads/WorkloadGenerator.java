package io.cepheus.benchmarks.workloads;

import java.util.SplittableRandom;

/**
 * Generates a workload stream exactly as {@code benchmarks/WORKLOADS.md} defines it, so the counts there
 * apply. Any change to the order or kind of random draws changes every count: keep this in step with the spec.
 */
public final class WorkloadGenerator {

    /** The time of the first event (2023-11-14T22:13:20Z). */
    public static final long FIRST_TIMESTAMP = 1_700_000_000_000L;

    /** Spreads the workload ordinal over the seed bits (the 64-bit golden ratio, as in the spec). */
    private static final long ORDINAL_SPREAD = 0x9E3779B97F4A7C15L;

    /** Values are uniform in [0, VALUE_BOUND). */
    private static final int VALUE_BOUND = 1000;

    private WorkloadGenerator() {
    }

    /**
     * @param workload the workload
     * @return its stream for {@link Workload#DEFAULT_SEED}, the seed the expected counts are for
     */
    public static WorkloadStream generate(Workload workload) {
        return generate(workload, Workload.DEFAULT_SEED);
    }

    /**
     * @param workload the workload
     * @param seed     the seed
     * @return the stream of {@code workload.events()} events
     */
    public static WorkloadStream generate(Workload workload, long seed) {
        return generate(workload, workload.ordinal(), seed);
    }

    /**
     * A stream of another workload's shape under its own ordinal: W5 ({@link ManyRulesWorkload}) is W2's shape with
     * ordinal 4.
     *
     * @param shape   the workload whose parameters (events, keys, types, step) the stream has
     * @param ordinal the ordinal spread into the seed
     * @param seed    the seed
     * @return the stream, which names {@code shape} as its workload
     */
    public static WorkloadStream generate(Workload shape, int ordinal, long seed) {
        Workload workload = shape;
        int n = workload.events();
        int[] keys = new int[n];
        char[] types = new char[n];
        int[] values = new int[n];
        long[] timestamps = new long[n];
        BenchEvent[] events = new BenchEvent[n];
        SplittableRandom rng = new SplittableRandom(seed ^ (ordinal * ORDINAL_SPREAD));
        for (int i = 0; i < n; i++) {
            // the draw order (type, key, value) is part of the spec
            char type = pickType(workload, rng.nextDouble());
            int key = rng.nextInt(workload.keys());
            int value = rng.nextInt(VALUE_BOUND);
            long ts = FIRST_TIMESTAMP + i * workload.stepMs();
            keys[i] = key;
            types[i] = type;
            values[i] = value;
            timestamps[i] = ts;
            events[i] = new BenchEvent(key, type, value, ts);
        }
        return new WorkloadStream(workload, seed, keys, types, values, timestamps, events);
    }

    /** The first type j with u &lt; p0 + ... + pj (summed left to right, as the spec does), else the last. */
    private static char pickType(Workload workload, double u) {
        double cumulative = 0;
        int last = workload.typeCount() - 1;
        for (int j = 0; j < last; j++) {
            cumulative += workload.probability(j);
            if (u < cumulative) {
                return workload.type(j);
            }
        }
        return workload.type(last);
    }
}
