package io.cepheus.kafka;

import java.util.Objects;

/**
 * An input record the processor could not match, and why: a record without a key or value, one whose timestamp is
 * too far ahead of the wall clock, one a pattern's condition threw on, one that would break a key's bound on partial
 * matches under {@code OverflowPolicy.FAIL}, or a match a skip strategy with {@code throwExceptionOnMiss()} dropped.
 * The key's state is as before the record.
 *
 * @param pattern the pattern that failed on it, or null if the processor rejected it before matching
 * @param event   the record's value (null if it had none)
 * @param reason  what went wrong, for a reader
 * @param <V>     the input's value type
 */
public record DeadLetterEvent<V>(String pattern, V event, String reason) implements CepOutput<V> {
    /**
     * @param pattern the pattern that failed on it, or null if the processor rejected it before matching
     * @param event   the record's value (null if it had none)
     * @param reason  what went wrong, for a reader
     */
    public DeadLetterEvent {
        Objects.requireNonNull(reason, "reason");
    }
}
