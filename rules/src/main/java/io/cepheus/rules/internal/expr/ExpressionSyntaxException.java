package io.cepheus.rules.internal.expr;

/**
 * What is wrong with an expression, and where: the column (0-based offset into the expression) the reader should
 * look at. The rule reader turns it into a {@code RuleFormatException} that names the rule, the JSON path and shows
 * the expression with a caret under the column.
 */
public final class ExpressionSyntaxException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int column;

    /**
     * @param column  0-based offset into the expression
     * @param message what is wrong, without the position
     */
    public ExpressionSyntaxException(int column, String message) {
        super(message, null, false, false);
        this.column = column;
    }

    /** @return the 0-based offset into the expression where the problem is */
    public int column() {
        return column;
    }
}
