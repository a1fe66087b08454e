package io.cepheus.rules;

/**
 * An expression that could not be evaluated for one event: an integer overflow, a division by zero, a value of a
 * map event that is not of the type the expression needs. The matcher reports it as a condition failure naming the
 * stage, and the engine sends the event to the pattern's dead letters (or its error handler), as with a Java
 * condition that throws. The message names the rule and stage and shows the expression with a caret under the part
 * that failed.
 */
public final class ExpressionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The rule with its version, or null for an expression built in code. */
    private final String ruleId;
    /** The stage whose condition it is, or null. */
    private final String stage;
    /** The expression. */
    private final String expression;
    /** The 0-based column of the part that failed. */
    private final int column;
    /** What went wrong. */
    private final String problem;

    /**
     * @param ruleId     the rule (with its version, as in {@code "brute-force v3"}), or null for an expression built in
     *                   code
     * @param stage      the stage whose condition it is, or null if unknown
     * @param expression the expression
     * @param column     the 0-based column of the part that failed
     * @param problem    what went wrong
     */
    public ExpressionException(String ruleId, String stage, String expression, int column, String problem) {
        super((ruleId == null ? "" : "rule " + ruleId + ", ") + (stage == null ? "" : "stage '" + stage + "', ")
                + "expression: " + problem + "\n" + io.cepheus.rules.internal.format.Problem.caret(expression, column),
                null, true, true);
        this.ruleId = ruleId;
        this.stage = stage;
        this.expression = expression;
        this.column = column;
        this.problem = problem;
    }

    /** @return the rule and its version ({@code "brute-force v3"}), or null for an expression built in code */
    public String ruleId() {
        return ruleId;
    }

    /** @return the stage, or null if unknown */
    public String stage() {
        return stage;
    }

    /** @return the expression */
    public String expression() {
        return expression;
    }

    /** @return the 0-based column of the part that failed */
    public int column() {
        return column;
    }

    /** @return what went wrong, without the location */
    public String problem() {
        return problem;
    }
}
