package io.cepheus.pattern;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Everything the public getters of one {@link Pattern} value report, captured so a test can check that a
 * later builder call did not change it. Patterns and conditions compare by identity (neither overrides
 * {@code equals}), which is what "unchanged" means for them.
 */
record StageSnapshot(String name, Pattern<?> previous, Pattern<?> group, boolean isGroup, boolean isNot,
        Contiguity contiguity, Condition<?> condition, Condition<?> until, Quantifier quantifier,
        Optional<Duration> window, Optional<Duration> gap, AfterMatchSkipStrategy skipStrategy,
        List<? extends Pattern<?>> stages, String displayName, String text) {

    static <T> StageSnapshot of(Pattern<T> p) {
        return new StageSnapshot(p.name(), p.previous(), p.group(), p.isGroup(), p.isNot(), p.contiguity(),
                p.condition(), p.untilCondition(), p.quantifier(), p.window(WithinType.FIRST_AND_LAST),
                p.window(WithinType.PREVIOUS_AND_CURRENT), p.skipStrategy(), List.copyOf(p.stages()),
                p.displayName(), p.toString());
    }
}
