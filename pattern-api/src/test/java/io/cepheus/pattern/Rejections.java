package io.cepheus.pattern;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.function.Executable;

/** Asserts that a builder call is rejected with a message naming the stage and the rule. */
final class Rejections {

    private Rejections() {
    }

    /**
     * @param call      the misuse
     * @param fragments text the message must contain, e.g. {@code "stage 'b'"} and a phrase of the rule
     * @return the exception, for further checks
     */
    static MalformedPatternException assertRejected(Executable call, String... fragments) {
        MalformedPatternException e = assertThrows(MalformedPatternException.class, call);
        for (String fragment : fragments) {
            assertTrue(e.getMessage().contains(fragment),
                    () -> "message \"" + e.getMessage() + "\" does not contain \"" + fragment + "\"");
        }
        return e;
    }
}
