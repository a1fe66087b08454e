package io.cepheus.runtime.rules;

import java.util.Objects;

/**
 * A rule and its version: what a match, a timeout and the metrics of a rule set name.
 *
 * @param id      the rule's id
 * @param version its version
 */
public record RuleVersion(String id, int version) {

    /**
     * Checks the id is there and the version positive.
     *
     * @param id      the rule's id, not blank
     * @param version its version, from 1
     */
    public RuleVersion {
        if (Objects.requireNonNull(id, "id").isBlank()) {
            throw new IllegalArgumentException("a rule's id must not be blank");
        }
        if (version < 1) {
            throw new IllegalArgumentException("rule '" + id + "': a version is at least 1, was " + version);
        }
    }

    /** @return {@code id v3} */
    @Override
    public String toString() {
        return id + " v" + version;
    }
}
