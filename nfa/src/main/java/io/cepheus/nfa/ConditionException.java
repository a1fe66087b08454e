package io.cepheus.nfa;

/**
 * A user condition threw while an event was being matched. The message names the stage and the event
 * time; the cause is the condition's exception. The key's state is left as it was before the event, so the
 * next event is processed normally.
 */
public final class ConditionException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The stage whose condition threw. */
    private final String stage;

    /**
     * @param stage   the stage whose condition threw
     * @param message what happened
     * @param cause   the condition's exception
     */
    public ConditionException(String stage, String message, Throwable cause) {
        super(message, cause);
        this.stage = stage;
    }

    /** @return the stage whose condition threw */
    public String stage() {
        return stage;
    }
}
