package io.cepheus.nfa.conformance;

/**
 * The result of one conformance case.
 *
 * @param file   the {@code .case} file name
 * @param name   the case name
 * @param passed whether the output agreed with the expected file
 * @param report for a failure: the unified diff (expected vs actual) and any crash's stack trace, or what
 *               else went wrong; empty when passed
 */
public record CaseVerdict(String file, String name, boolean passed, String report) {

    /**
     * @param file the file name
     * @param name the case name
     * @return a passing verdict
     */
    public static CaseVerdict pass(String file, String name) {
        return new CaseVerdict(file, name, true, "");
    }

    /**
     * @param file   the file name
     * @param name   the case name
     * @param report why it failed
     * @return a failing verdict
     */
    public static CaseVerdict fail(String file, String name, String report) {
        return new CaseVerdict(file, name, false, report);
    }
}
