package io.cepheus.pattern;

import java.util.List;

/**
 * A simple condition that also states what it requires of the event's fields, so that an engine running many
 * patterns on one stream can index them: it reads each field once per event, looks the value up, and evaluates the
 * condition only of the patterns whose requirements the value can meet. The condition stays the judge: an event
 * that meets the requirements is still tested with {@link #filter}.
 *
 * <p>Every requirement must hold for every event the condition accepts; a requirement that does not loses matches.
 * Reading a requirement's field must fail (throw) for an event exactly where evaluating the condition would fail
 * reading it, so that an engine can hand such an event to the condition and report the failure as the condition
 * would. The rule compiler states the requirements of expression conditions of the form
 * {@code field op constant && ...}; conditions written as lambdas state none.
 *
 * @param <T> the event type
 */
public interface IndexableCondition<T> extends SimpleCondition<T> {

    /** @return requirements every accepted event meets, each on one field; empty if the condition states none */
    List<FieldRequirement<T>> requirements();
}
