package io.cepheus.benchmarks.compare;

/**
 * Two engines (or an engine and the specification) produced different results on the same input: no speed may
 * be reported for that comparison.
 */
public final class ResultMismatchException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message what differs, naming the comparison, the engines and both results */
    public ResultMismatchException(String message) {
        super(message);
    }
}
