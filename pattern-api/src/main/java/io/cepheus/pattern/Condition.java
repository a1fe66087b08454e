package io.cepheus.pattern;

import io.cepheus.pattern.internal.AndCondition;
import io.cepheus.pattern.internal.NotCondition;
import io.cepheus.pattern.internal.OrCondition;
import java.util.List;
import java.util.Objects;

/**
 * A predicate a stage applies to events. Write one as a {@link SimpleCondition} (the event alone) or an
 * {@link IterativeCondition} (the event and the partial match so far); combine any of them with
 * {@link #and}, {@link #or} and {@link #not}.
 *
 * <p>The NFA compiler knows from {@link #isIterative()} which conditions read the partial match, and builds
 * the {@link Context} only for those; simple conditions are evaluated once per event however many partial
 * matches are open.
 *
 * @param <T> the event type
 */
@FunctionalInterface
public interface Condition<T> {

    /**
     * @param event the event to test
     * @param ctx   the partial match the event would extend
     * @return whether the event is accepted
     */
    boolean test(T event, Context<T> ctx);

    /** @return whether {@link #test} reads the {@link Context}; only then is the partial match materialised */
    default boolean isIterative() {
        return true;
    }

    /**
     * @param other the condition to combine with this one
     * @return a condition true when both this and {@code other} are (evaluated left to right, short-circuit)
     */
    default Condition<T> and(Condition<T> other) {
        return Condition.and(this, other);
    }

    /**
     * @param other the condition to combine with this one
     * @return a condition true when this or {@code other} is (evaluated left to right, short-circuit)
     */
    default Condition<T> or(Condition<T> other) {
        return Condition.or(this, other);
    }

    /** @return a condition true when this one is false */
    default Condition<T> negate() {
        return Condition.not(this);
    }

    /**
     * @param left  evaluated first
     * @param right evaluated when {@code left} is true
     * @param <T>   the event type
     * @return the conjunction
     */
    static <T> Condition<T> and(Condition<T> left, Condition<T> right) {
        return new AndCondition<>(Objects.requireNonNull(left, "left"), Objects.requireNonNull(right, "right"));
    }

    /**
     * @param left  evaluated first
     * @param right evaluated when {@code left} is false
     * @param <T>   the event type
     * @return the disjunction
     */
    static <T> Condition<T> or(Condition<T> left, Condition<T> right) {
        return new OrCondition<>(Objects.requireNonNull(left, "left"), Objects.requireNonNull(right, "right"));
    }

    /**
     * @param condition the condition to negate
     * @param <T>       the event type
     * @return the negation
     */
    static <T> Condition<T> not(Condition<T> condition) {
        return new NotCondition<>(Objects.requireNonNull(condition, "condition"));
    }

    /**
     * What an {@link IterativeCondition} may read about the partial match the tested event would extend.
     *
     * @param <T> the event type
     */
    interface Context<T> {
        /**
         * @param stage the name of a stage of the pattern
         * @return the events that stage has taken so far in this partial match, oldest first (empty if none)
         * @throws IllegalArgumentException if the pattern has no such stage
         */
        List<T> eventsForPattern(String stage);

        /** @return the event time of the event being tested */
        long timestamp();

        /** @return the current processing time, from the engine's injected clock */
        long currentProcessingTime();
    }
}
