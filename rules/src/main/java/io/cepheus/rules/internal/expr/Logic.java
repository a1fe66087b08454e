package io.cepheus.rules.internal.expr;

/** Boolean connectives, short-circuit, and the conversion of a value into a boolean. */
final class Logic {

    private Logic() {
    }

    /** {@code left && right}. */
    static final class And extends BoolExpr {
        private final BoolExpr left;
        private final BoolExpr right;

        And(BoolExpr left, BoolExpr right, int pos) {
            super(pos);
            this.left = left;
            this.right = right;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            return left.test(event, scope) && right.test(event, scope);
        }
    }

    /** {@code left || right}. */
    static final class Or extends BoolExpr {
        private final BoolExpr left;
        private final BoolExpr right;

        Or(BoolExpr left, BoolExpr right, int pos) {
            super(pos);
            this.left = left;
            this.right = right;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            return left.test(event, scope) || right.test(event, scope);
        }
    }

    /** {@code !inner}. */
    static final class Not extends BoolExpr {
        private final BoolExpr inner;

        Not(BoolExpr inner, int pos) {
            super(pos);
            this.inner = inner;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            return !inner.test(event, scope);
        }
    }

    /** A value in a boolean position: a boolean as itself, null as false, anything else an error. */
    static final class Truth extends BoolExpr {
        private final Expr inner;

        Truth(Expr inner) {
            super(inner.pos);
            this.inner = inner;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            return Values.truth(inner.value(event, scope), pos);
        }
    }
}
