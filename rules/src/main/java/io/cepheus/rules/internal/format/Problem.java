package io.cepheus.rules.internal.format;

import io.cepheus.rules.RuleFormatException;
import io.cepheus.rules.internal.json.Json;

/**
 * Makes the {@link RuleFormatException}s of one document: it knows the rule's id (once read) and source, so that
 * every check only says where and what.
 */
public final class Problem {

    private String ruleId;
    private final String source;

    /**
     * @param ruleId the rule's id if known already (a bare graph's file name), else null
     * @param source where the document came from, or null
     */
    public Problem(String ruleId, String source) {
        this.ruleId = ruleId;
        this.source = source;
    }

    /** @param id the rule's id, once read */
    void ruleId(String id) {
        this.ruleId = id;
    }

    /** @return the rule's id, or null while unknown */
    public String ruleId() {
        return ruleId;
    }

    /** @return where the document came from, or null */
    public String source() {
        return source;
    }

    /**
     * @param path    the JSON path of the value
     * @param at      the value (for its line and column), or null
     * @param message what is wrong
     * @return the exception to throw
     */
    public RuleFormatException at(String path, Json at, String message) {
        return new RuleFormatException(ruleId, source, path, at == null ? -1 : at.line(), at == null ? -1 : at.column(),
                message, null);
    }

    /**
     * @param path    the JSON path of the value
     * @param line    its line, or -1
     * @param column  its column, or -1
     * @param message what is wrong
     * @param cause   the underlying failure, or null
     * @return the exception to throw
     */
    public RuleFormatException at(String path, int line, int column, String message, Throwable cause) {
        return new RuleFormatException(ruleId, source, path, line, column, message, cause);
    }

    /**
     * An expression's problem, with the expression shown and a caret under the column.
     *
     * @param path       the JSON path of the expression string
     * @param at         the expression's JSON value, or null
     * @param expression the expression
     * @param column     the 0-based column in the expression
     * @param message    what is wrong
     * @param cause      the underlying failure, or null
     * @return the exception to throw
     */
    public RuleFormatException inExpression(String path, Json at, String expression, int column, String message,
            Throwable cause) {
        return new RuleFormatException(ruleId, source, path, at == null ? -1 : at.line(),
                at == null ? -1 : at.column(), message + "\n" + caret(expression, column), cause);
    }

    /** @return the expression on one line and a caret under {@code column}, both indented */
    public static String caret(String expression, int column) {
        // an expression on several lines is shown on one: the caret must stand under the right character
        String flat = expression.replace('\n', ' ').replace('\r', ' ').replace('\t', ' ');
        int at = Math.max(0, Math.min(column, flat.length()));
        int from = 0;
        int to = flat.length();
        if (flat.length() > 100) {
            from = Math.max(0, at - 50);
            to = Math.min(flat.length(), from + 100);
        }
        String shown = (from > 0 ? "..." : "") + flat.substring(from, to) + (to < flat.length() ? "..." : "");
        int caretAt = at - from + (from > 0 ? 3 : 0);
        return "    " + shown + "\n    " + " ".repeat(caretAt) + "^";
    }
}
