package io.cepheus.benchmarks.workloads;

/**
 * One event of a benchmark workload, the object handed to the matcher. The same values are also kept in the
 * primitive arrays of {@link WorkloadStream}, which the runner reads for keys and timestamps.
 *
 * @param key   the partition key
 * @param type  the event type letter (F, N, A, B, C, X, O, S)
 * @param value a uniform value in [0, 1000), unused by the patterns but part of the stream definition
 * @param ts    the event time in milliseconds
 */
public record BenchEvent(int key, char type, int value, long ts) {
}
