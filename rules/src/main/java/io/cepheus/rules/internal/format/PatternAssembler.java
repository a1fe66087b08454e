package io.cepheus.rules.internal.format;

import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Condition;
import io.cepheus.pattern.MalformedPatternException;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.WithinType;
import io.cepheus.pattern.internal.WholePatternRules;
import io.cepheus.rules.RuleFormatException;
import io.cepheus.rules.RuleGraph;
import io.cepheus.rules.internal.ExpressionCondition;
import io.cepheus.rules.internal.NamedCondition;
import io.cepheus.rules.internal.expr.CompiledExpression;
import io.cepheus.rules.internal.expr.ExpressionCompiler;
import io.cepheus.rules.internal.expr.ExpressionSyntaxException;
import io.cepheus.rules.internal.expr.FieldSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Builds the pattern a rule's graph describes, with the Pattern API's own builder, so that a rule is refused for
 * exactly what the builder refuses, and in its words; each refusal is reported at the JSON path of the node or field
 * whose builder call failed. The edges give the order ({@link RuleReader} checked they chain every node once), each
 * edge's type the contiguity ({@code next}, {@code followedBy} ...), and each node's quantifier, condition and window
 * the stage's own calls, in the order the builder accepts them: condition, count, {@code optional}, {@code greedy},
 * inner contiguity, {@code until}, window. The whole-pattern rules the NFA compiler checks are checked here as well.
 *
 * @param <T> the event type
 */
public final class PatternAssembler<T> {

    /** How a rule finds the conditions the application registered. */
    public interface Registry<T> {
        /** @return the factory registered under {@code name}, or null */
        Function<List<String>, ? extends Condition<T>> condition(String name);

        /** @return the subtype registered under {@code name}, or null */
        Class<? extends T> subtype(String name);

        /** @return every registered condition name, for messages */
        Set<String> conditionNames();

        /** @return every registered subtype name, for messages */
        Set<String> subtypeNames();
    }

    private final String ruleLabel;
    private final Problem problem;
    private final Map<String, Long> locations;
    private final FieldSource fields;
    private final Registry<T> registry;
    /** Every stage's name, in pattern order (groups flattened). */
    private final List<String> stageOrder = new ArrayList<>();
    /** Every stage's node path, by name. */
    private final Map<String, String> stagePaths = new HashMap<>();

    private PatternAssembler(String ruleLabel, Problem problem, Map<String, Long> locations, FieldSource fields,
            Registry<T> registry) {
        this.ruleLabel = ruleLabel;
        this.problem = problem;
        this.locations = locations;
        this.fields = fields;
        this.registry = registry;
    }

    /**
     * @param ruleId    the rule's id
     * @param version   its version
     * @param source    where it was read from, or null
     * @param graph     its pattern graph
     * @param rootPath  the graph's JSON path ({@code "pattern"}, or {@code ""} for a bare graph)
     * @param locations line and column of the values read, by path ({@link RuleReader#pack})
     * @param fields    how expressions read events
     * @param registry  the conditions the application registered
     * @param <T>       the event type
     * @return the pattern
     * @throws RuleFormatException if the graph does not make a valid pattern for this event type
     */
    public static <T> Pattern<T> assemble(String ruleId, int version, String source, RuleGraph graph, String rootPath,
            Map<String, Long> locations, FieldSource fields, Registry<T> registry) {
        PatternAssembler<T> a = new PatternAssembler<>("'" + ruleId + "' v" + version, new Problem(ruleId, source),
                locations, fields, registry);
        a.collectStages(graph.nodes(), graph.edges(), rootPath);
        return a.outermost(graph, rootPath);
    }

    private static String child(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    private RuleFormatException error(String path, String message, Throwable cause) {
        Long packed = locations.get(path);
        int line = packed == null ? -1 : (int) (packed >>> 32);
        int column = packed == null ? -1 : (int) (long) packed;
        return problem.at(path, line, column, message, cause);
    }

    /** A builder call, with the path its refusal is reported at. */
    private Pattern<T> call(String path, Supplier<Pattern<T>> builderCall) {
        try {
            return builderCall.get();
        } catch (MalformedPatternException e) {
            throw error(path, e.getMessage(), e);
        }
    }

    // ------------------------------------------------------------------ order

    /** A node in pattern order, with its index in {@code nodes} and the edge that leads to it (-1 for the first). */
    private record Step(RuleGraph.Node node, int index, RuleGraph.Edge edge, int edgeIndex) {
    }

    /** @return the nodes in the order the edges give (the reader checked they form one chain) */
    private static List<Step> chain(List<RuleGraph.Node> nodes, List<RuleGraph.Edge> edges) {
        Map<String, Integer> incoming = new HashMap<>();
        Map<String, Integer> outgoing = new HashMap<>();
        for (int i = 0; i < edges.size(); i++) {
            incoming.put(edges.get(i).target(), i);
            outgoing.put(edges.get(i).source(), i);
        }
        Map<String, Integer> index = new HashMap<>();
        String begin = null;
        for (int i = 0; i < nodes.size(); i++) {
            String name = nodes.get(i).name();
            index.put(name, i);
            if (!incoming.containsKey(name) && begin == null) {
                begin = name;
            }
        }
        List<Step> out = new ArrayList<>();
        String at = begin;
        int viaEdge = -1;
        while (at != null && out.size() < nodes.size()) {
            int i = index.get(at);
            out.add(new Step(nodes.get(i), i, viaEdge < 0 ? null : edges.get(viaEdge), viaEdge));
            Integer next = outgoing.get(at);
            viaEdge = next == null ? -1 : next;
            at = next == null ? null : edges.get(next).target();
        }
        return out;
    }

    private void collectStages(List<RuleGraph.Node> nodes, List<RuleGraph.Edge> edges, String path) {
        for (Step s : chain(nodes, edges)) {
            String nodePath = child(path, "nodes[" + s.index() + "]");
            if (s.node() instanceof RuleGraph.Group g) {
                collectStages(g.nodes(), g.edges(), nodePath);
            } else {
                stageOrder.add(s.node().name());
                stagePaths.put(s.node().name(), nodePath);
            }
        }
    }

    // ------------------------------------------------------------------ the pattern

    private Pattern<T> outermost(RuleGraph graph, String path) {
        Pattern<T> p = level(graph.nodes(), graph.edges(), path, graph.afterMatchStrategy());
        RuleGraph.Window window = graph.window();
        if (window != null) {
            String windowPath = child(path, "window");
            Pattern<T> last = p;
            Optional<Duration> existing = last.window(window.type());
            if (window.type() == WithinType.PREVIOUS_AND_CURRENT && existing.isPresent()) {
                throw error(windowPath, "the graph's PREVIOUS_AND_CURRENT window applies to the last stage, '"
                        + last.displayName() + "', which sets one of its own already", null);
            }
            Duration d = existing.isPresent() && existing.get().compareTo(window.time()) < 0 ? existing.get()
                    : window.time();
            p = call(windowPath, () -> last.within(d, window.type()));
        }
        try {
            WholePatternRules.check(p, WholePatternRules.stageNames(p), WholePatternRules.window(p));
        } catch (MalformedPatternException e) {
            throw error(pathOfWholePatternProblem(e.getMessage(), path), e.getMessage(), e);
        }
        return p;
    }

    /** @return where a whole-pattern rule's refusal points: the skip strategy, or the stage it names */
    private String pathOfWholePatternProblem(String message, String rootPath) {
        if (message.contains("AfterMatchSkipStrategy")) {
            return child(child(rootPath, "afterMatchStrategy"), "patternName");
        }
        int open = message.indexOf("stage '");
        if (open >= 0) {
            int close = message.indexOf('\'', open + 7);
            String stagePath = close > 0 ? stagePaths.get(message.substring(open + 7, close)) : null;
            if (stagePath != null) {
                if (message.contains("PREVIOUS_AND_CURRENT window")) {
                    return stagePath + ".window";
                }
                return stagePath;
            }
        }
        return rootPath;
    }

    private Pattern<T> level(List<RuleGraph.Node> nodes, List<RuleGraph.Edge> edges, String path,
            AfterMatchSkipStrategy skip) {
        Pattern<T> p = null;
        for (Step step : chain(nodes, edges)) {
            String nodePath = child(path, "nodes[" + step.index() + "]");
            RuleGraph.Node node = step.node();
            if (p == null) {
                p = node instanceof RuleGraph.Group g
                        ? call(nodePath, () -> Pattern.begin(level(g.nodes(), g.edges(), nodePath,
                                AfterMatchSkipStrategy.noSkip()), skip))
                        : call(nodePath + ".name", () -> Pattern.begin(node.name(), skip));
            } else {
                p = append(p, node, step.edge(), child(path, "edges[" + step.edgeIndex() + "]"), nodePath);
            }
            p = configure(p, node, nodePath);
        }
        return p;
    }

    private Pattern<T> append(Pattern<T> p, RuleGraph.Node node, RuleGraph.Edge edge, String edgePath,
            String nodePath) {
        String at = edgePath + ".type";
        if (node instanceof RuleGraph.Group g) {
            Pattern<T> group = level(g.nodes(), g.edges(), nodePath, AfterMatchSkipStrategy.noSkip());
            return call(at, () -> switch (edge.type()) {
                case STRICT -> p.next(group);
                case SKIP_TILL_NEXT -> p.followedBy(group);
                case SKIP_TILL_ANY -> p.followedByAny(group);
                default -> throw new MalformedPatternException("a " + edge.type() + " edge leads to a single stage,"
                        + " not a group");
            });
        }
        String name = node.name();
        return call(at, () -> switch (edge.type()) {
            case STRICT -> p.next(name);
            case SKIP_TILL_NEXT -> p.followedBy(name);
            case SKIP_TILL_ANY -> p.followedByAny(name);
            case NOT_NEXT -> p.notNext(name);
            case NOT_FOLLOW -> p.notFollowedBy(name);
        });
    }

    private Pattern<T> configure(Pattern<T> start, RuleGraph.Node node, String nodePath) {
        Pattern<T> p = start;
        if (node instanceof RuleGraph.Stage stage && stage.condition() != null) {
            Condition<T> c = condition(stage.condition(), nodePath + ".condition", stage.name());
            Pattern<T> before = p;
            p = call(nodePath + ".condition", () -> before.where(c));
        }
        RuleGraph.Quantifier q = node.quantifier();
        String qPath = nodePath + ".quantifier";
        RuleGraph.Times times = q.times();
        java.time.Duration between = times == null ? null : times.windowTime();
        if (between != null && !q.has(RuleGraph.Property.TIMES) && !q.has(RuleGraph.Property.LOOPING)) {
            throw error(qPath + ".times.windowTime", "times.windowTime bounds the time between the events of a TIMES"
                    + " or LOOPING stage; this one takes a single event (bound it with the node's window instead)",
                    null);
        }
        if (q.has(RuleGraph.Property.TIMES)) {
            Pattern<T> before = p;
            p = call(qPath + ".times", () -> between == null ? before.times(times.from(), times.to())
                    : before.times(times.from(), times.to(), between));
        } else if (q.has(RuleGraph.Property.LOOPING)) {
            Pattern<T> before = p;
            p = call(qPath + ".times", () -> between == null
                    ? times.from() == 1 ? before.oneOrMore() : before.timesOrMore(times.from())
                    : times.from() == 1 ? before.oneOrMore(between) : before.timesOrMore(times.from(), between));
        }
        if (q.has(RuleGraph.Property.OPTIONAL)) {
            Pattern<T> before = p;
            p = call(qPath + ".properties", before::optional);
        }
        if (q.has(RuleGraph.Property.GREEDY)) {
            Pattern<T> before = p;
            p = call(qPath + ".properties", before::greedy);
        }
        if (q.consumingStrategy() != RuleGraph.ConsumingStrategy.SKIP_TILL_NEXT) {
            Pattern<T> before = p;
            p = call(qPath + ".consumingStrategy", q.consumingStrategy() == RuleGraph.ConsumingStrategy.STRICT
                    ? before::consecutive : before::allowCombinations);
        }
        if (q.untilCondition() != null) {
            Condition<T> until = condition(q.untilCondition(), qPath + ".untilCondition", node.name());
            Pattern<T> before = p;
            p = call(qPath + ".untilCondition", () -> before.until(until));
        }
        if (node.window() != null) {
            RuleGraph.Window w = node.window();
            Pattern<T> before = p;
            p = call(nodePath + ".window", () -> before.within(w.time(), w.type()));
        }
        return p;
    }

    // ------------------------------------------------------------------ conditions

    private List<String> readableFrom(String stage) {
        int at = stageOrder.indexOf(stage);
        return at < 0 ? stageOrder : stageOrder.subList(0, at + 1);
    }

    private Condition<T> condition(RuleGraph.Condition c, String path, String stage) {
        if (c instanceof RuleGraph.Expression e) {
            String at = path + ".expression";
            CompiledExpression compiled;
            try {
                compiled = ExpressionCompiler.compile(e.expression(), fields, readableFrom(stage));
            } catch (ExpressionSyntaxException x) {
                Long packed = locations.get(at);
                throw problem.at(at, packed == null ? -1 : (int) (packed >>> 32),
                        packed == null ? -1 : (int) (long) packed, x.getMessage() + " (" + fields.describe() + ")\n"
                                + Problem.caret(e.expression(), x.column()), null);
            }
            return ExpressionCondition.of(compiled, ruleLabel, stage);
        }
        if (c instanceof RuleGraph.Named n) {
            Function<List<String>, ? extends Condition<T>> factory = registry.condition(n.className());
            if (factory == null) {
                throw error(path + ".className", "no condition is registered under '" + n.className()
                        + "' (a className is a name the application registers, never a class loaded from the rule);"
                        + " registered: " + names(registry.conditionNames()), null);
            }
            Condition<T> made;
            try {
                made = factory.apply(n.args());
            } catch (RuntimeException refused) {
                throw error(path + (n.args().isEmpty() ? ".className" : ".args"), "the condition registered under '"
                        + n.className() + "' refused its args " + n.args() + ": " + refused.getMessage(), refused);
            }
            if (made == null) {
                throw error(path + ".className", "the condition registered under '" + n.className() + "' made"
                        + " nothing (null) of its args " + n.args(), null);
            }
            return NamedCondition.of(n.className(), n.args(), made);
        }
        if (c instanceof RuleGraph.Subtype s) {
            Class<? extends T> type = registry.subtype(s.subClassName());
            if (type == null) {
                throw error(path + ".subClassName", "no subtype is registered under '" + s.subClassName()
                        + "'; registered: " + names(registry.subtypeNames()), null);
            }
            return NamedCondition.subtype(s.subClassName(), type);
        }
        if (c instanceof RuleGraph.Not not) {
            return Condition.not(condition(not.condition(), path + ".nestedConditions[0]", stage));
        }
        boolean all = c instanceof RuleGraph.AllOf;
        List<RuleGraph.Condition> parts = all ? ((RuleGraph.AllOf) c).conditions() : ((RuleGraph.AnyOf) c).conditions();
        Condition<T> combined = null;
        for (int i = 0; i < parts.size(); i++) {
            Condition<T> part = condition(parts.get(i), path + ".nestedConditions[" + i + "]", stage);
            combined = combined == null ? part : all ? Condition.and(combined, part) : Condition.or(combined, part);
        }
        return combined;
    }

    private static String names(Set<String> names) {
        return names.isEmpty() ? "none" : String.join(", ", new TreeSet<>(names));
    }
}
