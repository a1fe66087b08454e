package io.cepheus.pattern.internal;

import io.cepheus.pattern.SimpleCondition;

/**
 * The condition added by {@code subtype(Class)}: the event is an instance of the class.
 *
 * @param type the accepted class
 * @param <T>  the event type
 */
public record SubtypeCondition<T>(Class<? extends T> type) implements SimpleCondition<T> {
    @Override
    public boolean filter(T event) {
        return type.isInstance(event);
    }
}
