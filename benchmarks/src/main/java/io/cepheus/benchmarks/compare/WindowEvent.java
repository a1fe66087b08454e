package io.cepheus.benchmarks.compare;

/**
 * An element of the window workload: a keyed amount at an event time.
 *
 * @param key    the key, {@code 0 <= key < WindowInput.KEYS}
 * @param amount the amount summed per window, 1 to 100
 * @param ts     the event time in epoch milliseconds
 */
public record WindowEvent(int key, long amount, long ts) {
}
