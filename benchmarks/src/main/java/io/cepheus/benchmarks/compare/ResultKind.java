package io.cepheus.benchmarks.compare;

import io.cepheus.benchmarks.workloads.RunResult;
import java.util.Locale;

/**
 * What the two counts of a {@link RunResult} mean in a comparison, so the table says it in words. Every kind keeps
 * the same rule: both counts and the checksum must be equal between engines.
 */
public enum ResultKind {
    /** CEP: complete matches and timed-out partial matches. */
    CEP("matches", "timeouts"),
    /** Window aggregation: window results fired, and the element count summed over them (each element once per window). */
    WINDOW("windows fired", "elements counted"),
    /** Interval join: pairs emitted, and of them the pairs of an order with its own payment. */
    JOIN("pairs", "order with its own payment");

    private final String first;
    private final String second;

    ResultKind(String first, String second) {
        this.first = first;
        this.second = second;
    }

    /**
     * @param result a run's result
     * @return its counts in words, e.g. {@code 2,220 matches / 0 timeouts}
     */
    public String describe(RunResult result) {
        return String.format(Locale.ROOT, "%,d %s / %,d %s", result.matches(), first, result.timeouts(), second);
    }
}
