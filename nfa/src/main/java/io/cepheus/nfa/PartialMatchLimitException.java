package io.cepheus.nfa;

/** Thrown under {@link OverflowPolicy#FAIL} when one key would exceed its bound on live partial matches. */
public final class PartialMatchLimitException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message names the key, the bound and the event time */
    public PartialMatchLimitException(String message) {
        super(message);
    }
}
