package io.cepheus.benchmarks.compare;

import io.cepheus.benchmarks.workloads.RunResult;

/**
 * One run of one engine over a comparison's whole input. The harness calls {@link #feed()} exactly once,
 * timed, and measures the heap still reachable from the trial afterwards (its state) before calling
 * {@link #close()}, so an implementation must keep its engine and state referenced until it is closed.
 *
 * <p>Owned by the harness thread: built, fed and closed on it.
 */
public interface Trial extends AutoCloseable {

    /**
     * Processes every input element, then ends the input (final watermark, flush), so every result is out.
     *
     * @return what the engine produced: results (matches), timeouts, and the checksum over the results
     * @throws Exception whatever the engine throws
     */
    RunResult feed() throws Exception;

    /** Releases the engine and its state. */
    @Override
    void close() throws Exception;
}
