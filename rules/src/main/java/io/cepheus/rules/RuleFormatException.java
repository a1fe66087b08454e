package io.cepheus.rules;

/**
 * A rule that cannot be read or compiled, and where it is wrong: the rule's id (when it could be read), the JSON path
 * of the offending value ({@code pattern.nodes[2].quantifier.times.from}), its line and column in the source when
 * known, and what is wrong. An expression's problem shows the expression with a caret under the column. Rules the
 * pattern builder would refuse (a NOT stage after an optional one, {@code until} on a stage that does not loop ...)
 * are refused with the builder's words, and the {@link io.cepheus.pattern.MalformedPatternException} as the cause.
 */
public final class RuleFormatException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The rule's id, or null if it could not be read. */
    private final String ruleId;
    /** Where the rule came from, or null. */
    private final String source;
    /** The JSON path of the offending value. */
    private final String path;
    /** The 1-based line in the source, or -1. */
    private final int line;
    /** The 1-based column in the source, or -1. */
    private final int column;
    /** What is wrong. */
    private final String problem;

    /**
     * @param ruleId  the rule's id, or null if it could not be read
     * @param source  where the rule came from (a file name), or null
     * @param path    the JSON path of the offending value ({@code ""} for the whole document)
     * @param line    the 1-based line in the source, or -1 if unknown
     * @param column  the 1-based column in the source, or -1 if unknown
     * @param problem what is wrong
     * @param cause   the underlying failure, or null
     */
    public RuleFormatException(String ruleId, String source, String path, int line, int column, String problem,
            Throwable cause) {
        super(message(ruleId, source, path, line, column, problem), cause);
        this.ruleId = ruleId;
        this.source = source;
        this.path = path == null ? "" : path;
        this.line = line;
        this.column = column;
        this.problem = problem;
    }

    private static String message(String ruleId, String source, String path, int line, int column, String problem) {
        StringBuilder sb = new StringBuilder();
        sb.append(ruleId == null ? "rule" : "rule '" + ruleId + "'");
        if (source != null) {
            sb.append(" (").append(source).append(')');
        }
        if (path != null && !path.isEmpty()) {
            sb.append(", ").append(path);
        }
        if (line > 0) {
            sb.append(" (line ").append(line);
            if (column > 0) {
                sb.append(", column ").append(column);
            }
            sb.append(')');
        }
        return sb.append(": ").append(problem).toString();
    }

    /** @return the rule's id, or null if the document was unreadable before its id */
    public String ruleId() {
        return ruleId;
    }

    /** @return where the rule came from (a file name), or null */
    public String source() {
        return source;
    }

    /** @return the JSON path of the offending value, e.g. {@code pattern.nodes[2].quantifier.times.from}; empty for the document */
    public String path() {
        return path;
    }

    /** @return the 1-based line of the offending value, or -1 if unknown */
    public int line() {
        return line;
    }

    /** @return the 1-based column of the offending value, or -1 if unknown */
    public int column() {
        return column;
    }

    /** @return what is wrong, without the location */
    public String problem() {
        return problem;
    }
}
