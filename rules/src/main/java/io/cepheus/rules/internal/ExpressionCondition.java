package io.cepheus.rules.internal;

import io.cepheus.pattern.Condition;
import io.cepheus.pattern.FieldRequirement;
import io.cepheus.pattern.IndexableCondition;
import io.cepheus.pattern.IterativeCondition;
import io.cepheus.pattern.ReadsFields;
import io.cepheus.rules.ExpressionException;
import io.cepheus.rules.internal.expr.BoolExpr;
import io.cepheus.rules.internal.expr.CompiledExpression;
import java.util.List;
import java.util.Map;

/**
 * A condition written as an expression: an {@link IndexableCondition} when it reads only the event (the matcher then
 * evaluates it once per event, however many partial matches wait, and an engine running many rules indexes it by
 * the field tests it begins with), an {@link IterativeCondition} when an aggregate reads the partial match. It
 * remembers its text, so that a pattern holding it can be written back as JSON. An evaluation that fails throws an
 * {@link ExpressionException} naming the rule, stage and the part that failed.
 *
 * @param <T> the event type
 */
public sealed interface ExpressionCondition<T> extends Condition<T>, ReadsFields<T> {

    /** @return the expression as written */
    String expression();

    /** @return the compiled expression */
    CompiledExpression compiled();

    @Override
    default Map<String, Object> fieldValues(T event) {
        return compiled().fieldValues(event);
    }

    /**
     * @param compiled the compiled expression
     * @param ruleId   the rule and version it belongs to ({@code "brute-force v3"}), or null
     * @param stage    the stage it is the condition of, or null
     * @param <T>      the event type
     * @return the condition
     */
    static <T> Condition<T> of(CompiledExpression compiled, String ruleId, String stage) {
        return compiled.isIterative() ? new Iterative<>(compiled, ruleId, stage) : new Simple<>(compiled, ruleId, stage);
    }

    /**
     * An expression without aggregates.
     *
     * @param compiled the compiled expression
     * @param ruleId   the rule, for messages, or null
     * @param stage    the stage, for messages, or null
     * @param <T>      the event type
     */
    record Simple<T>(CompiledExpression compiled, String ruleId, String stage, BoolExpr root)
            implements ExpressionCondition<T>, IndexableCondition<T> {

        Simple(CompiledExpression compiled, String ruleId, String stage) {
            this(compiled, ruleId, stage, compiled.root());
        }

        @Override
        public String expression() {
            return compiled.text();
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public List<FieldRequirement<T>> requirements() {
            return (List) compiled.requirements(); // the readers take any object, as the expression does
        }

        @Override
        public boolean filter(T event) {
            try {
                return root.test(event, null); // the compiled tree, straight from the matcher
            } catch (RuntimeException e) {
                CompiledExpression.Failure f = CompiledExpression.failure(e);
                if (f == null) {
                    throw e;
                }
                throw new ExpressionException(ruleId, stage, compiled.text(), f.column(), f.getMessage());
            }
        }

        @Override
        public String toString() {
            return compiled.text();
        }
    }

    /**
     * An expression with aggregates over the partial match.
     *
     * @param compiled the compiled expression
     * @param ruleId   the rule, for messages, or null
     * @param stage    the stage, for messages, or null
     * @param <T>      the event type
     */
    record Iterative<T>(CompiledExpression compiled, String ruleId, String stage) implements ExpressionCondition<T>,
            IterativeCondition<T> {
        @Override
        public String expression() {
            return compiled.text();
        }

        @Override
        public boolean filter(T event, Context<T> ctx) {
            try {
                return compiled.test(event, ctx);
            } catch (CompiledExpression.Failure f) {
                throw new ExpressionException(ruleId, stage, compiled.text(), f.column(), f.getMessage());
            }
        }

        @Override
        public String toString() {
            return compiled.text();
        }
    }
}
