package io.cepheus.nfa.reference;

import io.cepheus.pattern.IterativeCondition;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.SimpleCondition;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A stage's condition in the random-pattern subset: a conjunction of an optional type filter, an optional
 * value threshold and the optional iterative "value greater than the last value taken by stage S"
 * ({@code gt-last(S)} in the conformance syntax, true while S has taken nothing). No part set accepts every
 * event.
 *
 * <p>The same {@link #accepts} decides for the reference matcher and, through {@link #applyTo}, for the
 * engine; the two differ only in which partial match they pass in, which is part of what is under test.
 *
 * @param types             the accepted event types, e.g. {@code "A"} or {@code "AB"}; null for any type
 * @param valueAbove        the value must be greater than this; null for any value
 * @param greaterThanLastOf the stage whose last value the event must exceed; null for a simple condition
 */
public record StageCondition(String types, Integer valueAbove, String greaterThanLastOf) {

    /** @return a condition accepting every event */
    public static StageCondition any() {
        return new StageCondition(null, null, null);
    }

    /**
     * @param types accepted types, e.g. "A" or "AB"
     * @return a type filter
     */
    public static StageCondition typeIn(String types) {
        return new StageCondition(types, null, null);
    }

    /**
     * @param threshold exclusive lower bound
     * @return this condition narrowed by {@code value>threshold}
     */
    public StageCondition andValueAbove(int threshold) {
        return new StageCondition(types, threshold, greaterThanLastOf);
    }

    /**
     * @param stage the stage whose last value must be exceeded
     * @return this condition narrowed by {@code gt-last(stage)}
     */
    public StageCondition andGreaterThanLastOf(String stage) {
        return new StageCondition(types, valueAbove, stage);
    }

    /** @return whether the condition reads the partial match */
    public boolean isIterative() {
        return greaterThanLastOf != null;
    }

    /**
     * @param event         the event to test
     * @param eventsOfStage the partial match the event would extend: stage name to the events it took so far
     * @return whether the event satisfies the condition
     */
    public boolean accepts(RefEvent event, Function<String, List<RefEvent>> eventsOfStage) {
        return acceptsAlone(event)
                && (greaterThanLastOf == null || exceedsLast(event, eventsOfStage.apply(greaterThanLastOf)));
    }

    /** The part that reads only the event. */
    private boolean acceptsAlone(RefEvent event) {
        return (types == null || types.indexOf(event.type()) >= 0)
                && (valueAbove == null || event.value() > valueAbove);
    }

    private static boolean exceedsLast(RefEvent event, List<RefEvent> taken) {
        return taken.isEmpty() || event.value() > taken.get(taken.size() - 1).value();
    }

    /**
     * Adds this condition to the stage the pattern ends with, with the public builder: the part that reads
     * only the event as a {@link SimpleCondition} (so the engine may evaluate it once per event) and the
     * iterative part as a second {@code where}, which also exercises the AND of the two kinds.
     *
     * @param stage the pattern whose last stage gets the condition
     * @return the narrowed pattern
     */
    public Pattern<RefEvent> applyTo(Pattern<RefEvent> stage) {
        Pattern<RefEvent> out = stage;
        if (types != null || valueAbove != null) {
            out = out.where((SimpleCondition<RefEvent>) this::acceptsAlone);
        }
        if (greaterThanLastOf != null) {
            String ref = greaterThanLastOf;
            out = out.where((IterativeCondition<RefEvent>) (e, ctx) -> exceedsLast(e, ctx.eventsForPattern(ref)));
        }
        return out;
    }

    /** @return the condition in the conformance syntax, e.g. {@code type in AB & gt-last(b)} */
    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        if (types != null) {
            parts.add(types.length() == 1 ? "type=" + types : "type in " + types);
        }
        if (valueAbove != null) {
            parts.add("value>" + valueAbove);
        }
        if (greaterThanLastOf != null) {
            parts.add("gt-last(" + greaterThanLastOf + ")");
        }
        return parts.isEmpty() ? "true" : String.join(" & ", parts);
    }
}
