package io.cepheus.kafka;

import io.cepheus.nfa.Match;
import java.util.Objects;

/**
 * A complete match of a rule from the rules topic.
 *
 * @param rule    the rule's id
 * @param version the version that matched (a version being retired may still complete its partial matches)
 * @param match   the events, by stage
 * @param <V>     the input's value type
 */
public record RuleMatch<V>(String rule, int version, Match<V> match) implements CepOutput<V> {
    /**
     * @param rule    the rule's id
     * @param version the version that matched
     * @param match   the events, by stage
     */
    public RuleMatch {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(match, "match");
    }
}
