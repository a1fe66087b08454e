package io.cepheus.benchmarks.compare;

import io.cepheus.benchmarks.workloads.BenchEvent;
import io.cepheus.benchmarks.workloads.Workload;
import io.cepheus.benchmarks.workloads.WorkloadStream;

/**
 * The first {@code length} events of a generated workload stream: what both engines of a CEP comparison are
 * fed. The arrays are the stream's own (shared, never modified); only the first {@code length} are read.
 *
 * @param workload   the workload the stream was generated for
 * @param length     how many events to feed, at most the stream's size
 * @param keys       each event's key
 * @param timestamps each event's time, strictly increasing
 * @param events     the event objects
 */
public record CepInput(Workload workload, int length, int[] keys, long[] timestamps, BenchEvent[] events) {

    /** Checks the length against the arrays. */
    public CepInput {
        if (length < 1 || length > events.length || keys.length != events.length
                || timestamps.length != events.length) {
            throw new IllegalArgumentException(workload + ": cannot take " + length + " of " + events.length
                    + " events");
        }
    }

    /**
     * @param stream the generated stream
     * @param length how many of its events to take ({@code stream.size()} for all)
     * @return its first {@code length} events
     */
    public static CepInput prefix(WorkloadStream stream, int length) {
        return new CepInput(stream.workload(), length, stream.keys(), stream.timestamps(), stream.events());
    }

    /** @return whether this is the whole stream, so WORKLOADS.md's counts apply */
    public boolean isWholeStream() {
        return length == workload.events() && length == events.length;
    }
}
