package io.cepheus.nfa;

import io.cepheus.nfa.internal.ProgramCompiler;
import io.cepheus.pattern.MalformedPatternException;
import io.cepheus.pattern.Pattern;

/**
 * Compiles a {@link Pattern} into a {@link CompiledPattern}: an immutable NFA with int-indexed states and
 * transitions, shared by every key and thread.
 */
public final class NfaCompiler {

    private NfaCompiler() {
    }

    /**
     * @param pattern the pattern
     * @param <T>     the event type
     * @return the compiled NFA
     * @throws MalformedPatternException if the pattern breaks a rule that needs the whole pattern to check
     *                                   (duplicate stage names, an unknown skip target, a trailing
     *                                   {@code notFollowedBy} without a window, ...)
     */
    public static <T> CompiledPattern<T> compile(Pattern<T> pattern) {
        return new CompiledPattern<>(pattern, ProgramCompiler.compile(pattern));
    }
}
