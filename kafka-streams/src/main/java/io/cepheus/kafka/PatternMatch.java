package io.cepheus.kafka;

import io.cepheus.nfa.Match;
import java.util.Objects;

/**
 * A complete match of a pattern.
 *
 * @param pattern the pattern's name
 * @param match   the events, by stage
 * @param <V>     the input's value type
 */
public record PatternMatch<V>(String pattern, Match<V> match) implements CepOutput<V> {
    /**
     * @param pattern the pattern's name
     * @param match   the events, by stage
     */
    public PatternMatch {
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(match, "match");
    }
}
