package io.cepheus.nfa.internal;

import io.cepheus.pattern.Pattern;
import java.util.List;
import java.util.Objects;

/**
 * Compiles a pattern in small passes: {@link PatternRules} (whole-pattern rules, stage names, window),
 * {@link StateGraphBuilder} (Flink-style state graph) and {@link ProgramFreezer} (immutable arrays).
 */
public final class ProgramCompiler {

    private ProgramCompiler() {
    }

    /**
     * @param pattern the pattern to compile
     * @param <T>     the event type
     * @return the frozen program
     */
    public static <T> Program<T> compile(Pattern<T> pattern) {
        Objects.requireNonNull(pattern, "pattern");
        List<String> stageNames = PatternRules.stageNames(pattern);
        long window = PatternRules.window(pattern);
        PatternRules.check(pattern, stageNames, window);
        StateGraph graph = new StateGraphBuilder<T>(window).build(pattern);
        return ProgramFreezer.freeze(graph, stageNames, window, pattern.skipStrategy());
    }
}
