package io.cepheus.rules.internal.expr;

/** A node whose value is a decimal ({@code float} or {@code double}, widened), never null. */
abstract class DoubleExpr extends Expr {

    DoubleExpr(int pos) {
        super(pos);
    }

    /**
     * @param event the event being matched
     * @param scope the partial match, for aggregates; null in a simple condition
     * @return the value
     */
    abstract double evalDouble(Object event, Scope scope);

    @Override
    final Object value(Object event, Scope scope) {
        return evalDouble(event, scope);
    }
}
