package io.cepheus.rules.internal.expr;

/** Constant nodes: literals, and sub-expressions the compiler folded because they read nothing of the event. */
final class Constants {

    private Constants() {
    }

    /** A constant boolean. */
    static final class OfBool extends BoolExpr {
        final boolean value;

        OfBool(boolean value, int pos) {
            super(pos);
            this.value = value;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            return value;
        }

        @Override
        boolean isConstant() {
            return true;
        }
    }

    /** A constant integer. */
    static final class OfLong extends LongExpr {
        final long value;

        OfLong(long value, int pos) {
            super(pos);
            this.value = value;
        }

        @Override
        long evalLong(Object event, Scope scope) {
            return value;
        }

        @Override
        boolean isConstant() {
            return true;
        }
    }

    /** A constant decimal. */
    static final class OfDouble extends DoubleExpr {
        final double value;

        OfDouble(double value, int pos) {
            super(pos);
            this.value = value;
        }

        @Override
        double evalDouble(Object event, Scope scope) {
            return value;
        }

        @Override
        boolean isConstant() {
            return true;
        }
    }

    /** A constant string, or null. */
    static final class OfValue extends Expr {
        final Object value;

        OfValue(Object value, int pos) {
            super(pos);
            this.value = value;
        }

        @Override
        Object value(Object event, Scope scope) {
            return value;
        }

        @Override
        boolean isConstant() {
            return true;
        }
    }
}
