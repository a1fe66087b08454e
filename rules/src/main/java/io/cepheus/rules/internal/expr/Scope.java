package io.cepheus.rules.internal.expr;

import io.cepheus.pattern.Condition;
import java.util.List;

/**
 * What one evaluation of an iterative condition reads of the partial match: each stage's events, fetched from the
 * condition context once per evaluation however many aggregates read them. Made per evaluation (short-lived, on
 * the evaluating thread).
 */
public final class Scope {

    private final Condition.Context<?> context;
    private final String[] stages;
    private final List<?>[] events;

    /**
     * @param context the partial match
     * @param stages  the stages the expression's aggregates read, by index
     */
    Scope(Condition.Context<?> context, String[] stages) {
        this.context = context;
        this.stages = stages;
        this.events = new List<?>[stages.length];
    }

    /** @return the events stage {@code index} has taken in the partial match, oldest first */
    List<?> events(int index) {
        List<?> list = events[index];
        if (list == null) {
            list = context.eventsForPattern(stages[index]);
            events[index] = list;
        }
        return list;
    }
}
