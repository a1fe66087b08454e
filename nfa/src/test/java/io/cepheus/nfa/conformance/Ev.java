package io.cepheus.nfa.conformance;

import java.util.Objects;

/**
 * The event type of the conformance cases: a one-letter type, an integer value and an event time, plus the
 * token the case file wrote it as, so that matches print exactly as the expected files spell them.
 *
 * @param type  the event type letter, case-sensitive ({@code F} in {@code F4@6})
 * @param value the integer value ({@code 4} in {@code F4@6})
 * @param ts    the event time in milliseconds ({@code 6} in {@code F4@6})
 * @param token the event as written in the input, e.g. {@code "F4@6"}
 */
public record Ev(char type, int value, long ts, String token) {

    /** Checks the token is present; it is what the output prints. */
    public Ev {
        Objects.requireNonNull(token, "token");
    }

    /**
     * @param type  the type letter
     * @param value the value
     * @param ts    the event time
     * @return the event, with the canonical token {@code <type><value>@<ts>}
     */
    public static Ev of(char type, int value, long ts) {
        return new Ev(type, value, ts, "" + type + value + "@" + ts);
    }

    /** @return the token, so that engine messages and debugger views show events as the case files do */
    @Override
    public String toString() {
        return token;
    }
}
