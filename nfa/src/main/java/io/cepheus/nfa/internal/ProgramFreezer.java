package io.cepheus.nfa.internal;

import io.cepheus.nfa.internal.StateGraph.Edge;
import io.cepheus.nfa.internal.StateGraph.Kind;
import io.cepheus.nfa.internal.StateGraph.Node;
import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Condition;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compilation pass: turns the mutable {@link StateGraph} into an immutable {@link Program}. Keeps only the
 * states reachable from the start, numbers them in discovery order, interns each distinct user condition
 * as one atom and flattens transition conditions into {@link Expr} trees over the atoms.
 */
final class ProgramFreezer {

    private ProgramFreezer() {
    }

    @SuppressWarnings("unchecked")
    static <T> Program<T> freeze(StateGraph graph, List<String> stageNames, long window,
            AfterMatchSkipStrategy skip) {
        List<Node> order = reachable(graph.start);
        Map<Node, Integer> ids = new IdentityHashMap<>();
        for (int i = 0; i < order.size(); i++) {
            ids.put(order.get(i), i);
        }
        Map<String, Integer> stageIndex = new HashMap<>();
        for (int i = 0; i < stageNames.size(); i++) {
            stageIndex.put(stageNames.get(i), i);
        }
        int n = order.size();
        byte[] kind = new byte[n];
        int[] stage = new int[n];
        long[] gap = new long[n];
        String[] label = new String[n];
        int[] edgeStart = new int[n + 1];
        List<Byte> actions = new ArrayList<>();
        List<Integer> targets = new ArrayList<>();
        List<Expr> conditions = new ArrayList<>();
        Map<Condition<?>, Integer> atomIds = new IdentityHashMap<>();
        List<Condition<?>> atoms = new ArrayList<>();
        List<String> atomLabels = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            Node node = order.get(s);
            kind[s] = switch (node.kind) {
                case NORMAL -> Program.NORMAL;
                case FINAL -> Program.FINAL;
                case STOP -> Program.STOP;
                case PENDING -> Program.PENDING;
            };
            stage[s] = stageIndex.getOrDefault(node.stage, -1);
            gap[s] = node.gap;
            label[s] = node.kind == Kind.FINAL ? "end" : node.stage + (node.kind == Kind.NORMAL ? "" : " " + node.kind);
            edgeStart[s] = actions.size();
            for (Edge e : node.edges) {
                actions.add(switch (e.action) {
                    case TAKE -> Program.TAKE;
                    case IGNORE -> Program.IGNORE;
                    case PROCEED -> Program.PROCEED;
                });
                targets.add(ids.get(e.target));
                conditions.add(toExpr(e.cond, atomIds, atoms, atomLabels, node.stage));
            }
        }
        edgeStart[n] = actions.size();
        byte[] edgeAction = new byte[actions.size()];
        int[] edgeTarget = new int[actions.size()];
        for (int i = 0; i < edgeAction.length; i++) {
            edgeAction[i] = actions.get(i);
            edgeTarget[i] = targets.get(i);
        }
        boolean[] iterative = new boolean[atoms.size()];
        for (int i = 0; i < iterative.length; i++) {
            iterative[i] = atoms.get(i).isIterative();
        }
        int skipStage = skip.stage() == null ? -1 : stageIndex.getOrDefault(skip.stage(), -1);
        return new Program<>(Collections.unmodifiableList(new ArrayList<>(stageNames)),
                Collections.unmodifiableMap(stageIndex), ids.get(graph.start), kind, stage, gap, label,
                proceedsToFinal(kind, edgeStart, edgeAction, edgeTarget), edgeStart, edgeAction, edgeTarget,
                conditions.toArray(new Expr[0]), atoms.toArray(new Condition[0]), iterative,
                atomLabels.toArray(new String[0]), window, skip, skipStage);
    }

    private static List<Node> reachable(Node start) {
        List<Node> order = new ArrayList<>();
        Map<Node, Boolean> seen = new IdentityHashMap<>();
        Deque<Node> queue = new ArrayDeque<>();
        queue.add(start);
        seen.put(start, true);
        while (!queue.isEmpty()) {
            Node n = queue.poll();
            order.add(n);
            for (Edge e : n.edges) {
                if (seen.putIfAbsent(e.target, true) == null) {
                    queue.add(e.target);
                }
            }
        }
        return order;
    }

    /** Whether a chain of PROCEED edges (whatever their conditions) leads from each state to the final one. */
    private static boolean[] proceedsToFinal(byte[] kind, int[] edgeStart, byte[] action, int[] target) {
        int n = kind.length;
        boolean[] result = new boolean[n];
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int s = 0; s < n; s++) {
                if (result[s]) {
                    continue;
                }
                for (int e = edgeStart[s]; e < edgeStart[s + 1]; e++) {
                    if (action[e] == Program.PROCEED && (kind[target[e]] == Program.FINAL || result[target[e]])) {
                        result[s] = true;
                        changed = true;
                        break;
                    }
                }
            }
        }
        return result;
    }

    private static Expr toExpr(Cond c, Map<Condition<?>, Integer> ids, List<Condition<?>> atoms,
            List<String> labels, String stage) {
        if (c == null || c instanceof Cond.True) {
            return Expr.TRUE;
        }
        if (c instanceof Cond.Leaf leaf) {
            Integer id = ids.get(leaf.condition());
            if (id == null) {
                id = atoms.size();
                ids.put(leaf.condition(), id);
                atoms.add(leaf.condition());
                labels.add(stage + "." + (leaf.condition().isIterative() ? "iter" : "cond") + id);
            }
            return new Expr.Atom(id);
        }
        if (c instanceof Cond.Not not) {
            return new Expr.Not(toExpr(not.inner(), ids, atoms, labels, stage));
        }
        if (c instanceof Cond.And and) {
            return new Expr.And(toExpr(and.left(), ids, atoms, labels, stage),
                    toExpr(and.right(), ids, atoms, labels, stage));
        }
        Cond.Or or = (Cond.Or) c;
        return new Expr.Or(toExpr(or.left(), ids, atoms, labels, stage), toExpr(or.right(), ids, atoms, labels, stage));
    }

}
