package io.cepheus.pattern.internal;

import io.cepheus.pattern.Condition;

/**
 * Conjunction built by {@link Condition#and}; the compiler flattens it into its own expression tree.
 *
 * @param left  evaluated first
 * @param right evaluated when left is true
 * @param <T>   the event type
 */
public record AndCondition<T>(Condition<T> left, Condition<T> right) implements Condition<T> {
    @Override
    public boolean test(T event, Context<T> ctx) {
        return left.test(event, ctx) && right.test(event, ctx);
    }

    @Override
    public boolean isIterative() {
        return left.isIterative() || right.isIterative();
    }
}
