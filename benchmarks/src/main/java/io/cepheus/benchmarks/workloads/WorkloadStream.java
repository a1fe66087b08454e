package io.cepheus.benchmarks.workloads;

/**
 * A generated workload stream. Keys and timestamps (and types and values) are kept in primitive arrays so the
 * runner's loop reads them without touching the event objects; the {@link BenchEvent} objects exist because
 * the matcher takes an event object. The arrays are shared, not copied: callers must not modify them.
 */
public final class WorkloadStream {

    private final Workload workload;
    private final long seed;
    private final int[] keys;
    private final char[] types;
    private final int[] values;
    private final long[] timestamps;
    private final BenchEvent[] events;

    WorkloadStream(Workload workload, long seed, int[] keys, char[] types, int[] values, long[] timestamps,
            BenchEvent[] events) {
        this.workload = workload;
        this.seed = seed;
        this.keys = keys;
        this.types = types;
        this.values = values;
        this.timestamps = timestamps;
        this.events = events;
    }

    /** @return the workload this stream was generated for */
    public Workload workload() {
        return workload;
    }

    /** @return the generator seed */
    public long seed() {
        return seed;
    }

    /** @return the number of events */
    public int size() {
        return keys.length;
    }

    /** @return each event's key (shared array, do not modify) */
    public int[] keys() {
        return keys;
    }

    /** @return each event's type letter (shared array, do not modify) */
    public char[] types() {
        return types;
    }

    /** @return each event's value (shared array, do not modify) */
    public int[] values() {
        return values;
    }

    /** @return each event's time in milliseconds, strictly increasing (shared array, do not modify) */
    public long[] timestamps() {
        return timestamps;
    }

    /** @return the event objects handed to the matcher (shared array, do not modify) */
    public BenchEvent[] events() {
        return events;
    }
}
