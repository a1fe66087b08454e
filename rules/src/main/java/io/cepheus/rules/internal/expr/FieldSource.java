package io.cepheus.rules.internal.expr;

import java.util.List;

/**
 * How the names of an expression read the event: the fields of a class, resolved once to accessors, or the keys
 * of a map.
 */
public interface FieldSource {

    /**
     * @param path the field path as written ({@code card.country} is {@code [card, country]})
     * @param pos  the column it was written at, for messages
     * @return a node reading that field of an event
     * @throws ExpressionSyntaxException if the event type has no such field
     */
    Typed field(List<String> path, int pos);

    /** @return what the events are, for messages ("events of class Payment", "map events") */
    String describe();

    /** @return the class events are instances of (a {@code Map} for map events) */
    Class<?> eventClass();
}
