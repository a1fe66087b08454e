package io.cepheus.examples.cli;

/**
 * A bad command line: unknown command or option, a missing or malformed value. The runner prints the message
 * with a pointer to {@code --help} and exits with status 2.
 */
public final class UsageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String command;

    /**
     * @param command the command whose help to point to, or null for the top level
     * @param message what is wrong, naming the argument
     */
    public UsageException(String command, String message) {
        super(message);
        this.command = command;
    }

    /** @return the command whose help to point to, or null for the top level */
    public String command() {
        return command;
    }
}
