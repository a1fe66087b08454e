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
