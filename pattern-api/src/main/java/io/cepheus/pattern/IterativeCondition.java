package io.cepheus.pattern;

/**
 * A condition that also reads the partial match, for example "the amount exceeds the sum of the previous
 * ones": {@code where((e, ctx) -> e.amount() > sum(ctx.eventsForPattern("small")))}.
 *
 * @param <T> the event type
 */
@FunctionalInterface
public interface IterativeCondition<T> extends Condition<T> {

    /**
     * @param event the event to test
     * @param ctx   the partial match the event would extend
     * @return whether the event is accepted
     */
    boolean filter(T event, Context<T> ctx);

    @Override
    default boolean test(T event, Context<T> ctx) {
        return filter(event, ctx);
    }

    @Override
    default boolean isIterative() {
        return true;
    }
}
