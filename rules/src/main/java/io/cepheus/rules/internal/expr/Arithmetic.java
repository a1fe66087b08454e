package io.cepheus.rules.internal.expr;

/**
 * Arithmetic nodes. Integers stay integers and are exact: an overflow, like a division by zero, is an
 * {@link EvalError} for the event, not a wrapped-around number. A decimal operand makes the operation decimal; a
 * decimal result that is not finite is an error too.
 */
final class Arithmetic {

    private Arithmetic() {
    }

    static long longOp(Ast.ArithOp op, long a, long b, int pos) {
        try {
            return switch (op) {
                case ADD -> Math.addExact(a, b);
                case SUBTRACT -> Math.subtractExact(a, b);
                case MULTIPLY -> Math.multiplyExact(a, b);
                case DIVIDE -> {
                    if (b == 0) {
                        throw new EvalError(pos, "division by zero (" + a + " / 0)");
                    }
                    if (a == Long.MIN_VALUE && b == -1) {
                        throw new ArithmeticException();
                    }
                    yield a / b;
                }
                case REMAINDER -> {
                    if (b == 0) {
                        throw new EvalError(pos, "division by zero (" + a + " % 0)");
                    }
                    yield a % b;
                }
            };
        } catch (ArithmeticException overflow) {
            throw new EvalError(pos, "integer overflow: " + a + " " + op.symbol + " " + b
                    + " does not fit in 64 bits");
        }
    }

    static double doubleOp(Ast.ArithOp op, double a, double b, int pos) {
        double r = switch (op) {
            case ADD -> a + b;
            case SUBTRACT -> a - b;
            case MULTIPLY -> a * b;
            case DIVIDE -> {
                if (b == 0) {
                    throw new EvalError(pos, "division by zero (" + a + " / 0)");
                }
                yield a / b;
            }
            case REMAINDER -> {
                if (b == 0) {
                    throw new EvalError(pos, "division by zero (" + a + " % 0)");
                }
                yield a % b;
            }
        };
        if (Double.isNaN(r) || Double.isInfinite(r)) {
            if (Double.isNaN(a) || Double.isNaN(b) || Double.isInfinite(a)
                    || Double.isInfinite(b)) {
                return r; // not finite already going in: nothing new went wrong here
            }
            throw new EvalError(pos, "decimal overflow: " + a + " " + op.symbol + " " + b + " is not a finite number");
        }
        return r;
    }

    /** Integer arithmetic on two integer operands. */
    static final class OnLongs extends LongExpr {
        private final Ast.ArithOp op;
        private final LongExpr left;
        private final LongExpr right;

        OnLongs(Ast.ArithOp op, LongExpr left, LongExpr right, int pos) {
            super(pos);
            this.op = op;
            this.left = left;
            this.right = right;
        }

        @Override
        long evalLong(Object event, Scope scope) {
            return longOp(op, left.evalLong(event, scope), right.evalLong(event, scope), pos);
        }
    }

    /** Decimal arithmetic (one operand at least decimal). */
    static final class OnDoubles extends DoubleExpr {
        private final Ast.ArithOp op;
        private final DoubleExpr left;
        private final DoubleExpr right;

        OnDoubles(Ast.ArithOp op, DoubleExpr left, DoubleExpr right, int pos) {
            super(pos);
            this.op = op;
            this.left = left;
            this.right = right;
        }

        @Override
        double evalDouble(Object event, Scope scope) {
            return doubleOp(op, left.evalDouble(event, scope), right.evalDouble(event, scope), pos);
        }
    }

    /** Arithmetic on values whose types are known only when the event is read. */
    static final class OnValues extends Expr {
        private final Ast.ArithOp op;
        private final Expr left;
        private final Expr right;

        OnValues(Ast.ArithOp op, Expr left, Expr right, int pos) {
            super(pos);
            this.op = op;
            this.left = left;
            this.right = right;
        }

        @Override
        Object value(Object event, Scope scope) {
            Object a = left.value(event, scope);
            if (a == null) {
                return null;
            }
            return Values.arith(op, a, right.value(event, scope), pos);
        }
    }

    /** An integer operand where a decimal one is needed. */
    static final class LongAsDouble extends DoubleExpr {
        private final LongExpr inner;

        LongAsDouble(LongExpr inner) {
            super(inner.pos);
            this.inner = inner;
        }

        @Override
        double evalDouble(Object event, Scope scope) {
            return inner.evalLong(event, scope);
        }
    }

    /** {@code -x} of an integer. */
    static final class NegateLong extends LongExpr {
        private final LongExpr inner;

        NegateLong(LongExpr inner, int pos) {
            super(pos);
            this.inner = inner;
        }

        @Override
        long evalLong(Object event, Scope scope) {
            long v = inner.evalLong(event, scope);
            if (v == Long.MIN_VALUE) {
                throw new EvalError(pos, "integer overflow: -(" + v + ") does not fit in 64 bits");
            }
            return -v;
        }
    }

    /** {@code -x} of a decimal. */
    static final class NegateDouble extends DoubleExpr {
        private final DoubleExpr inner;

        NegateDouble(DoubleExpr inner, int pos) {
            super(pos);
            this.inner = inner;
        }

        @Override
        double evalDouble(Object event, Scope scope) {
            return -inner.evalDouble(event, scope);
        }
    }

    /** {@code -x} of a value known only when the event is read. */
    static final class NegateDynamic extends Expr {
        private final Expr inner;

        NegateDynamic(Expr inner, int pos) {
            super(pos);
            this.inner = inner;
        }

        @Override
        Object value(Object event, Scope scope) {
            return Values.negate(inner.value(event, scope), pos);
        }
    }
}
