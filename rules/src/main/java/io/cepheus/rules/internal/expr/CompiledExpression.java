package io.cepheus.rules.internal.expr;

import io.cepheus.pattern.Condition;
import io.cepheus.pattern.FieldRequirement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An expression compiled against an event type: immutable, shared by every thread that evaluates it.
 */
public final class CompiledExpression {

    private final String text;
    private final BoolExpr root;
    private final String[] stages;
    private final List<FieldRequirement<Object>> requirements;
    private final Map<String, Expr> fieldReaders;

    CompiledExpression(String text, BoolExpr root, String[] stages, List<FieldRequirement<Object>> requirements,
            Map<String, Expr> fieldReaders) {
        this.text = text;
        this.root = root;
        this.stages = stages;
        this.requirements = requirements;
        this.fieldReaders = fieldReaders;
    }

    /**
     * Reads the fields of the event the expression reads, for an explanation of its value (not on the matching
     * path: it allocates).
     *
     * @param event the event
     * @return each field as written ({@code card.country}) with its value on the event, in the order written; a
     *     value that cannot be read is a string saying why
     */
    public Map<String, Object> fieldValues(Object event) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, Expr> f : fieldReaders.entrySet()) {
            Object value;
            try {
                value = f.getValue().value(event, null);
            } catch (RuntimeException e) {
                value = "<cannot be read: " + e.getMessage() + ">";
            }
            out.put(f.getKey(), value);
        }
        return out;
    }

    /**
     * @return what an event this expression accepts requires of its fields (see {@code IndexableCondition}); empty
     *         for one with aggregates or that begins with anything but field tests
     */
    public List<FieldRequirement<Object>> requirements() {
        return requirements;
    }

    /** @return the expression as written */
    public String text() {
        return text;
    }

    /**
     * @return the compiled tree, for a condition without aggregates to evaluate straight from the matcher (one call
     *         less); what it throws goes through {@link #failure(RuntimeException)}
     */
    public BoolExpr root() {
        return root;
    }

    /**
     * @param error what the root threw
     * @return the failure it stands for, or null if it is not the expression's own (a getter that threw, say)
     */
    public static Failure failure(RuntimeException error) {
        return error instanceof EvalError e ? new Failure(e.pos, e.getMessage()) : null;
    }

    /** @return whether it reads the partial match (has an aggregate): then it is an iterative condition */
    public boolean isIterative() {
        return stages.length > 0;
    }

    /**
     * Evaluates an expression without aggregates.
     *
     * @param event the event
     * @return its value
     * @throws Failure if it cannot be evaluated for this event
     */
    public boolean test(Object event) {
        try {
            return root.test(event, null);
        } catch (EvalError e) {
            throw new Failure(e.pos, e.getMessage());
        }
    }

    /**
     * Evaluates an expression with aggregates.
     *
     * @param event   the event
     * @param context the partial match it would extend
     * @return its value
     * @throws Failure if it cannot be evaluated for this event
     */
    public boolean test(Object event, Condition.Context<?> context) {
        try {
            return root.test(event, stages.length == 0 ? null : new Scope(context, stages));
        } catch (EvalError e) {
            throw new Failure(e.pos, e.getMessage());
        }
    }

    /** Why an expression could not be evaluated for one event, and where in it. */
    public static final class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final int column;

        Failure(int column, String message) {
            super(message, null, false, false);
            this.column = column;
        }

        /** @return the 0-based column of the sub-expression that failed */
        public int column() {
            return column;
        }
    }
}
