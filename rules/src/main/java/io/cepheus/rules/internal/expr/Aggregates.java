package io.cepheus.rules.internal.expr;

import java.util.List;

/**
 * Aggregates over the events a stage has taken in the partial match being extended (not the event being matched):
 * {@code count} and {@code sum} are 0 when the stage took nothing, the others null. Null field values are left out of
 * {@code sum}, {@code min}, {@code max} and {@code avg}, as SQL leaves them out; {@code first} and {@code last} read
 * the first and last event whatever its value.
 */
final class Aggregates {

    private Aggregates() {
    }

    /** {@code count(s)}. */
    static final class Count extends LongExpr {
        private final int stage;

        Count(int stage, int pos) {
            super(pos);
            this.stage = stage;
        }

        @Override
        long evalLong(Object event, Scope scope) {
            return scope.events(stage).size();
        }
    }

    /** {@code sum(s.f)} of an integral primitive field: exact. */
    static final class SumLong extends LongExpr {
        private final int stage;
        private final LongExpr field;

        SumLong(int stage, LongExpr field, int pos) {
            super(pos);
            this.stage = stage;
            this.field = field;
        }

        @Override
        long evalLong(Object event, Scope scope) {
            List<?> events = scope.events(stage);
            long sum = 0;
            for (int i = 0; i < events.size(); i++) {
                long v = field.evalLong(events.get(i), null);
                long r = sum + v;
                if (((sum ^ r) & (v ^ r)) < 0) {
                    throw new EvalError(pos, "integer overflow: the sum does not fit in 64 bits");
                }
                sum = r;
            }
            return sum;
        }
    }

    /** {@code sum(s.f)} of a decimal primitive field. */
    static final class SumDouble extends DoubleExpr {
        private final int stage;
        private final DoubleExpr field;

        SumDouble(int stage, DoubleExpr field, int pos) {
            super(pos);
            this.stage = stage;
            this.field = field;
        }

        @Override
        double evalDouble(Object event, Scope scope) {
            List<?> events = scope.events(stage);
            double sum = 0;
            for (int i = 0; i < events.size(); i++) {
                sum += field.evalDouble(events.get(i), null);
            }
            return sum;
        }
    }

    /** {@code sum(s.f)} of values known only when read: an integer while every value is one, else a decimal. */
    static final class SumValues extends Expr {
        private final int stage;
        private final Expr field;

        SumValues(int stage, Expr field, int pos) {
            super(pos);
            this.stage = stage;
            this.field = field;
        }

        @Override
        Object value(Object event, Scope scope) {
            Object sum = 0L;
            List<?> events = scope.events(stage);
            for (int i = 0; i < events.size(); i++) {
                Object v = field.value(events.get(i), null);
                if (v == null) {
                    continue;
                }
                if (!(v instanceof Number)) {
                    throw new EvalError(pos, "sum needs numbers, got " + Values.describe(v));
                }
                sum = Values.arith(Ast.ArithOp.ADD, sum, v, pos);
            }
            return sum;
        }
    }

    /** {@code avg(s.f)}: a decimal, or null when no event has a value. */
    static final class Avg extends Expr {
        private final int stage;
        private final Expr field;

        Avg(int stage, Expr field, int pos) {
            super(pos);
            this.stage = stage;
            this.field = field;
        }

        @Override
        Object value(Object event, Scope scope) {
            double sum = 0;
            int n = 0;
            List<?> events = scope.events(stage);
            for (int i = 0; i < events.size(); i++) {
                Object v = field.value(events.get(i), null);
                if (v == null) {
                    continue;
                }
                if (!(v instanceof Number number)) {
                    throw new EvalError(pos, "avg needs numbers, got " + Values.describe(v));
                }
                sum += number.doubleValue();
                n++;
            }
            return n == 0 ? null : sum / n;
        }
    }

    /** {@code min(s.f)} and {@code max(s.f)}: ordered as comparisons order values. */
    static final class Extreme extends Expr {
        private final int stage;
        private final Expr field;
        private final boolean max;

        Extreme(int stage, Expr field, boolean max, int pos) {
            super(pos);
            this.stage = stage;
            this.field = field;
            this.max = max;
        }

        @Override
        Object value(Object event, Scope scope) {
            Object best = null;
            List<?> events = scope.events(stage);
            for (int i = 0; i < events.size(); i++) {
                Object v = field.value(events.get(i), null);
                if (v == null) {
                    continue;
                }
                if (best == null || Values.compare(max ? Ast.CmpOp.GT : Ast.CmpOp.LT, v, best, pos)) {
                    best = v;
                }
            }
            return best;
        }
    }

    /** {@code first(s.f)} and {@code last(s.f)}. */
    static final class Edge extends Expr {
        private final int stage;
        private final Expr field;
        private final boolean last;

        Edge(int stage, Expr field, boolean last, int pos) {
            super(pos);
            this.stage = stage;
            this.field = field;
            this.last = last;
        }

        @Override
        Object value(Object event, Scope scope) {
            List<?> events = scope.events(stage);
            if (events.isEmpty()) {
                return null;
            }
            return field.value(events.get(last ? events.size() - 1 : 0), null);
        }
    }
}
