package io.cepheus.nfa.conformance;

/**
 * A conformance case file, pattern or condition that does not follow FORMAT.md. This is a fault of the case
 * (or of this parser), never a pattern the engine rejected, so it deliberately does not extend
 * {@code IllegalArgumentException} (which {@code MalformedPatternException} does): the driver lets it
 * through instead of printing it as an {@code ERROR} line.
 */
public class CaseSyntaxException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what is wrong and where */
    public CaseSyntaxException(String message) {
        super(message);
    }

    /**
     * @param message what is wrong and where
     * @param cause   the underlying problem
     */
    public CaseSyntaxException(String message, Throwable cause) {
        super(message, cause);
    }
}
