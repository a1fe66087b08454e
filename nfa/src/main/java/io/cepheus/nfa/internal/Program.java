package io.cepheus.nfa.internal;

import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Condition;
import java.util.List;
import java.util.Map;

/**
 * A compiled NFA, frozen into int-indexed arrays: states, transitions in compressed rows, and the user
 * conditions ("atoms") the transitions test. Immutable after construction, so one program is shared by
 * every matcher, key and thread.
 *
 * @param <T> the event type
 */
public final class Program<T> {

    static final byte NORMAL = 0;
    static final byte FINAL = 1;
    static final byte STOP = 2;
    static final byte PENDING = 3;

    static final byte COND_TRUE = 0;
    static final byte COND_ATOM = 1;
    static final byte COND_NOT_ATOM = 2;
    static final byte COND_TREE = 3;

    static final byte TAKE = 0;
    static final byte IGNORE = 1;
    static final byte PROCEED = 2;

    final List<String> stageNames;
    final Map<String, Integer> stageIndex;
    final int startState;
    final byte[] stateKind;
    final int[] stateStage;
    final long[] stateGap;
    final String[] stateLabel;
    final boolean[] proceedsToFinal;
    final int[] edgeStart;
    final byte[] edgeAction;
    final int[] edgeTarget;
    final Expr[] edgeCondition;
    /** The condition's shape, so the common ones skip the virtual call: see {@link #COND_TRUE} etc. */
    final byte[] edgeCondShape;
    final int[] edgeCondAtom;
    final Condition<T>[] atoms;
    final boolean[] atomIterative;
    final String[] atomLabels;
    final long window;
    final AfterMatchSkipStrategy skipStrategy;
    final int skipStage;
    final boolean anyGap;
    /**
     * Whether the edges {@code collectEdges} picks from a state depend on the event only (every condition met
     * on the way is simple): then all partial matches in that state share one decision per event.
     */
    final boolean[] decisionDependsOnEventOnly;
    /** Whether {@code finalAfterProceed} from a state depends on the event only. */
    final boolean[] finalDependsOnEventOnly;
    /** Whether a state has a PROCEED edge (else deciding for it needs no depth-first walk). */
    final boolean[] hasProceed;
    /** See {@link #fingerprint()}. */
    private final long fingerprint;

    @SuppressWarnings("checkstyle:ParameterNumber")
    Program(List<String> stageNames, Map<String, Integer> stageIndex, int startState, byte[] stateKind,
            int[] stateStage, long[] stateGap, String[] stateLabel, boolean[] proceedsToFinal, int[] edgeStart,
            byte[] edgeAction, int[] edgeTarget, Expr[] edgeCondition, Condition<T>[] atoms, boolean[] atomIterative,
            String[] atomLabels, long window, AfterMatchSkipStrategy skipStrategy, int skipStage) {
        this.stageNames = stageNames;
        this.stageIndex = stageIndex;
        this.startState = startState;
        this.stateKind = stateKind;
        this.stateStage = stateStage;
        this.stateGap = stateGap;
        this.stateLabel = stateLabel;
        this.proceedsToFinal = proceedsToFinal;
        this.edgeStart = edgeStart;
        this.edgeAction = edgeAction;
        this.edgeTarget = edgeTarget;
        this.edgeCondition = edgeCondition;
        this.edgeCondShape = new byte[edgeCondition.length];
        this.edgeCondAtom = new int[edgeCondition.length];
        for (int e = 0; e < edgeCondition.length; e++) {
            Expr c = edgeCondition[e];
            if (c == Expr.TRUE) {
                edgeCondShape[e] = COND_TRUE;
            } else if (c instanceof Expr.Atom a) {
                edgeCondShape[e] = COND_ATOM;
                edgeCondAtom[e] = a.index;
            } else if (c instanceof Expr.Not n && n.inner instanceof Expr.Atom a) {
                edgeCondShape[e] = COND_NOT_ATOM;
                edgeCondAtom[e] = a.index;
            } else {
                edgeCondShape[e] = COND_TREE;
            }
        }
        this.atoms = atoms;
        this.atomIterative = atomIterative;
        this.atomLabels = atomLabels;
        this.window = window;
        this.skipStrategy = skipStrategy;
        this.skipStage = skipStage;
        boolean gaps = false;
        for (long g : stateGap) {
            gaps |= g > 0;
        }
        this.anyGap = gaps;
        int n = stateKind.length;
        this.hasProceed = new boolean[n];
        for (int st = 0; st < n; st++) {
            for (int e = edgeStart[st]; e < edgeStart[st + 1]; e++) {
                hasProceed[st] |= edgeAction[e] == PROCEED;
            }
        }
        this.finalDependsOnEventOnly = new boolean[n];
        this.decisionDependsOnEventOnly = new boolean[n];
        for (int st = 0; st < n; st++) {
            finalDependsOnEventOnly[st] = proceedClosureIsSimple(st, false);
        }
        for (int st = 0; st < n; st++) {
            decisionDependsOnEventOnly[st] = proceedClosureIsSimple(st, true);
        }
        this.fingerprint = computeFingerprint();
    }

    /**
     * The ways an event can begin a partial match: one per TAKE edge reachable from the start state over PROCEED
     * edges (whatever their conditions: a superset), each as the atoms its condition requires to be true (the atoms
     * of the conjunction at its root that are not negated). From the start state only a TAKE creates anything, so an
     * event that meets no way's atoms begins nothing. A way with no such atom requires nothing nameable.
     */
    public List<List<Condition<T>>> startWays() {
        List<List<Condition<T>>> ways = new java.util.ArrayList<>();
        boolean[] seen = new boolean[stateKind.length];
        java.util.ArrayDeque<Integer> todo = new java.util.ArrayDeque<>();
        todo.push(startState);
        seen[startState] = true;
        while (!todo.isEmpty()) {
            int s = todo.pop();
            for (int e = edgeStart[s]; e < edgeStart[s + 1]; e++) {
                if (edgeAction[e] == PROCEED) {
                    if (!seen[edgeTarget[e]]) {
                        seen[edgeTarget[e]] = true;
                        todo.push(edgeTarget[e]);
                    }
                } else if (edgeAction[e] == TAKE) {
                    List<Condition<T>> required = new java.util.ArrayList<>();
                    requiredAtoms(edgeCondition[e], required);
                    ways.add(List.copyOf(required));
                }
            }
        }
        return List.copyOf(ways);
    }

    /**
     * What an event must meet to change a partial match waiting past the start state, for an engine that hands an
     * event only to the patterns it can affect: one way per TAKE edge out of a state a partial match can wait in,
     * as the atoms its condition requires. An event that meets none of them leaves every waiting partial match as
     * it is: each such state's other edges are IGNORE edges that hold whenever its TAKE edges do not (an IGNORE
     * whose condition is true, or the negation of a TAKE edge's lone atom). Time still passes for the partial
     * matches, as it does at the watermark.
     *
     * @return the ways, or null if some waiting state is not of that form (a PROCEED edge, a strict contiguity that
     *         drops a partial match on any other event, a pending match, a TAKE whose condition requires nothing
     *         nameable) or the pattern has a skip strategy
     */
    public List<List<Condition<T>>> waitWays() {
        if (skipStrategy.isSkipping()) {
            return null; // held matches are released as earlier partial matches end: keep every event's step
        }
        List<List<Condition<T>>> ways = new java.util.ArrayList<>();
        for (int s = 0; s < stateKind.length; s++) {
            if (s == startState || stateKind[s] == FINAL || stateKind[s] == STOP) {
                continue;
            }
            if (stateKind[s] != NORMAL) {
                return null;
            }
            boolean[] takesAtom = new boolean[atoms.length];
            for (int e = edgeStart[s]; e < edgeStart[s + 1]; e++) {
                if (edgeAction[e] == PROCEED) {
                    return null;
                }
                if (edgeAction[e] == TAKE) {
                    List<Condition<T>> required = new java.util.ArrayList<>();
                    requiredAtoms(edgeCondition[e], required);
                    if (required.isEmpty()) {
                        return null;
                    }
                    ways.add(List.copyOf(required));
                    if (edgeCondition[e] instanceof Expr.Atom a) {
                        takesAtom[a.index] = true;
                    }
                }
            }
            for (int e = edgeStart[s]; e < edgeStart[s + 1]; e++) {
                if (edgeAction[e] == IGNORE) {
                    Expr c = edgeCondition[e];
                    boolean holdsWhenNoTake = c == Expr.TRUE
                            || (c instanceof Expr.Not n && n.inner instanceof Expr.Atom a && takesAtom[a.index]);
                    if (!holdsWhenNoTake) {
                        return null;
                    }
                }
            }
            boolean ignores = false;
            for (int e = edgeStart[s]; e < edgeStart[s + 1]; e++) {
                ignores |= edgeAction[e] == IGNORE;
            }
            if (!ignores) {
                return null; // strict contiguity: an event it does not take ends the partial match
            }
        }
        return List.copyOf(ways);
    }

    private void requiredAtoms(Expr c, List<Condition<T>> out) {
        if (c instanceof Expr.Atom a) {
            out.add(atoms[a.index]);
        } else if (c instanceof Expr.And and) {
            requiredAtoms(and.left, out);
            requiredAtoms(and.right, out);
        }
    }

    /**
     * Identifies the structure a key's state depends on: stage names, states (kind, stage, gap), each state's
     * edges (action, target, the shape of the condition tree over atoms), which atoms are iterative, the
     * window and the skip strategy. A quantifier, a contiguity or a window shows up in these. The atoms
     * themselves (user lambdas) cannot be compared: their identity and class names are not stable across JVMs
     * or builds. Only values with a hash defined by the language go in (strings, numbers, enum names rather
     * than ordinals), and the program is built deterministically, so the same pattern gives the same
     * fingerprint in every JVM.
     *
     * @return the fingerprint
     */
    public long fingerprint() {
        return fingerprint;
    }

    private long computeFingerprint() {
        Fingerprint f = new Fingerprint();
        f.add(stageNames.size());
        for (String name : stageNames) {
            f.add(name);
        }
        f.add(startState);
        f.add(stateKind.length);
        for (int s = 0; s < stateKind.length; s++) {
            f.add(stateKind[s]);
            f.add(stateStage[s]);
            f.add(stateGap[s]);
            f.add(edgeStart[s + 1] - edgeStart[s]);
            for (int e = edgeStart[s]; e < edgeStart[s + 1]; e++) {
                f.add(edgeAction[e]);
                f.add(edgeTarget[e]);
                addCondition(f, edgeCondition[e]);
            }
        }
        f.add(atomIterative.length);
        for (boolean iterative : atomIterative) {
            f.add(iterative ? 1 : 0);
        }
        f.add(window);
        f.add(skipStrategy.kind().name());
        f.add(skipStage);
        f.add(skipStrategy.throwOnAbsent() ? 1 : 0);
        return f.value();
    }

    private static void addCondition(Fingerprint f, Expr c) {
        if (c == Expr.TRUE) {
            f.add(1);
        } else if (c instanceof Expr.Atom a) {
            f.add(2);
            f.add(a.index);
        } else if (c instanceof Expr.Not n) {
            f.add(3);
            addCondition(f, n.inner);
        } else if (c instanceof Expr.And and) {
            f.add(4);
            addCondition(f, and.left);
            addCondition(f, and.right);
        } else if (c instanceof Expr.Or or) {
            f.add(5);
            addCondition(f, or.left);
            addCondition(f, or.right);
        } else {
            throw new IllegalStateException("unknown condition node " + c.getClass().getName());
        }
    }

    /** A 64-bit hash accumulated value by value (each step mixed, so order and position matter). */
    private static final class Fingerprint {
        private long h = 0x43455046_50524E54L; // "CEPFPRNT"

        void add(long v) {
            h = Long.rotateLeft((h ^ v) * 0x9E3779B97F4A7C15L, 31) + 0x632BE59BD9B4E019L;
        }

        void add(String s) {
            add(s.length());
            add(s.hashCode());
        }

        long value() {
            long x = h;
            x = (x ^ (x >>> 33)) * 0xFF51AFD7ED558CCDL;
            x = (x ^ (x >>> 33)) * 0xC4CEB9FE1A85EC53L;
            return x ^ (x >>> 33);
        }
    }

    /**
     * @param from      a state
     * @param withTakes also check TAKE / IGNORE edges met on the way and the final-after-proceed of TAKE targets
     * @return whether every condition met walking PROCEED edges from {@code from} is simple
     */
    private boolean proceedClosureIsSimple(int from, boolean withTakes) {
        boolean[] seen = new boolean[stateKind.length];
        int[] stack = new int[stateKind.length];
        int sp = 0;
        stack[sp++] = from;
        seen[from] = true;
        while (sp > 0) {
            int st = stack[--sp];
            for (int e = edgeStart[st]; e < edgeStart[st + 1]; e++) {
                boolean proceed = edgeAction[e] == PROCEED;
                if (!proceed && !withTakes) {
                    continue;
                }
                if (usesIterative(edgeCondition[e])) {
                    return false;
                }
                if (proceed && !seen[edgeTarget[e]]) {
                    seen[edgeTarget[e]] = true;
                    stack[sp++] = edgeTarget[e];
                }
                if (edgeAction[e] == TAKE && !finalDependsOnEventOnly[edgeTarget[e]]) {
                    return false;
                }
            }
        }
        return true;
    }

    private boolean usesIterative(Expr c) {
        if (c instanceof Expr.Atom a) {
            return atomIterative[a.index];
        }
        if (c instanceof Expr.Not n) {
            return usesIterative(n.inner);
        }
        if (c instanceof Expr.And and) {
            return usesIterative(and.left) || usesIterative(and.right);
        }
        if (c instanceof Expr.Or or) {
            return usesIterative(or.left) || usesIterative(or.right);
        }
        return false;
    }

    /** @return stage names in pattern order */
    public List<String> stageNames() {
        return stageNames;
    }

    /** @return the whole-pattern window in ms, 0 if none */
    public long window() {
        return window;
    }

    /** @return the after-match skip strategy */
    public AfterMatchSkipStrategy skipStrategy() {
        return skipStrategy;
    }

    /** @return the number of states */
    public int stateCount() {
        return stateKind.length;
    }

    /**
     * @param stage a stage name
     * @return its index in {@link #stageNames()}
     * @throws IllegalArgumentException if there is no such stage
     */
    int stageIndexOf(String stage) {
        Integer index = stageIndex.get(stage);
        if (index == null) {
            throw new IllegalArgumentException("the pattern has no stage '" + stage + "'; stages: " + stageNames);
        }
        return index;
    }
}
