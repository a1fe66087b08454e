package io.cepheus.pattern;

/** Which two events a {@link Pattern#within(java.time.Duration, WithinType) window} measures between. */
public enum WithinType {
    /** From the first event of the match to the last one (Flink's default). */
    FIRST_AND_LAST,
    /** From the previous stage's event to the event taken by this stage: the largest allowed gap. */
    PREVIOUS_AND_CURRENT
}
