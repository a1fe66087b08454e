package io.cepheus.kafka;

/**
 * What the Cepheus processor emits, keyed as its input: a pattern's or rule's match, a partial match that timed
 * out, an input record that came after the watermark, one that could not be matched, or a rule record refused.
 * The record's timestamp is the time the engine gives the result: a match's is the timestamp of the event that
 * completed it (or of the watermark that released it), a timeout's is the partial match's start plus its window, a
 * late or rejected record's is its own.
 *
 * <p>{@link CepSerdes#output} is their serde.
 *
 * @param <V> the input's value type
 */
public sealed interface CepOutput<V>
        permits PatternMatch, PatternTimeout, RuleMatch, RuleTimeout, LateEvent, DeadLetterEvent, RuleRejected {
}
