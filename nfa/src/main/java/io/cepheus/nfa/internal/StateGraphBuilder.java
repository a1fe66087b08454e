package io.cepheus.nfa.internal;

import io.cepheus.nfa.internal.StateGraph.Edge;
import io.cepheus.nfa.internal.StateGraph.Kind;
import io.cepheus.nfa.internal.StateGraph.Node;
import io.cepheus.pattern.Contiguity;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.Quantifier;
import io.cepheus.pattern.WithinType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the NFA state graph of a pattern, walking the stages from the last to the first, the way Flink
 * CEP's compiler does (Flink 2.x {@code NFACompiler}): each stage becomes states with TAKE (consume the event
 * and move on), IGNORE (skip the event, stay) and PROCEED (epsilon move, tried on the same event) edges.
 *
 * <ul>
 *   <li>relaxed contiguity = an IGNORE edge guarded by "not my condition"; non-deterministic relaxed = an
 *       IGNORE edge that is always true; strict = no IGNORE edge;</li>
 *   <li>{@code times(n, m)} = a chain of n mandatory and m - n optional single states; loops = a state with a
 *       TAKE edge to itself, a PROCEED edge to the next stage and, for relaxed inner contiguity, an IGNORE
 *       edge to a twin state that has no PROCEED edge (so each branch proceeds only once);</li>
 *   <li>NOT stages become edges into shared STOP states (reaching one discards the whole branch); a trailing
 *       {@code notFollowedBy} becomes a PENDING state, released as a match when its window closes;</li>
 *   <li>greedy loops guard the next stage's edges with "not the loop's condition".</li>
 * </ul>
 * The state and edge order reproduces Flink's, because the order in which branches are created decides
 * which held match a skip strategy releases first.
 *
 * <p>One instance compiles one pattern, on the compiling thread, and is then discarded.
 */
final class StateGraphBuilder<T> {

    static final String END_STATE = io.cepheus.pattern.internal.WholePatternRules.RESERVED_NAME;
    /** What Flink's group patterns are called, whatever their stages. */
    private static final String FLINK_GROUP_STATE_NAME = "GroupPattern";

    private final StateGraph graph = new StateGraph();
    private final Map<String, Node> stopStates = new HashMap<>();
    private final Map<Pattern<T>, Boolean> firstOfLoop = new IdentityHashMap<>();
    private final Map<Node, Node> originalStateMap = new IdentityHashMap<>();
    /** The stage names Flink has named a state after so far ({@link #createState}). */
    private final java.util.Set<String> flinkStateNames = new java.util.HashSet<>();
    private final long window;

    private Pattern<T> current;
    private Pattern<T> following;
    private Pattern<T> currentGroup;

    StateGraphBuilder(long window) {
        this.window = window;
    }

    StateGraph build(Pattern<T> last) {
        current = last;
        Node sink = graph.newNode(END_STATE, Kind.FINAL);
        sink = createMiddleStates(sink);
        Node start = convertPattern(sink);
        start.start = true;
        graph.start = start;
        checkTimesWindows();
        return graph;
    }

    private Node createMiddleStates(Node sink) {
        Node lastSink = sink;
        while (current.previous() != null) {
            Contiguity how = current.contiguity();
            if (how == Contiguity.NOT_FOLLOWED_BY) {
                // a middle notFollowedBy becomes stop edges on the following stage (see addStopStates)
                if ((gapOf(current) > 0 || window > 0) && lastSink.isFinal()) {
                    Node pending = createState(Kind.PENDING, true);
                    Cond not = takeCondition(current);
                    Node stop = stopState(not, current.name());
                    pending.addProceed(stop, not);
                    pending.addIgnore(pending, Cond.not(not));
                    lastSink = pending;
                }
            } else if (how == Contiguity.NOT_NEXT) {
                Node notNext = createState(Kind.NORMAL, true);
                Cond not = takeCondition(current);
                Node stop = stopState(not, current.name());
                if (lastSink.isFinal()) {
                    // an IGNORE into the final state, so that a real next event is needed to complete
                    notNext.addIgnore(lastSink, Cond.not(not));
                } else {
                    notNext.addProceed(lastSink, Cond.not(not));
                }
                notNext.addProceed(stop, not);
                lastSink = notNext;
            } else {
                lastSink = convertPattern(lastSink);
            }
            following = current;
            current = current.previous();
        }
        return lastSink;
    }

    private Node convertPattern(Node sink) {
        Quantifier q = current.quantifier();
        Node lastSink;
        if (q.kind() == Quantifier.Kind.LOOPING) {
            setFirstOfLoop(false);
            Node looping = createLooping(copyWithoutTransitiveNots(sink));
            setFirstOfLoop(true);
            lastSink = createTimesState(looping, sink, q.from(), q.from());
        } else if (q.kind() == Quantifier.Kind.TIMES) {
            lastSink = createTimesState(sink, sink, q.from(), q.to());
        } else {
            lastSink = createSingletonState(sink);
        }
        addStopStates(lastSink);
        return lastSink;
    }

    private Node createTimesState(Node sink, Node proceed, int from, int to) {
        Node lastSink = sink;
        setFirstOfLoop(false);
        Cond until = untilOf(current);
        Cond innerIgnore = extendWithUntil(innerIgnoreCondition(current), until, false);
        Cond take = extendWithUntil(takeCondition(current), until, true);
        if (current.quantifier().greedy() && from != to) {
            if (until != null) {
                originalStateMap.put(sink, copy(sink));
            }
            updateWithGreedyCondition(sink, take);
        }
        for (int i = from; i < to; i++) {
            lastSink = createSingletonState(lastSink, proceed, take, innerIgnore, true);
            addStopStateToLooping(lastSink);
        }
        for (int i = 0; i < from - 1; i++) {
            lastSink = createSingletonState(lastSink, null, take, innerIgnore, false);
            addStopStateToLooping(lastSink);
        }
        setFirstOfLoop(true);
        return createSingletonState(lastSink, proceed, take, ignoreCondition(current),
                current.quantifier().optional());
    }

    private Node createSingletonState(Node sink) {
        return createSingletonState(sink, sink, takeCondition(current), ignoreCondition(current),
                current.quantifier().optional());
    }

    private Node createSingletonState(Node sink, Node proceed, Cond take, Cond ignore, boolean optional) {
        if (current.isGroup()) {
            return createGroupState(current, sink, proceed, optional);
        }
        Node single = createState(Kind.NORMAL, true);
        // taking an event ends the reach of NOT stages before an optional stage
        Node takeTarget = copyWithoutTransitiveNots(sink);
        single.addTake(takeTarget, take);
        Cond proceedCond = trueCondition();
        if (optional) {
            if (current.quantifier().greedy()) {
                Cond until = untilOf(current);
                if (until != null) {
                    single.addProceed(originalStateMap.getOrDefault(proceed, proceed), Cond.and(proceedCond, until));
                }
                single.addProceed(proceed, until != null ? Cond.and(proceedCond, Cond.not(until)) : proceedCond);
            } else {
                single.addProceed(proceed, proceedCond);
            }
        }
        if (ignore != null) {
            Node ignoreState;
            if (optional || isHeadOfOptionalGroup(current)) {
                // a twin without the PROCEED edge: a branch that ignored an event must not proceed again
                ignoreState = createState(Kind.NORMAL, false);
                ignoreState.addTake(takeTarget, take);
                ignoreState.addIgnore(ignoreState, ignore);
                addStopStates(ignoreState);
            } else {
                ignoreState = single;
            }
            single.addIgnore(ignoreState, ignore);
        }
        return single;
    }

    private Node createGroupState(Pattern<T> group, Node sink, Node proceed, boolean optional) {
        Cond proceedCond = trueCondition();
        Pattern<T> oldCurrent = current;
        Pattern<T> oldFollowing = following;
        Pattern<T> oldGroup = currentGroup;
        currentGroup = group;
        current = group.group();
        Node lastSink = createMiddleStates(sink);
        lastSink = convertPattern(lastSink);
        if (optional) {
            lastSink.addProceed(proceed, proceedCond);
        }
        current = oldCurrent;
        following = oldFollowing;
        currentGroup = oldGroup;
        return lastSink;
    }

    private Node createLoopingGroupState(Pattern<T> group, Node sink) {
        Cond proceedCond = trueCondition();
        Pattern<T> oldCurrent = current;
        Pattern<T> oldFollowing = following;
        Pattern<T> oldGroup = currentGroup;
        Node loopBack = createState(Kind.NORMAL, true);
        currentGroup = group;
        current = group.group();
        Node lastSink = createMiddleStates(loopBack);
        lastSink = convertPattern(lastSink);
        lastSink.addProceed(sink, proceedCond);
        loopBack.addProceed(lastSink, proceedCond);
        current = oldCurrent;
        following = oldFollowing;
        currentGroup = oldGroup;
        return lastSink;
    }

    private Node createLooping(Node sink) {
        if (current.isGroup()) {
            return createLoopingGroupState(current, sink);
        }
        Cond until = untilOf(current);
        Cond ignore = extendWithUntil(innerIgnoreCondition(current), until, false);
        Cond take = extendWithUntil(takeCondition(current), until, true);
        Cond proceedCond = trueCondition();
        Node looping = createState(Kind.NORMAL, true);
        if (current.quantifier().greedy()) {
            if (until != null) {
                Node sinkCopy = copy(sink);
                looping.addProceed(sinkCopy, Cond.and(proceedCond, until));
                originalStateMap.put(sink, sinkCopy);
            }
            looping.addProceed(sink, until != null ? Cond.and(proceedCond, Cond.not(until)) : proceedCond);
            updateWithGreedyCondition(sink, takeCondition(current));
        } else {
            looping.addProceed(sink, proceedCond);
        }
        looping.addTake(looping, take);
        addStopStateToLooping(looping);
        if (ignore != null) {
            Node ignoreState = createState(Kind.NORMAL, false);
            ignoreState.addTake(looping, take);
            ignoreState.addIgnore(ignoreState, ignore);
            looping.addIgnore(ignoreState, ignore);
            addStopStateToLooping(ignoreState);
        }
        return looping;
    }

    // ------------------------------------------------------------------ NOT stages

    private record NotStage(Cond condition, String name) {
    }

    /** NOT stages (notFollowedBy) reachable backwards from the current stage through optional stages. */
    private List<NotStage> currentNotStages() {
        List<NotStage> out = new ArrayList<>();
        Pattern<T> p = current;
        while (p.previous() != null && (p.previous().quantifier().optional()
                || p.previous().contiguity() == Contiguity.NOT_FOLLOWED_BY)) {
            p = p.previous();
            if (p.contiguity() == Contiguity.NOT_FOLLOWED_BY) {
                out.add(new NotStage(takeCondition(p), p.name()));
            }
        }
        return out;
    }

    private void addStopStates(Node state) {
        for (NotStage not : currentNotStages()) {
            state.addProceed(stopState(not.condition(), not.name()), not.condition());
        }
    }

    private void addStopStateToLooping(Node state) {
        if (following != null && following.contiguity() == Contiguity.NOT_FOLLOWED_BY) {
            Cond not = takeCondition(following);
            state.addProceed(stopState(not, following.name()), not);
        }
    }

    private Node stopState(Cond not, String name) {
        return stopStates.computeIfAbsent(name, n -> {
            Node stop = graph.newNode(n, Kind.STOP);
            stop.addTake(stop, not);
            return stop;
        });
    }

    /** A copy of {@code sink} whose PROCEED edges no longer lead to the STOP states of the current NOTs. */
    private Node copyWithoutTransitiveNots(Node sink) {
        List<NotStage> nots = currentNotStages();
        if (nots.isEmpty() || !current.quantifier().optional()) {
            return sink;
        }
        // the copy has no gap even when the original has one: Flink keys a gap by state, and a copy is a state
        // of its own that was never given one
        Node copy = graph.newNode(sink.stage, sink.kind);
        for (Edge e : sink.edges) {
            if (e.action == StateGraph.Action.PROCEED) {
                Node target = e.target;
                boolean remove = false;
                if (target.kind == Kind.STOP) {
                    for (NotStage not : nots) {
                        remove |= target.stage.equals(not.name());
                    }
                } else {
                    target = copyWithoutTransitiveNots(target);
                }
                if (!remove) {
                    copy.addProceed(target, e.cond);
                }
            } else {
                copy.edges.add(new Edge(e.action, e.target == sink ? copy : e.target, e.cond));
            }
        }
        return copy;
    }

    private Node copy(Node state) {
        Node copy = graph.newNode(state.stage, state.kind); // no gap, as in copyWithoutTransitiveNots
        for (Edge e : state.edges) {
            copy.edges.add(new Edge(e.action, e.target == state ? copy : e.target, e.cond));
        }
        return copy;
    }

    private static void updateWithGreedyCondition(Node state, Cond loopTake) {
        for (Edge e : state.edges) {
            e.cond = Cond.and(e.cond, Cond.not(loopTake));
        }
    }

    // ------------------------------------------------------------------ conditions

    private Cond takeCondition(Pattern<T> p) {
        Cond take = Cond.of(p.condition());
        if (currentGroup != null && currentGroup.untilCondition() != null) {
            take = extendWithUntil(take, Cond.of(currentGroup.untilCondition()), true);
        }
        return take;
    }

    private Cond ignoreCondition(Pattern<T> p) {
        Contiguity how = p.contiguity();
        if (headOfGroup(p)) {
            how = isCurrentGroupFirstOfLoop() ? currentGroup.contiguity() : currentGroup.quantifier().inner();
        }
        return withGroupUntil(ignoreFor(how, p));
    }

    private Cond innerIgnoreCondition(Pattern<T> p) {
        Contiguity how = headOfGroup(p) ? currentGroup.quantifier().inner() : p.quantifier().inner();
        return withGroupUntil(ignoreFor(how, p));
    }

    private static <T> Cond ignoreFor(Contiguity how, Pattern<T> p) {
        return switch (how) {
            case STRICT -> null;
            case RELAXED -> Cond.not(Cond.of(p.condition()));
            case NON_DETERMINISTIC_RELAXED -> Cond.TRUE;
            default -> null;
        };
    }

    private Cond withGroupUntil(Cond ignore) {
        if (currentGroup != null && currentGroup.untilCondition() != null) {
            return extendWithUntil(ignore, Cond.of(currentGroup.untilCondition()), false);
        }
        return ignore;
    }

    private Cond trueCondition() {
        if (currentGroup != null && currentGroup.untilCondition() != null) {
            return extendWithUntil(Cond.TRUE, Cond.of(currentGroup.untilCondition()), true);
        }
        return Cond.TRUE;
    }

    private static Cond extendWithUntil(Cond condition, Cond until, boolean isTake) {
        if (until != null && condition != null) {
            return Cond.and(Cond.not(until), condition);
        }
        if (until != null && isTake) {
            return Cond.not(until);
        }
        return condition;
    }

    private static <T> Cond untilOf(Pattern<T> p) {
        return p.untilCondition() == null ? null : Cond.of(p.untilCondition());
    }

    // ------------------------------------------------------------------ groups and states

    private boolean headOfGroup(Pattern<T> p) {
        return currentGroup != null && p.previous() == null;
    }

    private boolean isCurrentGroupFirstOfLoop() {
        return firstOfLoop.getOrDefault(currentGroup, true);
    }

    private boolean isHeadOfOptionalGroup(Pattern<T> p) {
        return headOfGroup(p) && isCurrentGroupFirstOfLoop() && currentGroup.quantifier().optional();
    }

    private void setFirstOfLoop(boolean value) {
        if (current.isGroup()) {
            firstOfLoop.put(current, value);
        }
    }

    private Node createState(Kind kind, boolean takesEvents) {
        Node n = graph.newNode(current.displayName(), kind);
        // Flink names its states after their stage (a group's loop state "GroupPattern"), the second and later
        // ones of a name made unique with a suffix; which of them has a gap depends on that
        boolean firstOfItsName = flinkStateNames.add(current.isGroup() ? FLINK_GROUP_STATE_NAME : current.name());
        if (takesEvents && current.quantifier().kind() == Quantifier.Kind.SINGLE) {
            // Flink 2.3 keeps a PREVIOUS_AND_CURRENT gap only for a stage without a quantifier: a times / loop
            // stage (or looping group) ignores it
            n.gap = gapOf(current);
        } else if (takesEvents && !firstOfItsName) {
            // a times / loop stage's window between its events (times(n, window)) goes, in Flink 2.3, to every
            // state that takes events made for it except the first one of its name
            n.gap = current.timesWindow().map(java.time.Duration::toMillis).orElse(0L);
        }
        return n;
    }

    /**
     * A times window applies only where Flink gives it to a state, and like any gap it may not be larger than the
     * pattern's window there (Flink checks the states' gaps once they are made).
     */
    private void checkTimesWindows() {
        if (window <= 0) {
            return;
        }
        for (Node n : graph.nodes) {
            if (n.gap > window) {
                throw new io.cepheus.pattern.MalformedPatternException("stage '" + n.stage + "': its window between"
                        + " events (" + n.gap + " ms) is larger than the pattern's FIRST_AND_LAST window (" + window
                        + " ms): The window length between the previous and current event cannot be larger than"
                        + " the window length between the first and last event for a Pattern");
            }
        }
    }

    static <T> long gapOf(Pattern<T> p) {
        return io.cepheus.pattern.internal.WholePatternRules.gapOf(p);
    }
}
