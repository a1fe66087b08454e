package io.cepheus.rules.internal.expr;

/**
 * A node whose value is a boolean, never null: every compiled condition's root. Public only so that a condition
 * without aggregates can call its root directly ({@link CompiledExpression#root()}); this package is internal.
 */
public abstract class BoolExpr extends Expr {

    BoolExpr(int pos) {
        super(pos);
    }

    /**
     * @param event the event being matched
     * @param scope the partial match, for aggregates; null in a simple condition
     * @return the value
     */
    public abstract boolean test(Object event, Scope scope);

    @Override
    final Object value(Object event, Scope scope) {
        return test(event, scope);
    }
}
