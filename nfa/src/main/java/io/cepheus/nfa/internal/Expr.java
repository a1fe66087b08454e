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

    /** Adds the indexes of the atoms it reads to {@code out} (for explanations: not on the matching path). */
    void atoms(java.util.List<Integer> out) {
        if (this instanceof Atom a) {
            out.add(a.index);
        } else if (this instanceof Not n) {
            n.inner.atoms(out);
        } else if (this instanceof And a) {
            a.left.atoms(out);
            a.right.atoms(out);
        } else if (this instanceof Or o) {
            o.left.atoms(out);
            o.right.atoms(out);
        }
    }

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
