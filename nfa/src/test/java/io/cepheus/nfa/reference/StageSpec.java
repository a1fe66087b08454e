package io.cepheus.nfa.reference;

import io.cepheus.pattern.Contiguity;

/**
 * One stage of a random pattern.
 *
 * @param name       the stage name ("a", "b", ...)
 * @param contiguity how its first event follows the previous taken event: STRICT ({@code next}), RELAXED
 *                   ({@code followedBy}) or NON_DETERMINISTIC_RELAXED ({@code followedByAny}); ignored for
 *                   the first stage ({@code begin})
 * @param condition  what an event must satisfy to be taken by this stage
 * @param quantifier how many events it takes and how they follow each other
 */
public record StageSpec(String name, Contiguity contiguity, StageCondition condition, QuantifierSpec quantifier) {

    /** @return the builder call that appends this stage, in the conformance syntax */
    String operator() {
        return switch (contiguity) {
            case STRICT -> "next";
            case RELAXED -> "followedBy";
            case NON_DETERMINISTIC_RELAXED -> "followedByAny";
            default -> throw new IllegalStateException("not in the random subset: " + contiguity);
        };
    }
}
