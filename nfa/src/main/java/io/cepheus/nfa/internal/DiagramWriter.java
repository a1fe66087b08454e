package io.cepheus.nfa.internal;

/**
 * Renders a {@link Program} as a Graphviz DOT or Mermaid diagram: one node per state (stage name, kind),
 * one arrow per transition labelled with its action and condition, so users can see why a pattern does or
 * does not match.
 */
public final class DiagramWriter {

    private DiagramWriter() {
    }

    /** @param program the program @return a DOT digraph */
    public static String dot(Program<?> program) {
        StringBuilder sb = new StringBuilder("digraph nfa {\n  rankdir=LR;\n  node [shape=circle];\n");
        for (int s = 0; s < program.stateCount(); s++) {
            String shape = switch (program.stateKind[s]) {
                case Program.FINAL -> "doublecircle";
                case Program.STOP -> "octagon";
                case Program.PENDING -> "doubleoctagon";
                default -> "circle";
            };
            sb.append("  s").append(s).append(" [label=\"").append(escape(stateLabel(program, s)))
                    .append("\", shape=").append(shape).append("];\n");
        }
        sb.append("  start [shape=point];\n  start -> s").append(program.startState).append(";\n");
        for (int s = 0; s < program.stateCount(); s++) {
            for (int e = program.edgeStart[s]; e < program.edgeStart[s + 1]; e++) {
                sb.append("  s").append(s).append(" -> s").append(program.edgeTarget[e]).append(" [label=\"")
                        .append(escape(edgeLabel(program, e))).append("\"")
                        .append(program.edgeAction[e] == Program.PROCEED ? ", style=dashed" : "")
                        .append("];\n");
            }
        }
        return sb.append("}\n").toString();
    }

    /** @param program the program @return a Mermaid flowchart */
    public static String mermaid(Program<?> program) {
        StringBuilder sb = new StringBuilder("flowchart LR\n");
        sb.append("  start((start)) --> s").append(program.startState).append('\n');
        for (int s = 0; s < program.stateCount(); s++) {
            String label = stateLabel(program, s).replace("\"", "'");
            String node = switch (program.stateKind[s]) {
                case Program.FINAL -> "(((\"" + label + "\")))";
                case Program.STOP -> "{{\"" + label + "\"}}";
                default -> "([\"" + label + "\"])";
            };
            sb.append("  s").append(s).append(node).append('\n');
        }
        for (int s = 0; s < program.stateCount(); s++) {
            for (int e = program.edgeStart[s]; e < program.edgeStart[s + 1]; e++) {
                String arrow = program.edgeAction[e] == Program.PROCEED ? " -.->" : " -->";
                sb.append("  s").append(s).append(arrow).append("|\"")
                        .append(edgeLabel(program, e).replace("\"", "'")).append("\"| s")
                        .append(program.edgeTarget[e]).append('\n');
            }
        }
        return sb.toString();
    }

    private static String stateLabel(Program<?> program, int s) {
        String label = program.stateLabel[s] + " #" + s;
        if (program.stateGap[s] > 0) {
            label += " (gap " + program.stateGap[s] + " ms)";
        }
        return label;
    }

    private static String edgeLabel(Program<?> program, int e) {
        String action = switch (program.edgeAction[e]) {
            case Program.TAKE -> "TAKE";
            case Program.IGNORE -> "IGNORE";
            default -> "PROCEED";
        };
        Expr c = program.edgeCondition[e];
        return c == Expr.TRUE ? action : action + ": " + c.describe(program.atomLabels);
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
