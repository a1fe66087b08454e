package io.cepheus.nfa.internal;

import io.cepheus.pattern.Condition;
import io.cepheus.pattern.SimpleCondition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Which edges an event follows out of a state: the edges whose conditions hold, found depth first over PROCEED
 * edges, as (edge, source state) pairs. Conditions are user code of any cost (and, for a simple one, its result
 * cannot change within an event), so this class evaluates each as seldom as the semantics allow:
 * <ul>
 *   <li>a simple condition (event only) at most once per event, whatever the number of partial matches;</li>
 *   <li>an iterative condition once per partial match (it reads the partial match through its context);</li>
 *   <li>a state whose edges have simple conditions only decides once per event: partial matches in the same
 *       state share the decision ({@link #decide});</li>
 *   <li>the probe of {@link #ignoredByNewState} and the step that follows on the same event share their
 *       condition results.</li>
 * </ul>
 * Results are cached under stamps (a counter bumped per event and per partial match), so nothing is cleared
 * between events.
 *
 * <p>Owned by the thread of the {@link NfaEngine} that holds it.
 *
 * @param <T> the event type
 */
final class EdgeDecisions<T> {

    private static final int NONE = SharedBuffer.NONE;

    private final Program<T> program;
    private final SharedBuffer buffer;
    private final LongSupplier processingTime;
    private final Context context = new Context();
    private final Atoms atomSource = new Atoms();

    // the event being matched
    private T event;
    private long eventTime;

    /** Edges the last {@link #decide} picked: (edge, source state) pairs in {@link #pool}. */
    private int edgeCount;
    // per-event decision cache: the edges picked from a state whose conditions are all simple; a state whose
    // decision depends on the partial match decides into the free space after the cached decisions
    private final long[] decisionStamp;
    private final int[] decisionStart;
    private final int[] decisionLength;
    private int[] pool = new int[64];
    private int poolSize;
    private final long[] finalStamp;
    private final int[] finalState;
    private int[] stack = new int[16];

    // condition cache: a simple atom is valid for the event, an iterative one for one partial match
    private final long[] atomStamp;
    private final boolean[] atomValue;
    /** The atoms that are {@link SimpleCondition}s, called through {@code filter} directly (one interface
     *  dispatch per evaluation instead of two: {@code test} would only forward to it); null for the others. */
    private final SimpleCondition<T>[] simpleAtoms;
    /** {@link Program#edgeCondShape}, with an atom or negated atom that is simple told apart (its cache check
     *  needs no partial match): {@link #SIMPLE_ATOM}, {@link #NOT_SIMPLE_ATOM}. */
    private final byte[] edgeShape;
    private static final byte SIMPLE_ATOM = 4;
    private static final byte NOT_SIMPLE_ATOM = 5;
    private long stampCounter;
    private long eventStamp;
    /**
     * The event {@link #ignoredByNewState} last answered false for, and the stamp its conditions were cached
     * under: the step that follows on that event reuses the stamp, so each simple condition still runs once.
     */
    private Object probedEvent;
    private long probedStamp;
    private long partialStamp;
    private int contextEntry = NONE;
    /** The state and edge whose condition is being evaluated (edge -1: none), named if the condition throws. */
    private int evaluatingState;
    private int evaluatingEdge = -1;

    EdgeDecisions(Program<T> program, SharedBuffer buffer, LongSupplier processingTime) {
        this.program = program;
        this.buffer = buffer;
        this.processingTime = processingTime;
        int states = program.stateCount();
        this.decisionStamp = new long[states];
        this.decisionStart = new int[states];
        this.decisionLength = new int[states];
        this.finalStamp = new long[states];
        this.finalState = new int[states];
        Arrays.fill(decisionStamp, -1);
        Arrays.fill(finalStamp, -1);
        this.atomStamp = new long[program.atoms.length];
        this.atomValue = new boolean[program.atoms.length];
        Arrays.fill(atomStamp, -1);
        @SuppressWarnings("unchecked")
        SimpleCondition<T>[] simple = new SimpleCondition[program.atoms.length];
        for (int i = 0; i < simple.length; i++) {
            if (program.atoms[i] instanceof SimpleCondition<T> sc) {
                simple[i] = sc;
            }
        }
        this.simpleAtoms = simple;
        this.edgeShape = program.edgeCondShape.clone();
        for (int e = 0; e < edgeShape.length; e++) {
            boolean atom = edgeShape[e] == Program.COND_ATOM || edgeShape[e] == Program.COND_NOT_ATOM;
            if (atom && !program.atomIterative[program.edgeCondAtom[e]]) {
                edgeShape[e] = edgeShape[e] == Program.COND_ATOM ? SIMPLE_ATOM : NOT_SIMPLE_ATOM;
            }
        }
    }

    /** Starts deciding for an event: earlier decisions and simple-condition results no longer hold. */
    void startEvent(T e, long time) {
        event = e;
        eventTime = time;
        eventStamp = e == probedEvent ? probedStamp : ++stampCounter;
        probedEvent = null;
        poolSize = 0;
    }

    /** Ends the event: nothing is decided until the next {@link #startEvent}; the event is not kept. */
    void endEvent() {
        event = null;
    }

    /**
     * Starts deciding for one partial match: iterative conditions see it (its last buffer entry, or
     * {@code NONE} for the start state) and are evaluated anew.
     */
    void startPartialMatch(int entry) {
        partialStamp = ++stampCounter;
        contextEntry = entry;
    }

    /** @return the pairs of the decisions; read after {@link #decide}, which may grow it */
    int[] pool() {
        return pool;
    }

    /** @return how many pairs the last {@link #decide} picked */
    int edgeCount() {
        return edgeCount;
    }

    /**
     * @return the state whose condition was being evaluated when one threw: for a NOT stage, whose condition is
     *     evaluated on the edge into its STOP state, that STOP state
     */
    int failedState() {
        return evaluatingEdge >= 0 && program.stateKind[program.edgeTarget[evaluatingEdge]] == Program.STOP
                ? program.edgeTarget[evaluatingEdge] : evaluatingState;
    }

    /** See {@code NfaMatcher#ignoredByNewState}. */
    boolean ignoredByNewState(T e) {
        probedEvent = null;
        int start = program.startState;
        if (!program.decisionDependsOnEventOnly[start]) {
            return false; // an iterative condition on the way: leave it to the step, with its context
        }
        event = e;
        eventStamp = ++stampCounter;
        int n;
        try {
            n = collectEdges(start, 0);
        } catch (RuntimeException ex) {
            return false; // the step evaluates it again and reports it, naming the stage
        } finally {
            event = null;
        }
        for (int i = 0; i < n; i++) {
            if (program.edgeAction[pool[2 * i]] == Program.TAKE) {
                probedEvent = e;
                probedStamp = eventStamp;
                return false;
            }
        }
        return true; // from the start state only a TAKE creates anything (see NfaEngine#branch)
    }

    /**
     * Picks the edges to follow from a state for the current event, as (edge, source state) pairs in
     * {@link #pool}; reuses the decision made for another partial match in the same state when it
     * depends on the event alone.
     *
     * @return where the pairs start in {@link #pool()}; {@link #edgeCount()} says how many there are
     */
    int decide(int state) {
        int at = poolSize;
        if (!program.decisionDependsOnEventOnly[state]) {
            edgeCount = collectEdges(state, at); // scratch space: the next decision overwrites it
            return at;
        }
        if (decisionStamp[state] == eventStamp) {
            edgeCount = decisionLength[state];
            return decisionStart[state];
        }
        int n = collectEdges(state, at);
        decisionStart[state] = at;
        decisionLength[state] = n;
        decisionStamp[state] = eventStamp;
        poolSize = at + 2 * n;
        edgeCount = n;
        return at;
    }
    /**
     * Depth-first over PROCEED edges; writes the TAKE and IGNORE edges whose condition holds, in order, as
     * (edge, source state) pairs into {@link #pool} from {@code at}.
     *
     * @return the number of pairs
     */
    private int collectEdges(int from, int at) {
        if (!program.hasProceed[from]) {
            return collectOwnEdges(from, at);
        }
        int n = 0;
        int sp = 0;
        stack[sp++] = from;
        while (sp > 0) {
            int s = stack[--sp];
            evaluatingState = s;
            for (int e = program.edgeStart[s]; e < program.edgeStart[s + 1]; e++) {
                evaluatingEdge = e;
                if (!holds(e)) {
                    continue;
                }
                if (program.edgeAction[e] == Program.PROCEED) {
                    if (sp == stack.length) {
                        stack = Arrays.copyOf(stack, sp * 2);
                    }
                    stack[sp++] = program.edgeTarget[e];
                } else {
                    putDecision(at + 2 * n++, e, s);
                }
            }
        }
        evaluatingEdge = -1;
        return n;
    }

    /** {@link #collectEdges} for a state without PROCEED edges: its own edges only, no stack. */
    private int collectOwnEdges(int s, int at) {
        int n = 0;
        evaluatingState = s;
        for (int e = program.edgeStart[s]; e < program.edgeStart[s + 1]; e++) {
            evaluatingEdge = e;
            if (holds(e)) {
                putDecision(at + 2 * n++, e, s);
            }
        }
        evaluatingEdge = -1;
        return n;
    }

    /** Writes the pair (edge, source state) at {@code w} of {@link #pool}, growing it if needed. */
    private void putDecision(int w, int edge, int source) {
        if (w + 2 > pool.length) {
            pool = Arrays.copyOf(pool, Math.max(pool.length * 2, w + 2));
        }
        pool[w] = edge;
        pool[w + 1] = source;
    }

    /** Evaluates an edge's condition; the common shapes avoid the expression tree's virtual calls. */
    private boolean holds(int edge) {
        switch (edgeShape[edge]) {
            case SIMPLE_ATOM:
                return simpleAtom(program.edgeCondAtom[edge]);
            case NOT_SIMPLE_ATOM:
                return !simpleAtom(program.edgeCondAtom[edge]);
            case Program.COND_TRUE:
                return true;
            case Program.COND_ATOM:
                return atomSource.atom(program.edgeCondAtom[edge]);
            case Program.COND_NOT_ATOM:
                return !atomSource.atom(program.edgeCondAtom[edge]);
            default:
                return program.edgeCondition[edge].eval(atomSource);
        }
    }

    /** {@link Atoms#atom} for a simple atom: evaluated once per event. */
    private boolean simpleAtom(int index) {
        if (atomStamp[index] == eventStamp) {
            return atomValue[index];
        }
        SimpleCondition<T> simple = simpleAtoms[index];
        boolean v = simple != null ? simple.filter(event) : program.atoms[index].test(event, context);
        atomValue[index] = v;
        atomStamp[index] = eventStamp;
        return v;
    }

    /** After a TAKE into {@code state}: the final state if PROCEED edges that hold lead there, else -1; cached
     *  per event where that depends on the event alone. */
    int cachedFinalAfterProceed(int state) {
        if (!program.finalDependsOnEventOnly[state]) {
            return finalAfterProceed(state);
        }
        if (finalStamp[state] != eventStamp) {
            finalState[state] = finalAfterProceed(state);
            finalStamp[state] = eventStamp;
        }
        return finalState[state];
    }

    /** After a TAKE into {@code state}: the final state if PROCEED edges that hold lead there, else -1. */
    private int finalAfterProceed(int state) {
        int[] local = stack; // free again: collectEdges has finished with it
        int sp = 0;
        local[sp++] = state;
        while (sp > 0) {
            int s = local[--sp];
            for (int e = program.edgeStart[s]; e < program.edgeStart[s + 1]; e++) {
                if (program.edgeAction[e] != Program.PROCEED) {
                    continue;
                }
                evaluatingState = s;
                evaluatingEdge = -1;
                if (!holds(e)) {
                    continue;
                }
                int t = program.edgeTarget[e];
                if (program.stateKind[t] == Program.FINAL) {
                    return t;
                }
                if (sp == local.length) {
                    local = Arrays.copyOf(local, sp * 2);
                    stack = local;
                }
                local[sp++] = t;
            }
        }
        return -1;
    }
    /** Evaluates atoms with caching: simple ones once per event, iterative ones once per partial match. */
    private final class Atoms implements Expr.AtomSource {
        @Override
        public boolean atom(int index) {
            boolean iterative = program.atomIterative[index];
            long stamp = atomStamp[index];
            if (iterative ? stamp == partialStamp : stamp >= eventStamp) {
                return atomValue[index];
            }
            SimpleCondition<T> simple = simpleAtoms[index];
            boolean v = simple != null ? simple.filter(event) : program.atoms[index].test(event, context);
            atomValue[index] = v;
            atomStamp[index] = iterative ? partialStamp : eventStamp;
            return v;
        }
    }

    /** What iterative conditions see: the partial match being extended. */
    private final class Context implements Condition.Context<T> {
        @Override
        @SuppressWarnings("unchecked")
        public List<T> eventsForPattern(String stage) {
            int index = program.stageIndexOf(stage);
            List<T> out = new ArrayList<>();
            for (int e = contextEntry; e != NONE; e = buffer.prev(e)) {
                if (buffer.stage(e) == index) {
                    out.add((T) buffer.event(e));
                }
            }
            java.util.Collections.reverse(out);
            return out;
        }

        @Override
        public long timestamp() {
            return eventTime;
        }

        @Override
        public long currentProcessingTime() {
            return processingTime.getAsLong();
        }
    }
}
