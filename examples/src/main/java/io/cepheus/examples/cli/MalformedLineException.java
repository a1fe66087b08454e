package io.cepheus.examples.cli;

/** A line of input that cannot be read as an event, with its line number (1-based) and what is wrong. */
public final class MalformedLineException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final long line;
    private final boolean fatal;

    /**
     * @param line    the line number, 1-based
     * @param problem what is wrong, naming the field
     */
    public MalformedLineException(long line, String problem) {
        this(line, problem, false);
    }

    /**
     * @param line    the line number, 1-based
     * @param problem what is wrong
     * @param fatal   whether the rest of the input cannot be read either (a bad CSV header)
     */
    public MalformedLineException(long line, String problem, boolean fatal) {
        super("line " + line + ": " + problem);
        this.line = line;
        this.fatal = fatal;
    }

    /** @return whether the rest of the input cannot be read either, whatever {@code --on-error} says */
    public boolean fatal() {
        return fatal;
    }

    /** @return the line number, 1-based */
    public long line() {
        return line;
    }
}
