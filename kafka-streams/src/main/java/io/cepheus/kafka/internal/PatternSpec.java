package io.cepheus.kafka.internal;

import io.cepheus.nfa.CompiledPattern;
import io.cepheus.nfa.NfaOptions;
import java.util.Comparator;
import java.util.Objects;

/**
 * One pattern of a processor, as the builder collected it.
 *
 * @param name           the pattern's name, unique in its processor
 * @param pattern        the compiled pattern (immutable; every task makes its own matcher from it)
 * @param options        its NFA options
 * @param tieBreaker     orders events of equal timestamp before arrival order; null for none
 * @param processingTime whether it matches in processing time
 * @param <V>            the value type
 */
public record PatternSpec<V>(String name, CompiledPattern<V> pattern, NfaOptions options,
        Comparator<? super V> tieBreaker, boolean processingTime) {
    /**
     * @param name           the pattern's name, unique in its processor
     * @param pattern        the compiled pattern
     * @param options        its NFA options
     * @param tieBreaker     orders events of equal timestamp before arrival order; null for none
     * @param processingTime whether it matches in processing time
     */
    public PatternSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(options, "options");
    }
}
