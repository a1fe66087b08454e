package io.cepheus.kafka;

import java.util.Objects;

/**
 * A rule record a task refused: JSON that does not parse or compile, an id other than the record's key, a version not
 * above the one in force, or a changed definition under the version in force. The version in force (if any) stays;
 * each task reports a refused record once, keyed null, with the wall-clock time as its timestamp.
 *
 * @param rule   the record's key: the rule id
 * @param reason the exception's class and message, for a reader
 * @param <V>    the input's value type
 */
public record RuleRejected<V>(String rule, String reason) implements CepOutput<V> {
    /**
     * @param rule   the record's key: the rule id
     * @param reason the exception's class and message
     */
    public RuleRejected {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(reason, "reason");
    }
}
