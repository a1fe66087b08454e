package io.cepheus.nfa.conformance;

import io.cepheus.pattern.Condition;
import io.cepheus.pattern.IterativeCondition;
import io.cepheus.pattern.SimpleCondition;
import java.util.List;
import java.util.Objects;

/**
 * The atoms of the case-file condition language as value objects: records, so that parsed conditions can be
 * compared in tests and read in engine messages. Atoms on the event alone are {@link SimpleCondition}s (the
 * engine may evaluate them once per event); {@code sum}, {@code count} and {@code gt-last} read the partial
 * match and are {@link IterativeCondition}s.
 */
public final class EvConditions {

    private EvConditions() {
    }

    /** @param result what every event gets: the atoms {@code true} and {@code false} */
    public record Constant(boolean result) implements SimpleCondition<Ev> {
        @Override
        public boolean filter(Ev event) {
            return result;
        }
    }

    /** @param type the accepted type letter: {@code type=X} */
    public record TypeIs(char type) implements SimpleCondition<Ev> {
        @Override
        public boolean filter(Ev event) {
            return event.type() == type;
        }
    }

    /** @param type the rejected type letter: {@code type!=X} */
    public record TypeIsNot(char type) implements SimpleCondition<Ev> {
        @Override
        public boolean filter(Ev event) {
            return event.type() != type;
        }
    }

    /** @param types the accepted type letters: {@code type in XYZ} */
    public record TypeIn(String types) implements SimpleCondition<Ev> {
        /** Rejects an empty set, which the grammar cannot express. */
        public TypeIn {
            if (types.isEmpty()) {
                throw new IllegalArgumentException("type in: no types");
            }
        }

        @Override
        public boolean filter(Ev event) {
            return types.indexOf(event.type()) >= 0;
        }
    }

    /** The comparison operators of {@code value<op>N}. */
    public enum Comparison {
        /** {@code >} */ GT(">"),
        /** {@code <} */ LT("<"),
        /** {@code =} */ EQ("="),
        /** {@code >=} */ GE(">="),
        /** {@code <=} */ LE("<="),
        /** {@code !=} */ NE("!=");

        private final String symbol;

        Comparison(String symbol) {
            this.symbol = symbol;
        }

        /** @return the operator as written */
        public String symbol() {
            return symbol;
        }

        /**
         * @param left  the event's value
         * @param right the literal
         * @return whether {@code left <op> right}
         */
        public boolean holds(long left, long right) {
            return switch (this) {
                case GT -> left > right;
                case LT -> left < right;
                case EQ -> left == right;
                case GE -> left >= right;
                case LE -> left <= right;
                case NE -> left != right;
            };
        }

        /**
         * @param symbol an operator as written
         * @return the comparison, or null if {@code symbol} is none
         */
        public static Comparison ofSymbol(String symbol) {
            for (Comparison c : values()) {
                if (c.symbol.equals(symbol)) {
                    return c;
                }
            }
            return null;
        }
    }

    /**
     * @param op    the operator
     * @param bound the literal: {@code value>N} and friends
     */
    public record ValueCompare(Comparison op, long bound) implements SimpleCondition<Ev> {
        /** Checks the operator. */
        public ValueCompare {
            Objects.requireNonNull(op, "op");
        }

        @Override
        public boolean filter(Ev event) {
            return op.holds(event.value(), bound);
        }
    }

    /**
     * {@code sum(S)<N}: the values of the events stage {@code S} took so far in this partial match, plus
     * this event's value, stay below {@code N}.
     *
     * @param stage the stage whose events are summed
     * @param bound the exclusive upper bound
     */
    public record SumBelow(String stage, long bound) implements IterativeCondition<Ev> {
        @Override
        public boolean filter(Ev event, Condition.Context<Ev> ctx) {
            long sum = event.value();
            for (Ev e : ctx.eventsForPattern(stage)) {
                sum += e.value();
            }
            return sum < bound;
        }
    }

    /**
     * {@code count(S)<N}: stage {@code S} has taken fewer than {@code N} events so far in this partial match.
     *
     * @param stage the stage whose events are counted
     * @param bound the exclusive upper bound
     */
    public record CountBelow(String stage, long bound) implements IterativeCondition<Ev> {
        @Override
        public boolean filter(Ev event, Condition.Context<Ev> ctx) {
            return ctx.eventsForPattern(stage).size() < bound;
        }
    }

    /**
     * {@code gt-last(S)}: this event's value exceeds that of the last event stage {@code S} took; true when
     * {@code S} took none.
     *
     * @param stage the stage whose last event is compared
     */
    public record GreaterThanLast(String stage) implements IterativeCondition<Ev> {
        @Override
        public boolean filter(Ev event, Condition.Context<Ev> ctx) {
            List<Ev> taken = ctx.eventsForPattern(stage);
            return taken.isEmpty() || event.value() > taken.get(taken.size() - 1).value();
        }
    }
}
