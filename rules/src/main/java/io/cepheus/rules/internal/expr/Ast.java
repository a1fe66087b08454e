package io.cepheus.rules.internal.expr;

import java.util.List;

/**
 * An expression as parsed, before field names are resolved against an event type. Every node keeps the column
 * of its first (or operator) character, so that the compiler's messages can point at it.
 */
sealed interface Ast {

    /** @return the 0-based column the node's messages point at */
    int pos();

    /** Arithmetic operators. */
    enum ArithOp {
        ADD("+"), SUBTRACT("-"), MULTIPLY("*"), DIVIDE("/"), REMAINDER("%");

        final String symbol;

        ArithOp(String symbol) {
            this.symbol = symbol;
        }
    }

    /** Comparison operators. */
    enum CmpOp {
        EQ("=="), NE("!="), LT("<"), LE("<="), GT(">"), GE(">=");

        final String symbol;

        CmpOp(String symbol) {
            this.symbol = symbol;
        }

        /** @return whether the outcome of {@code compare(a, b)} satisfies this operator */
        boolean holds(int comparison) {
            return switch (this) {
                case EQ -> comparison == 0;
                case NE -> comparison != 0;
                case LT -> comparison < 0;
                case LE -> comparison <= 0;
                case GT -> comparison > 0;
                case GE -> comparison >= 0;
            };
        }

        /** @return whether the operator orders its operands (not just tests equality) */
        boolean orders() {
            return this != EQ && this != NE;
        }
    }

    /** Aggregate functions over the events a stage has taken. */
    enum AggregateFunction {
        COUNT, SUM, MIN, MAX, AVG, FIRST, LAST;

        /** @return the function's name as written */
        String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * A literal.
     *
     * @param value a {@link Long}, {@link Double}, {@link String}, {@link Boolean}, or null
     * @param pos   its column
     */
    record Literal(Object value, int pos) implements Ast {
    }

    /**
     * A field of the event being matched.
     *
     * @param path the names, outermost first ({@code card.country} is {@code [card, country]})
     * @param pos  its column
     */
    record Field(List<String> path, int pos) implements Ast {
        public Field {
            path = List.copyOf(path);
        }

        /** @return the path as written */
        String dotted() {
            return String.join(".", path);
        }
    }

    /**
     * An aggregate over the events {@code stage} has taken in the partial match.
     *
     * @param function the function
     * @param stage    the stage
     * @param path     the field of those events ({@code sum(a.amount)}); empty for {@code count}
     * @param pos      its column
     */
    record Aggregate(AggregateFunction function, String stage, List<String> path, int pos) implements Ast {
        public Aggregate {
            path = List.copyOf(path);
        }

        /** @return the aggregate as written */
        String written() {
            return function.word() + "(" + stage + (path.isEmpty() ? "" : "." + String.join(".", path)) + ")";
        }
    }

    /**
     * {@code -operand}.
     *
     * @param operand the operand
     * @param pos     the column of the minus sign
     */
    record Negate(Ast operand, int pos) implements Ast {
    }

    /**
     * {@code !operand} or {@code not operand}.
     *
     * @param operand the operand
     * @param pos     the column of the operator
     */
    record Not(Ast operand, int pos) implements Ast {
    }

    /**
     * An arithmetic operation.
     *
     * @param op    the operator
     * @param left  the left operand
     * @param right the right operand
     * @param pos   the column of the operator
     */
    record Arith(ArithOp op, Ast left, Ast right, int pos) implements Ast {
    }

    /**
     * A comparison.
     *
     * @param op    the operator
     * @param left  the left operand
     * @param right the right operand
     * @param pos   the column of the operator
     */
    record Compare(CmpOp op, Ast left, Ast right, int pos) implements Ast {
    }

    /**
     * {@code value in (...)} or {@code value not in (...)}.
     *
     * @param value   the tested value
     * @param set     the literals
     * @param negated true for {@code not in}
     * @param pos     the column of {@code in} (or of {@code not})
     */
    record In(Ast value, List<Literal> set, boolean negated, int pos) implements Ast {
        public In {
            set = List.copyOf(set);
        }
    }

    /**
     * {@code left && right} or {@code left || right}, short-circuit.
     *
     * @param and   true for and, false for or
     * @param left  evaluated first
     * @param right evaluated when needed
     * @param pos   the column of the operator
     */
    record Logic(boolean and, Ast left, Ast right, int pos) implements Ast {
    }
}
