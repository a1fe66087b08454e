package io.cepheus.pattern;

/**
 * How a stage's events relate to the events before them, in Flink CEP's vocabulary.
 */
public enum Contiguity {
    /** {@code next}/{@code consecutive}: the event must directly follow; any other event in between breaks the match. */
    STRICT,
    /** {@code followedBy} (default inside loops): skip events that do not match, take the first that does. */
    RELAXED,
    /** {@code followedByAny}/{@code allowCombinations}: every later matching event starts its own branch. */
    NON_DETERMINISTIC_RELAXED,
    /** {@code notNext}: the directly following event must not match. */
    NOT_NEXT,
    /** {@code notFollowedBy}: no matching event may occur before the next stage's event. */
    NOT_FOLLOWED_BY
}
