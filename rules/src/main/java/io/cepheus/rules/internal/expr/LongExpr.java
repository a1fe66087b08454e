package io.cepheus.rules.internal.expr;

/** A node whose value is an integer (any Java integral primitive, widened), never null. */
abstract class LongExpr extends Expr {

    LongExpr(int pos) {
        super(pos);
    }

    /**
     * @param event the event being matched
     * @param scope the partial match, for aggregates; null in a simple condition
     * @return the value
     */
    abstract long evalLong(Object event, Scope scope);

    @Override
    final Object value(Object event, Scope scope) {
        return evalLong(event, scope);
    }
}
