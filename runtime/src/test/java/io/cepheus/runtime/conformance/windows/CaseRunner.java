package io.cepheus.runtime.conformance.windows;

import java.util.List;

/**
 * Runs one kind of window/join conformance case through the real engine and reports what it emitted, in the
 * expected file's line format ({@code WIN ...}, {@code PAIR ...}, {@code LATE ...}, {@code ERROR ...}).
 */
@FunctionalInterface
public interface CaseRunner {

    /**
     * @param windowCase the case
     * @return the output lines grouped by the input token that produced them, in token order, then one group for
     *         the end watermark; a configuration rejected when built gives one group holding
     *         {@code ERROR <ExceptionSimpleName>: <message>}
     */
    List<List<String>> run(WindowCase windowCase);
}
