package io.cepheus.rules.internal.expr;

import io.cepheus.pattern.FieldRequirement;

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

    /**
     * @return whether this node only compares a field of the event with constants: evaluating it fails only where
     *         reading the field fails
     */
    boolean isFieldTest() {
        return false;
    }

    /**
     * @param field the name of the field it reads
     * @return what this field test requires of the field, for indexing; null if it states nothing (a negation)
     */
    FieldRequirement<Object> requirement(String field) {
        return null;
    }

    @Override
    final Object value(Object event, Scope scope) {
        return test(event, scope);
    }
}
