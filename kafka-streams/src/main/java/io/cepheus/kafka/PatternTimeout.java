package io.cepheus.kafka;

import io.cepheus.nfa.Match;
import java.util.Objects;

/**
 * A partial match whose window closed before the pattern completed (Flink's timed-out partial match).
 *
 * @param pattern      the pattern's name
 * @param partialMatch the events it had taken, by stage
 * @param <V>          the input's value type
 */
public record PatternTimeout<V>(String pattern, Match<V> partialMatch) implements CepOutput<V> {
    /**
     * @param pattern      the pattern's name
     * @param partialMatch the events it had taken, by stage
     */
    public PatternTimeout {
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(partialMatch, "partialMatch");
    }
}
