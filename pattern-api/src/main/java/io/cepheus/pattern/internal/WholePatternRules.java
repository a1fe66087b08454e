package io.cepheus.pattern.internal;

import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Contiguity;
import io.cepheus.pattern.MalformedPatternException;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.Quantifier;
import io.cepheus.pattern.WithinType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rules that need the whole pattern (the builder checks the local ones as each call is made), and the facts
 * they and the NFA compiler need: the flattened stage names and the whole-pattern window. Checked by the NFA
 * compiler when it compiles a pattern, and by the rule compiler when it builds one from a rule, so that both refuse
 * the same patterns with the same words.
 */
public final class WholePatternRules {

    private WholePatternRules() {
    }

    /** A stage name the NFA keeps for its final state. */
    public static final String RESERVED_NAME = "$end$";

    /**
     * @param last the pattern
     * @return every stage name in pattern order, groups flattened
     * @throws MalformedPatternException on a duplicate name, or the reserved one
     */
    public static <T> List<String> stageNames(Pattern<T> last) {
        List<String> names = new ArrayList<>();
        collect(last, names);
        Set<String> seen = new HashSet<>();
        for (String name : names) {
            if (!seen.add(name)) {
                throw new MalformedPatternException("stage '" + name + "': Duplicate pattern name; stage names"
                        + " must be unique within a pattern (groups included)");
            }
        }
        if (seen.contains(RESERVED_NAME)) {
            throw new MalformedPatternException("stage '" + RESERVED_NAME + "': the name is reserved");
        }
        return names;
    }

    private static <T> void collect(Pattern<T> last, List<String> into) {
        for (Pattern<T> stage : last.stages()) {
            if (stage.isGroup()) {
                collect(stage.group(), into);
            } else {
                into.add(stage.name());
            }
        }
    }

    /** @return the smallest FIRST_AND_LAST window of any stage (groups included), in ms, or 0 if none */
    public static <T> long window(Pattern<T> last) {
        long min = 0;
        for (Pattern<T> stage : last.stages()) {
            long w = stage.window(WithinType.FIRST_AND_LAST).map(Duration::toMillis).orElse(0L);
            if (stage.isGroup()) {
                long inner = window(stage.group());
                if (inner > 0 && (w == 0 || inner < w)) {
                    w = inner;
                }
            }
            if (w > 0 && (min == 0 || w < min)) {
                min = w;
            }
        }
        return min;
    }

    /** Checks the rules that need the whole pattern. */
    public static <T> void check(Pattern<T> last, List<String> stageNames, long window) {
        if (last.contiguity() == Contiguity.NOT_FOLLOWED_BY && window == 0
                && gapOf(last) == 0) {
            throw new MalformedPatternException("stage '" + last.name() + "': NotFollowedBy is not supported"
                    + " without windowTime as a last part of a Pattern! Add within(...): the match is emitted"
                    + " when the window closes without the forbidden event");
        }
        checkGroups(last);
        checkGaps(last, window, true);
        AfterMatchSkipStrategy skip = last.skipStrategy();
        if (skip.stage() != null && !stageNames.contains(skip.stage())) {
            throw new MalformedPatternException("stage '" + skip.stage() + "': The pattern name specified in"
                    + " AfterMatchSkipStrategy " + skip.kind() + " can not be found in the given Pattern "
                    + stageNames);
        }
        if (skip.stage() != null && !topLevelNames(last).contains(skip.stage())) {
            // Flink looks the target up among the stages outside groups only, and refuses the others
            throw new MalformedPatternException("stage '" + skip.stage() + "': The pattern name specified in"
                    + " AfterMatchSkipStrategy " + skip.kind() + " can not be found in the given Pattern: the stage"
                    + " is inside a group, and only stages outside groups can be skip targets "
                    + topLevelNames(last));
        }
    }

    private static <T> List<String> topLevelNames(Pattern<T> last) {
        List<String> names = new ArrayList<>();
        for (Pattern<T> stage : last.stages()) {
            if (!stage.isGroup()) {
                names.add(stage.name());
            }
        }
        return names;
    }

    /**
     * A PREVIOUS_AND_CURRENT window may not be larger than the pattern's FIRST_AND_LAST window (Flink: "The
     * window length between the previous and current event cannot be larger than the window length between
     * the first and last event for a Pattern."). Checked, as Flink does, on the stages that take a single event
     * (optional or not, inside groups too), on notNext stages and on a trailing notFollowedBy; Flink does not
     * check the window set on a times/oneOrMore stage, on a group or on a notFollowedBy in the middle, so
     * neither does this (harmless: a gap wider than the whole-pattern window can never be the one that closes
     * first). {@code window} is the whole-pattern window as this compiler applies it ({@link #window}).
     */
    private static <T> void checkGaps(Pattern<T> last, long window, boolean topLevel) {
        if (window == 0) {
            return;
        }
        for (Pattern<T> stage : last.stages()) {
            if (stage.isGroup()) {
                checkGaps(stage.group(), window, false);
                continue;
            }
            boolean middleNotFollowedBy = stage.contiguity() == Contiguity.NOT_FOLLOWED_BY
                    && !(topLevel && stage == last);
            Quantifier q = stage.quantifier();
            if (q.kind() != Quantifier.Kind.SINGLE) {
                // a window between events: Flink gives it to every state of the stage but the first one it makes, so
                // a stage that can take two events or more has one with it (the compiler checks the other cases,
                // stages repeated by a group, when it has made the states)
                long between = stage.timesWindow().map(Duration::toMillis).orElse(0L);
                if (between > window && (q.isLooping() || q.to() >= 2)) {
                    throw new MalformedPatternException("stage '" + stage.name() + "': its window between events ("
                            + between + " ms) is larger than the pattern's FIRST_AND_LAST window (" + window
                            + " ms): The window length between the previous and current event cannot be larger than"
                            + " the window length between the first and last event for a Pattern");
                }
                continue;
            }
            if (middleNotFollowedBy) {
                continue;
            }
            long gap = gapOf(stage);
            if (gap > window) {
                throw new MalformedPatternException("stage '" + stage.name() + "': its PREVIOUS_AND_CURRENT window"
                        + " (" + gap + " ms) is larger than the pattern's FIRST_AND_LAST window (" + window
                        + " ms): The window length between the previous and current event cannot be larger than"
                        + " the window length between the first and last event for a Pattern");
            }
        }
    }

    private static <T> void checkGroups(Pattern<T> last) {
        for (Pattern<T> stage : last.stages()) {
            if (!stage.isGroup()) {
                continue;
            }
            Pattern<T> inner = stage.group();
            if (inner.isNot()) {
                throw new MalformedPatternException("stage '" + inner.name() + "': a group cannot end with a NOT"
                        + " stage");
            }
            checkGroups(inner);
        }
    }

    /** @return the stage's PREVIOUS_AND_CURRENT window in ms, or 0 if it has none */
    public static <T> long gapOf(Pattern<T> p) {
        return p.window(WithinType.PREVIOUS_AND_CURRENT).map(Duration::toMillis).orElse(0L);
    }
}
