package io.cepheus.runtime.internal.cep;

/**
 * A question about a key's trace, asked of the CEP operator or rule set that owns the key on its shard's thread.
 *
 * @param kind     what to do
 * @param ruleId   for a rule set: the rule whose versions are concerned; null for a pattern
 * @param capacity for {@link Kind#START}: the entries the trace keeps at most
 */
public record TraceQuestion(Kind kind, String ruleId, int capacity) {

    /** What a trace question does. */
    public enum Kind {
        /** Starts tracing the key (afresh, if it was traced) and answers null. */
        START,
        /** Answers the key's trace so far (null if it is not traced), tracing on. */
        READ,
        /** Stops tracing the key and answers its trace (null if it was not traced). */
        STOP
    }
}
