package io.cepheus.runtime.internal.cep;

import io.cepheus.pattern.FieldRequirement;
import io.cepheus.pattern.IndexableCondition;
import java.util.List;

/**
 * A condition that only states requirements on fields, for tests of what indexes them: the index and the gate never
 * evaluate a condition, so this one fails if anything does.
 *
 * @param requirements what it requires of an event's fields
 * @param <T>          the event type
 */
record Requiring<T>(List<FieldRequirement<T>> requirements) implements IndexableCondition<T> {

    @Override
    public boolean filter(T event) {
        throw new AssertionError("the index never evaluates a condition");
    }
}
