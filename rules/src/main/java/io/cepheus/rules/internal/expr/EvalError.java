package io.cepheus.rules.internal.expr;

/**
 * An expression could not be evaluated for one event (integer overflow, division by zero, a map value of the wrong
 * type). Cheap to throw (no stack trace): the compiled condition turns it into the public exception that names the
 * rule, the stage and the expression, and the event becomes a dead letter.
 */
final class EvalError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The column of the sub-expression that failed. */
    final int pos;

    EvalError(int pos, String message) {
        super(message, null, false, false);
        this.pos = pos;
    }
}
