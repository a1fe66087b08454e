package io.cepheus.nfa.internal;

import io.cepheus.pattern.Condition;
import io.cepheus.pattern.internal.AndCondition;
import io.cepheus.pattern.internal.NotCondition;
import io.cepheus.pattern.internal.OrCondition;

/**
 * A transition condition while the state graph is being built: user conditions as leaves, combined with
 * the and / or / not the construction adds (ignore = not take, until, greedy). Immutable.
 */
sealed interface Cond {

    /** Accepts everything. */
    Cond TRUE = new True();

    /** @param c a user condition, null meaning "accept everything" @return its builder form, flattened */
    @SuppressWarnings({"rawtypes", "unchecked"})
    static Cond of(Condition<?> c) {
        if (c == null) {
            return TRUE;
        }
        if (c instanceof AndCondition a) {
            return and(of(a.left()), of(a.right()));
        }
        if (c instanceof OrCondition o) {
            return or(of(o.left()), of(o.right()));
        }
        if (c instanceof NotCondition n) {
            return not(of(n.inner()));
        }
        return new Leaf(c);
    }

    static Cond and(Cond a, Cond b) {
        if (a == TRUE) {
            return b;
        }
        if (b == TRUE) {
            return a;
        }
        return new And(a, b);
    }

    static Cond or(Cond a, Cond b) {
        if (a == TRUE || b == TRUE) {
            return TRUE;
        }
        return new Or(a, b);
    }

    static Cond not(Cond a) {
        return a instanceof Not n ? n.inner() : new Not(a);
    }

    /** Always true. */
    record True() implements Cond {
        @Override
        public String toString() {
            return "true";
        }
    }

    /** A user condition. */
    record Leaf(Condition<?> condition) implements Cond {
    }

    /** Conjunction, left first. */
    record And(Cond left, Cond right) implements Cond {
    }

    /** Disjunction, left first. */
    record Or(Cond left, Cond right) implements Cond {
    }

    /** Negation. */
    record Not(Cond inner) implements Cond {
    }
}
