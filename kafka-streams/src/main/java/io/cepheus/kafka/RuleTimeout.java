package io.cepheus.kafka;

import io.cepheus.nfa.Match;
import java.util.Objects;

/**
 * A partial match of a rule from the rules topic whose window closed before the rule completed.
 *
 * @param rule         the rule's id
 * @param version      the version whose partial match it was
 * @param partialMatch the events it had taken, by stage
 * @param <V>          the input's value type
 */
public record RuleTimeout<V>(String rule, int version, Match<V> partialMatch) implements CepOutput<V> {
    /**
     * @param rule         the rule's id
     * @param version      the version whose partial match it was
     * @param partialMatch the events it had taken, by stage
     */
    public RuleTimeout {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(partialMatch, "partialMatch");
    }
}
