package io.cepheus.pattern;

/**
 * How many events a stage takes, as set by {@link Pattern#times(int)}, {@link Pattern#oneOrMore()} and friends.
 *
 * @param kind          single event, a bounded number of events, or a loop
 * @param from          the least number of events (at least 1; an optional stage may take none)
 * @param to            the most events for {@link Kind#TIMES}; {@link Integer#MAX_VALUE} for loops
 * @param optional      whether the stage may be skipped altogether
 * @param greedy        whether the loop keeps taking events its condition accepts instead of handing them on
 * @param inner         contiguity between the stage's own events
 */
public record Quantifier(Kind kind, int from, int to, boolean optional, boolean greedy, Contiguity inner) {

    /** The shape of the quantifier. */
    public enum Kind {
        /** Exactly one event (the default). */
        SINGLE,
        /** Between {@code from} and {@code to} events. */
        TIMES,
        /** {@code from} or more events. */
        LOOPING
    }

    static final Quantifier ONE = new Quantifier(Kind.SINGLE, 1, 1, false, false, Contiguity.RELAXED);

    /** @return true for {@link Kind#LOOPING} */
    public boolean isLooping() {
        return kind == Kind.LOOPING;
    }

    Quantifier withOptional() {
        return new Quantifier(kind, from, to, true, greedy, inner);
    }

    Quantifier withGreedy() {
        return new Quantifier(kind, from, to, optional, true, inner);
    }

    Quantifier withInner(Contiguity contiguity) {
        return new Quantifier(kind, from, to, optional, greedy, contiguity);
    }
}
