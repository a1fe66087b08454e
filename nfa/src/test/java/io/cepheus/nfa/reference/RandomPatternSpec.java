package io.cepheus.nfa.reference;

import io.cepheus.pattern.Pattern;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A pattern of the random subset, as plain data: 1 to 4 stages and an optional whole-pattern window.
 * The reference matcher reads this description directly; {@link #toPattern()} builds the same pattern with
 * the public builder for the engine, and {@link #toString()} writes it in the conformance-case syntax so a
 * counterexample can be pasted into a {@code .case} file and checked against Flink.
 *
 * @param stages       the stages in order, at least one
 * @param windowMillis the {@code within} window in ms, or 0 for none
 */
public record RandomPatternSpec(List<StageSpec> stages, long windowMillis) {

    /** Copies the stage list and checks it is not empty. */
    public RandomPatternSpec {
        stages = List.copyOf(stages);
        if (stages.isEmpty()) {
            throw new IllegalArgumentException("a pattern needs a stage");
        }
        if (windowMillis < 0) {
            throw new IllegalArgumentException("negative window " + windowMillis);
        }
    }

    /** @return whether the pattern has a window */
    public boolean hasWindow() {
        return windowMillis > 0;
    }

    /** @return the stage names in order */
    public List<String> stageNames() {
        return stages.stream().map(StageSpec::name).collect(Collectors.toList());
    }

    /** @return the pattern built with the public builder, skip strategy noSkip */
    public Pattern<RefEvent> toPattern() {
        return toPattern(io.cepheus.pattern.AfterMatchSkipStrategy.noSkip());
    }

    /**
     * @param skip the after-match skip strategy
     * @return the pattern built with the public builder
     */
    public Pattern<RefEvent> toPattern(io.cepheus.pattern.AfterMatchSkipStrategy skip) {
        Pattern<RefEvent> p = null;
        for (StageSpec s : stages) {
            if (p == null) {
                p = Pattern.begin(s.name(), skip);
            } else {
                p = switch (s.contiguity()) {
                    case STRICT -> p.next(s.name());
                    case RELAXED -> p.followedBy(s.name());
                    case NON_DETERMINISTIC_RELAXED -> p.followedByAny(s.name());
                    default -> throw new IllegalStateException("not in the random subset: " + s.contiguity());
                };
            }
            p = s.quantifier().applyTo(s.condition().applyTo(p));
        }
        return hasWindow() ? p.within(Duration.ofMillis(windowMillis)) : p;
    }

    /** @return the {@code pattern:} (and {@code within:}) lines of a conformance case */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("pattern: ");
        for (int i = 0; i < stages.size(); i++) {
            StageSpec s = stages.get(i);
            sb.append(i == 0 ? "begin" : " ; " + s.operator()).append(' ').append(s.name())
                    .append(" where ").append(s.condition()).append(s.quantifier());
        }
        if (hasWindow()) {
            sb.append("\nwithin: ").append(windowMillis);
        }
        return sb.toString();
    }
}
