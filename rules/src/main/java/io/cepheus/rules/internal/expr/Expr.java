package io.cepheus.rules.internal.expr;

/**
 * A compiled expression node. Every node can give its value boxed ({@link #value}); the nodes whose type the
 * compiler knows to be a primitive ({@link BoolExpr}, {@link LongExpr}, {@link DoubleExpr}, {@link CharExpr}) also
 * give it unboxed, and the compiler wires primitive operands to primitive operators, so that a comparison of an
 * {@code int}, {@code long} or {@code double} field with a number allocates nothing.
 *
 * <p>Nodes are immutable and shared by every thread that evaluates the condition (one per shard); what one
 * evaluation needs of the partial match lives in its {@link Scope}.
 */
abstract class Expr {

    /** The column of the expression this node was compiled from, for the messages of evaluation errors. */
    final int pos;

    Expr(int pos) {
        this.pos = pos;
    }

    /**
     * @param event the event being matched
     * @param scope the partial match, for aggregates; null in a simple condition
     * @return the value: a {@link Long}, {@link Double}, {@link String}, {@link Boolean}, another field value, or null
     * @throws EvalError if the value cannot be computed for this event (overflow, division by zero, a type
     *                   mismatch in a map event)
     */
    abstract Object value(Object event, Scope scope);

    /** @return whether the node's value does not depend on the event or the partial match */
    boolean isConstant() {
        return false;
    }
}
