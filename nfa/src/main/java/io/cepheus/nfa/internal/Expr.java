package io.cepheus.nfa.internal;

/**
 * A frozen transition condition: a small tree over user-condition atoms. Atoms are evaluated through the
 * {@link AtomSource}, which caches them (simple atoms once per event, iterative ones once per partial match).
 */
abstract class Expr {

    static final Expr TRUE = new Expr() {
        @Override
        boolean eval(AtomSource atoms) {
            return true;
        }

        @Override
        String describe(String[] atomLabels) {
            return "true";
        }
    };

    abstract boolean eval(AtomSource atoms);

    abstract String describe(String[] atomLabels);

    /** Gives atom values to {@link Expr#eval}. */
    interface AtomSource {
        boolean atom(int index);
    }

    static final class Atom extends Expr {
        final int index;

        Atom(int index) {
            this.index = index;
        }

        @Override
        boolean eval(AtomSource atoms) {
            return atoms.atom(index);
        }

        @Override
        String describe(String[] atomLabels) {
            return atomLabels[index];
        }
    }

    static final class Not extends Expr {
        final Expr inner;

        Not(Expr inner) {
            this.inner = inner;
        }

        @Override
        boolean eval(AtomSource atoms) {
            return !inner.eval(atoms);
        }

        @Override
        String describe(String[] atomLabels) {
            return "!" + inner.describe(atomLabels);
        }
    }

    static final class And extends Expr {
        final Expr left;
        final Expr right;

        And(Expr left, Expr right) {
            this.left = left;
            this.right = right;
        }

        @Override
        boolean eval(AtomSource atoms) {
            return left.eval(atoms) && right.eval(atoms);
        }

        @Override
        String describe(String[] atomLabels) {
            return "(" + left.describe(atomLabels) + " & " + right.describe(atomLabels) + ")";
        }
    }

    static final class Or extends Expr {
        final Expr left;
        final Expr right;

        Or(Expr left, Expr right) {
            this.left = left;
            this.right = right;
        }

        @Override
        boolean eval(AtomSource atoms) {
            return left.eval(atoms) || right.eval(atoms);
        }

        @Override
        String describe(String[] atomLabels) {
            return "(" + left.describe(atomLabels) + " | " + right.describe(atomLabels) + ")";
        }
    }
}
