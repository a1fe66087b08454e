package io.cepheus.pattern;

/**
 * Thrown when a pattern is built or compiled in a way Cepheus does not accept. The message names the
 * stage and the rule that was broken, for example {@code stage 'b': until() needs a looping stage}.
 */
public class MalformedPatternException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** @param message the stage and the rule that was broken */
    public MalformedPatternException(String message) {
        super(message);
    }

    static MalformedPatternException atStage(String stage, String rule) {
        return new MalformedPatternException("stage '" + stage + "': " + rule);
    }
}
