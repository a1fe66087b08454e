package io.cepheus.pattern.internal;

import io.cepheus.pattern.Condition;

/**
 * Negation built by {@link Condition#not}; the compiler flattens it into its own expression tree.
 *
 * @param inner the negated condition
 * @param <T>   the event type
 */
public record NotCondition<T>(Condition<T> inner) implements Condition<T> {
    @Override
    public boolean test(T event, Context<T> ctx) {
        return !inner.test(event, ctx);
    }

    @Override
    public boolean isIterative() {
        return inner.isIterative();
    }
}
