package io.cepheus.nfa.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * The mutable NFA graph the {@link StateGraphBuilder} produces and the {@link ProgramFreezer} turns into a
 * {@link Program}. Lives only during compilation, on the compiling thread.
 */
final class StateGraph {

    enum Action { TAKE, IGNORE, PROCEED }

    enum Kind { NORMAL, FINAL, STOP, PENDING }

    static final class Node {
        final int id;
        final String stage;
        Kind kind;
        boolean start;
        long gap;
        final List<Edge> edges = new ArrayList<>();

        Node(int id, String stage, Kind kind) {
            this.id = id;
            this.stage = stage;
            this.kind = kind;
        }

        void addTake(Node target, Cond cond) {
            edges.add(new Edge(Action.TAKE, target, cond));
        }

        void addIgnore(Node target, Cond cond) {
            edges.add(new Edge(Action.IGNORE, target, cond));
        }

        void addProceed(Node target, Cond cond) {
            edges.add(new Edge(Action.PROCEED, target, cond));
        }

        boolean isFinal() {
            return kind == Kind.FINAL;
        }

        @Override
        public String toString() {
            return stage + "#" + id + (start ? "(start)" : "") + "[" + kind + "]";
        }
    }

    static final class Edge {
        final Action action;
        final Node target;
        Cond cond;

        Edge(Action action, Node target, Cond cond) {
            this.action = action;
            this.target = target;
            this.cond = cond;
        }
    }

    final List<Node> nodes = new ArrayList<>();
    Node start;

    Node newNode(String stage, Kind kind) {
        Node n = new Node(nodes.size(), stage, kind);
        nodes.add(n);
        return n;
    }
}
