package io.cepheus.pattern;

/**
 * A condition on the event alone, lambda-friendly: {@code where(e -> e.amount() > 500)}.
 *
 * <p>The matcher calls {@link #filter} directly (once per event, whatever the number of partial matches):
 * {@link #test} only adapts it to {@link Condition} for combinators, and is not meant to be overridden.
 *
 * @param <T> the event type
 */
@FunctionalInterface
public interface SimpleCondition<T> extends Condition<T> {

    /**
     * @param event the event to test
     * @return whether the event is accepted
     */
    boolean filter(T event);

    @Override
    default boolean test(T event, Context<T> ctx) {
        return filter(event);
    }

    @Override
    default boolean isIterative() {
        return false;
    }
}
