package io.cepheus.nfa.internal;

import io.cepheus.pattern.MalformedPatternException;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.internal.WholePatternRules;
import java.util.List;

/**
 * Compilation pass: the rules that need the whole pattern ({@link WholePatternRules}, shared with the rule
 * compiler), and the facts later passes need: the flattened stage names and the whole-pattern window.
 */
final class PatternRules {

    private PatternRules() {
    }

    /**
     * @param last the pattern
     * @return every stage name in pattern order, groups flattened
     * @throws MalformedPatternException on a duplicate name or the reserved one
     */
    static <T> List<String> stageNames(Pattern<T> last) {
        return WholePatternRules.stageNames(last);
    }

    /** @return the smallest FIRST_AND_LAST window of any stage (groups included), in ms, or 0 if none */
    static <T> long window(Pattern<T> last) {
        return WholePatternRules.window(last);
    }

    /** Checks the rules that need the whole pattern. */
    static <T> void check(Pattern<T> last, List<String> stageNames, long window) {
        WholePatternRules.check(last, stageNames, window);
    }
}
