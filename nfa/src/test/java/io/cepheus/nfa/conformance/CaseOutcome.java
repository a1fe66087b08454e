package io.cepheus.nfa.conformance;

import java.util.List;

/**
 * What running one case printed.
 *
 * @param name  the case name
 * @param lines the output, starting with {@code == <name>}
 * @param crash an exception that is not a rejected pattern (an engine or case-file fault), else null; the
 *              lines then end with a {@code CRASH} line
 */
public record CaseOutcome(String name, List<String> lines, Throwable crash) {

    /** Copies the lines. */
    public CaseOutcome {
        lines = List.copyOf(lines);
    }
}
