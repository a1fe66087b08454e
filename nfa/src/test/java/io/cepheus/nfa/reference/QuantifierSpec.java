package io.cepheus.nfa.reference;

import io.cepheus.pattern.Contiguity;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.Quantifier.Kind;

/**
 * How many events a stage of a random pattern takes, and how its own events follow each other.
 *
 * @param kind     single event, {@code times(from, to)} or a loop ({@code timesOrMore(from)})
 * @param from     least number of events when the stage is present (at least 1)
 * @param to       most events; {@link Integer#MAX_VALUE} for loops
 * @param optional whether the stage may take no event at all
 * @param inner    contiguity between the stage's own events: STRICT ({@code consecutive}), RELAXED (the
 *                 default) or NON_DETERMINISTIC_RELAXED ({@code allowCombinations}); RELAXED for singles
 */
public record QuantifierSpec(Kind kind, int from, int to, boolean optional, Contiguity inner) {

    /** Checks the invariants the generator relies on. */
    public QuantifierSpec {
        if (from < 1 || to < from) {
            throw new IllegalArgumentException("need 1 <= from <= to, got " + from + ".." + to);
        }
        if (kind == Kind.SINGLE && (to != 1 || inner != Contiguity.RELAXED)) {
            throw new IllegalArgumentException("a single stage takes one event and has no inner contiguity");
        }
        if (kind == Kind.LOOPING && to != Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a loop has no upper bound");
        }
    }

    /** @param optional whether it may be skipped @return one event */
    public static QuantifierSpec single(boolean optional) {
        return new QuantifierSpec(Kind.SINGLE, 1, 1, optional, Contiguity.RELAXED);
    }

    /**
     * @param from least, at least 1
     * @param to most
     * @param optional may be skipped
     * @param inner inner contiguity
     * @return {@code times(from, to)}, or {@code times(from)} when equal
     */
    public static QuantifierSpec times(int from, int to, boolean optional, Contiguity inner) {
        return new QuantifierSpec(Kind.TIMES, from, to, optional, inner);
    }

    /**
     * @param from least, at least 1 (1 is {@code oneOrMore})
     * @param optional may be skipped
     * @param inner inner contiguity
     * @return {@code timesOrMore(from)}
     */
    public static QuantifierSpec looping(int from, boolean optional, Contiguity inner) {
        return new QuantifierSpec(Kind.LOOPING, from, Integer.MAX_VALUE, optional, inner);
    }

    /**
     * Applies the quantifier to the stage the pattern ends with, with the public builder.
     *
     * @param stage the pattern whose last stage is quantified
     * @return the quantified pattern
     */
    public Pattern<RefEvent> applyTo(Pattern<RefEvent> stage) {
        Pattern<RefEvent> out = switch (kind) {
            case SINGLE -> stage;
            case TIMES -> from == to ? stage.times(from) : stage.times(from, to);
            case LOOPING -> from == 1 ? stage.oneOrMore() : stage.timesOrMore(from);
        };
        if (optional) {
            out = out.optional();
        }
        return switch (inner) {
            case STRICT -> out.consecutive();
            case NON_DETERMINISTIC_RELAXED -> out.allowCombinations();
            default -> out;
        };
    }

    /** @return the quantifier clauses in the conformance syntax, e.g. {@code times 1..3 optional consecutive} */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        switch (kind) {
            case SINGLE -> { }
            case TIMES -> sb.append(from == to ? " times " + from : " times " + from + ".." + to);
            case LOOPING -> sb.append(from == 1 ? " oneOrMore" : " timesOrMore " + from);
        }
        if (optional) {
            sb.append(" optional");
        }
        if (inner == Contiguity.STRICT) {
            sb.append(" consecutive");
        } else if (inner == Contiguity.NON_DETERMINISTIC_RELAXED) {
            sb.append(" allowCombinations");
        }
        return sb.toString();
    }
}
