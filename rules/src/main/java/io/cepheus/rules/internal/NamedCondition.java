package io.cepheus.rules.internal;

import io.cepheus.pattern.Condition;
import io.cepheus.pattern.IterativeCondition;
import io.cepheus.pattern.SimpleCondition;
import java.util.List;

/**
 * A condition the application registered, remembered with the name and arguments a rule gave it, so that a pattern
 * holding it can be written back as JSON. A registered simple condition stays a {@link SimpleCondition} (the matcher
 * evaluates it once per event), an iterative one an {@link IterativeCondition}.
 *
 * @param <T> the event type
 */
public sealed interface NamedCondition<T> extends Condition<T> {

    /** @return the registered name */
    String name();

    /** @return the arguments given to it; empty for none */
    List<String> args();

    /** @return whether it is a subtype condition (written with {@code subClassName}) */
    default boolean isSubtype() {
        return false;
    }

    /**
     * @param name      the registered name
     * @param args      the arguments
     * @param condition what the registry made of them
     * @param <T>       the event type
     * @return the condition under its name
     */
    static <T> Condition<T> of(String name, List<String> args, Condition<T> condition) {
        if (condition instanceof SimpleCondition<T> simple) {
            return new Simple<>(name, List.copyOf(args), simple);
        }
        return new Iterative<>(name, List.copyOf(args), condition);
    }

    /**
     * @param name the registered name
     * @param type the registered subtype
     * @param <T>  the event type
     * @return the condition "the event is a {@code type}" under its name
     */
    static <T> Condition<T> subtype(String name, Class<? extends T> type) {
        return new Subtype<>(name, type);
    }

    /**
     * A registered simple condition.
     *
     * @param name      the registered name
     * @param args      its arguments
     * @param condition the condition
     * @param <T>       the event type
     */
    record Simple<T>(String name, List<String> args, SimpleCondition<T> condition) implements NamedCondition<T>,
            SimpleCondition<T> {
        @Override
        public boolean filter(T event) {
            return condition.filter(event);
        }
    }

    /**
     * A registered condition that reads the partial match (or any other {@link Condition}).
     *
     * @param name      the registered name
     * @param args      its arguments
     * @param condition the condition
     * @param <T>       the event type
     */
    record Iterative<T>(String name, List<String> args, Condition<T> condition) implements NamedCondition<T>,
            IterativeCondition<T> {
        @Override
        public boolean filter(T event, Context<T> ctx) {
            return condition.test(event, ctx);
        }

        @Override
        public boolean isIterative() {
            return condition.isIterative();
        }
    }

    /**
     * A registered subtype: the event is an instance of it.
     *
     * @param name the registered name
     * @param type the class
     * @param <T>  the event type
     */
    record Subtype<T>(String name, Class<? extends T> type) implements NamedCondition<T>, SimpleCondition<T> {
        @Override
        public List<String> args() {
            return List.of();
        }

        @Override
        public boolean isSubtype() {
            return true;
        }

        @Override
        public boolean filter(T event) {
            return type.isInstance(event);
        }
    }
}
