package io.cepheus.nfa.reference;

import io.cepheus.pattern.Contiguity;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Brute-force matcher for the random-pattern subset (noSkip, no greedy, no until, no NOT stages): lists every
 * match of a pattern over a small stream straight from the definition of Flink CEP's semantics, with no NFA.
 *
 * <p>A match is an assignment of a strictly increasing sequence of events to stages, in stage order, such that
 * <ol>
 *   <li>every taken event satisfies its stage's condition, evaluated on the partial match before it;</li>
 *   <li>every stage takes between {@code from} and {@code to} events, or none if it is optional;</li>
 *   <li>between two consecutive taken events x (stream index p) and y (index q): if y is the first event of
 *       its stage S, S's contiguity decides, otherwise S's inner contiguity: strict means q = p + 1, relaxed
 *       means no event strictly between p and q satisfies S's condition (on the partial match up to x),
 *       non-deterministic relaxed allows anything. Skipped optional stages impose nothing;</li>
 *   <li>the first taken event has no constraint; with a window W, last.ts - first.ts &lt; W.</li>
 * </ol>
 *
 * <p>How it enumerates: candidates grow one taken event at a time, in stream order. Every rule above
 * except "enough events in the last stages" looks only at an event and what was taken before it, so a
 * prefix that breaks one can never become a match and is dropped ({@link #ruleHoldsAt}). Each candidate
 * that is reached is then checked against the whole definition from scratch ({@link #isMatch}). Each
 * assignment is reached once, so every match is reported once.
 */
public final class ReferenceMatcher {

    /** One taken event: which stage took it. */
    private record Taken(int stage, RefEvent event) {
    }

    private final RandomPatternSpec spec;
    private final List<RefEvent> events;
    private final List<Map<String, List<RefEvent>>> matches = new ArrayList<>();

    private ReferenceMatcher(RandomPatternSpec spec, List<RefEvent> events) {
        this.spec = spec;
        this.events = events;
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i).index() != i) {
                throw new IllegalArgumentException("event " + events.get(i) + " at position " + i
                        + " has index " + events.get(i).index());
            }
        }
    }

    /**
     * @param spec   the pattern
     * @param events the stream, event {@code i} with {@code index() == i}, timestamps non-decreasing
     * @return every match, each once, as stage name to events (stages in pattern order, only those that took
     *         events), in the order the enumeration found them
     */
    public static List<Map<String, List<RefEvent>>> matches(RandomPatternSpec spec, List<RefEvent> events) {
        ReferenceMatcher m = new ReferenceMatcher(spec, events);
        m.extend(new ArrayList<>(), 0);
        return Collections.unmodifiableList(m.matches);
    }

    /** Tries every way to add one more taken event after {@code candidate}, from stream position {@code from}. */
    private void extend(List<Taken> candidate, int from) {
        if (isMatch(candidate)) {
            matches.add(toMap(candidate));
        }
        int lowestStage = candidate.isEmpty() ? 0 : candidate.get(candidate.size() - 1).stage();
        for (int q = from; q < events.size(); q++) {
            for (int stage = lowestStage; stage < spec.stages().size(); stage++) {
                candidate.add(new Taken(stage, events.get(q)));
                if (ruleHoldsAt(candidate, candidate.size() - 1)) {
                    extend(candidate, q + 1);
                }
                candidate.remove(candidate.size() - 1);
            }
        }
    }

    /** The whole definition, checked on a complete assignment. */
    private boolean isMatch(List<Taken> taken) {
        if (taken.isEmpty()) {
            return false;
        }
        for (int i = 0; i < taken.size(); i++) {
            if (!ruleHoldsAt(taken, i)) {
                return false;
            }
        }
        for (int s = 0; s < spec.stages().size(); s++) {
            QuantifierSpec q = spec.stages().get(s).quantifier();
            int count = countOf(taken, s, taken.size());
            boolean ok = count == 0 ? q.optional() : q.from() <= count && count <= q.to();
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /**
     * Every rule about taken event {@code i} that depends only on it and the events taken before it: stage
     * order, skipped stages, the upper count, the condition, contiguity and the window.
     */
    private boolean ruleHoldsAt(List<Taken> taken, int i) {
        Taken now = taken.get(i);
        StageSpec stage = spec.stages().get(now.stage());
        Taken before = i == 0 ? null : taken.get(i - 1);
        int previousStage = before == null ? -1 : before.stage();
        if (now.stage() < previousStage) {
            return false;
        }
        // stages passed over without an event must be optional ...
        for (int skipped = previousStage + 1; skipped < now.stage(); skipped++) {
            if (!spec.stages().get(skipped).quantifier().optional()) {
                return false;
            }
        }
        // ... and the stage being left must have taken enough
        if (before != null && now.stage() != previousStage
                && countOf(taken, previousStage, i) < spec.stages().get(previousStage).quantifier().from()) {
            return false;
        }
        if (countOf(taken, now.stage(), i + 1) > stage.quantifier().to()) {
            return false;
        }
        Map<String, List<RefEvent>> partial = partialMatch(taken, i);
        if (!stage.condition().accepts(now.event(), name -> partial.getOrDefault(name, List.of()))) {
            return false;
        }
        if (before == null) {
            return true; // the first taken event has no contiguity constraint and starts the window
        }
        if (spec.hasWindow() && now.event().ts() - taken.get(0).event().ts() >= spec.windowMillis()) {
            return false;
        }
        boolean firstOfItsStage = now.stage() != previousStage;
        Contiguity rule = firstOfItsStage ? stage.contiguity() : stage.quantifier().inner();
        int p = before.event().index();
        int q = now.event().index();
        return switch (rule) {
            case STRICT -> q == p + 1;
            case RELAXED -> noneBetweenSatisfies(stage, p, q, partial);
            case NON_DETERMINISTIC_RELAXED -> true;
            default -> throw new IllegalStateException("not in the random subset: " + rule);
        };
    }

    /** Relaxed contiguity: the stage would have taken any event between p and q that satisfied its condition. */
    private boolean noneBetweenSatisfies(StageSpec stage, int p, int q, Map<String, List<RefEvent>> partial) {
        for (int r = p + 1; r < q; r++) {
            if (stage.condition().accepts(events.get(r), name -> partial.getOrDefault(name, List.of()))) {
                return false;
            }
        }
        return true;
    }

    /** @return how many of the first {@code upTo} taken events belong to {@code stage} */
    private static int countOf(List<Taken> taken, int stage, int upTo) {
        int n = 0;
        for (int i = 0; i < upTo; i++) {
            if (taken.get(i).stage() == stage) {
                n++;
            }
        }
        return n;
    }

    /** @return the partial match an iterative condition sees when testing taken event {@code i} */
    private Map<String, List<RefEvent>> partialMatch(List<Taken> taken, int i) {
        Map<String, List<RefEvent>> out = new LinkedHashMap<>();
        for (int k = 0; k < i; k++) {
            out.computeIfAbsent(spec.stages().get(taken.get(k).stage()).name(), n -> new ArrayList<>())
                    .add(taken.get(k).event());
        }
        return out;
    }

    /** @return the assignment as the engine reports a match: pattern order, only stages with events */
    private Map<String, List<RefEvent>> toMap(List<Taken> taken) {
        Map<String, List<RefEvent>> out = new LinkedHashMap<>();
        for (int s = 0; s < spec.stages().size(); s++) {
            List<RefEvent> list = new ArrayList<>();
            for (Taken t : taken) {
                if (t.stage() == s) {
                    list.add(t.event());
                }
            }
            if (!list.isEmpty()) {
                out.put(spec.stages().get(s).name(), List.copyOf(list));
            }
        }
        return Collections.unmodifiableMap(out);
    }
}
