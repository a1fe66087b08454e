package io.cepheus.rules;

import io.cepheus.pattern.Condition;
import io.cepheus.rules.internal.NamedCondition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * The conditions an application lets its rules name: a rule's {@code "type": "CLASS"} condition looks its
 * {@code className} up here, and a {@code SubtypeCondition}'s {@code subClassName} likewise. A name is only a key: no
 * class is ever loaded by name from a rule, so a rule file cannot run code the application did not register.
 *
 * <pre>{@code
 * NamedConditions<Payment> named = NamedConditions.<Payment>builder()
 *         .condition("com.acme.HighRisk", p -> riskScores.isHigh(p.card()))              // "className": "com.acme.HighRisk"
 *         .condition("com.acme.Country", args -> p -> args.contains(p.country()))      // with "args": ["DE", "FR"]
 *         .subtype(CardPayment.class)                                                   // "subClassName": its class name
 *         .build();
 * Pattern<Payment> p = rule.compile(Payment.class, named);
 * }</pre>
 *
 * <p>Immutable once built; its conditions run on the shard threads, so they must be thread-safe.
 *
 * @param <T> the event type
 */
public final class NamedConditions<T> {

    private static final NamedConditions<?> NONE = new NamedConditions<>(Map.of(), Map.of());

    private final Map<String, Function<List<String>, ? extends Condition<T>>> factories;
    private final Map<String, Class<? extends T>> subtypes;

    private NamedConditions(Map<String, Function<List<String>, ? extends Condition<T>>> factories,
            Map<String, Class<? extends T>> subtypes) {
        this.factories = Map.copyOf(factories);
        this.subtypes = Map.copyOf(subtypes);
    }

    /**
     * @param <T> the event type
     * @return a registry with no names: rules compiled with it may use expressions only
     */
    @SuppressWarnings("unchecked")
    public static <T> NamedConditions<T> none() {
        return (NamedConditions<T>) NONE;
    }

    /**
     * @param <T> the event type
     * @return a builder for a registry
     */
    public static <T> Builder<T> builder() {
        return new Builder<>();
    }

    /** @return the registered condition names */
    public Set<String> conditionNames() {
        return factories.keySet();
    }

    /** @return the registered subtype names */
    public Set<String> subtypeNames() {
        return subtypes.keySet();
    }

    /**
     * A registered condition, for a pattern built in Java that {@link Rules#toJson} can write: it is written as a
     * {@code CLASS} condition with this name and these arguments.
     *
     * @param name the registered name
     * @param args its arguments
     * @return the condition
     * @throws IllegalArgumentException if nothing is registered under the name, or its factory refuses the arguments
     */
    public Condition<T> condition(String name, String... args) {
        Objects.requireNonNull(name, "name");
        Function<List<String>, ? extends Condition<T>> factory = factories.get(name);
        if (factory == null) {
            throw new IllegalArgumentException("no condition is registered under '" + name + "'; registered: "
                    + (factories.isEmpty() ? "none" : String.join(", ", new java.util.TreeSet<>(factories.keySet()))));
        }
        List<String> list = List.of(args);
        Condition<T> condition = Objects.requireNonNull(factory.apply(list), "the factory of '" + name
                + "' returned null");
        return NamedCondition.of(name, list, condition);
    }

    /**
     * A registered subtype as a condition (Flink's {@code SubtypeCondition}), for a pattern built in Java that
     * {@link Rules#toJson} can write.
     *
     * @param name the registered name
     * @return the condition: the event is an instance of the registered class
     * @throws IllegalArgumentException if no subtype is registered under the name
     */
    public Condition<T> subtype(String name) {
        Class<? extends T> type = subtypes.get(Objects.requireNonNull(name, "name"));
        if (type == null) {
            throw new IllegalArgumentException("no subtype is registered under '" + name + "'; registered: "
                    + (subtypes.isEmpty() ? "none" : String.join(", ", new java.util.TreeSet<>(subtypes.keySet()))));
        }
        return NamedCondition.subtype(name, type);
    }

    /**
     * Builds a {@link NamedConditions}; not thread-safe.
     *
     * @param <T> the event type
     */
    public static final class Builder<T> {
        private final Map<String, Function<List<String>, ? extends Condition<T>>> factories = new LinkedHashMap<>();
        private final Map<String, Class<? extends T>> subtypes = new LinkedHashMap<>();

        private Builder() {
        }

        /**
         * Registers a condition that takes no arguments.
         *
         * @param name      the name rules use as {@code className}
         * @param condition the condition (thread-safe)
         * @return this builder
         */
        public Builder<T> condition(String name, Condition<T> condition) {
            Objects.requireNonNull(condition, "condition");
            return conditionFactory(name, args -> {
                if (!args.isEmpty()) {
                    throw new IllegalArgumentException("'" + name + "' takes no args, got " + args);
                }
                return condition;
            });
        }

        /**
         * Registers a condition whose rules give it arguments ({@code "args": ["DE", "FR"]}).
         *
         * @param name    the name rules use as {@code className}
         * @param factory makes the condition from the arguments (an empty list when the rule gives none); it may
         *                refuse them with an {@link IllegalArgumentException}, reported as the rule's error
         * @return this builder
         */
        public Builder<T> conditionFactory(String name, Function<List<String>, ? extends Condition<T>> factory) {
            checkName(name);
            if (factories.putIfAbsent(name, Objects.requireNonNull(factory, "factory")) != null) {
                throw new IllegalArgumentException("a condition is registered under '" + name + "' already");
            }
            return this;
        }

        /**
         * Registers a subtype under its class's name ({@link Class#getName()}), the name a rule written from a Java
         * pattern's {@code subtype(type)} uses.
         *
         * @param type the subclass of the event type
         * @return this builder
         */
        public Builder<T> subtype(Class<? extends T> type) {
            return subtype(type.getName(), type);
        }

        /**
         * Registers a subtype under a name of the application's choosing.
         *
         * @param name the name rules use as {@code subClassName}
         * @param type the subclass of the event type
         * @return this builder
         */
        public Builder<T> subtype(String name, Class<? extends T> type) {
            checkName(name);
            if (subtypes.putIfAbsent(name, Objects.requireNonNull(type, "type")) != null) {
                throw new IllegalArgumentException("a subtype is registered under '" + name + "' already");
            }
            return this;
        }

        private static void checkName(String name) {
            if (Objects.requireNonNull(name, "name").isBlank()) {
                throw new IllegalArgumentException("a registered name must not be blank");
            }
        }

        /** @return the registry */
        public NamedConditions<T> build() {
            return new NamedConditions<>(factories, subtypes);
        }
    }

    /** @return the factory registered under {@code name}, or null */
    Function<List<String>, ? extends Condition<T>> factory(String name) {
        return factories.get(name);
    }

    /** @return the subtype registered under {@code name}, or null */
    Class<? extends T> subtypeClass(String name) {
        return subtypes.get(name);
    }
}
