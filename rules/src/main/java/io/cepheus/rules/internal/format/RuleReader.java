package io.cepheus.rules.internal.format;

import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.WithinType;
import io.cepheus.rules.RuleGraph;
import io.cepheus.rules.internal.expr.ExpressionParser;
import io.cepheus.rules.internal.expr.ExpressionSyntaxException;
import io.cepheus.rules.internal.json.Json;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a rule document ({@link Json} tree) into its parts, checking everything that can be checked without the
 * event type: the envelope, every field's type and value, unknown fields, enum values, the graph's shape (one begin
 * node, a chain of edges through every node, no cycle, NOT edges into single stages, stage names unique in the rule)
 * and each expression's syntax. What needs the event type (field names, expression types, registered conditions) and
 * the pattern builder's own rules are checked when the rule is compiled ({@link PatternAssembler}).
 */
public final class RuleReader {

    /** The Flink class names that combine nested conditions. */
    static final String RICH_AND = "org.apache.flink.cep.pattern.conditions.RichAndCondition";
    static final String RICH_OR = "org.apache.flink.cep.pattern.conditions.RichOrCondition";
    static final String RICH_NOT = "org.apache.flink.cep.pattern.conditions.RichNotCondition";
    static final String SUBTYPE = "org.apache.flink.cep.pattern.conditions.SubtypeCondition";

    private static final Set<String> ENVELOPE = Set.of("id", "version", "description", "pattern");
    private static final Set<String> GRAPH = Set.of("name", "type", "quantifier", "condition", "nodes", "edges",
            "window", "afterMatchStrategy", "version");
    private static final Set<String> STAGE = Set.of("name", "type", "quantifier", "condition", "window");
    private static final Set<String> QUANTIFIER = Set.of("consumingStrategy", "properties", "times", "untilCondition");
    private static final Set<String> TIMES = Set.of("from", "to", "windowTime");
    private static final Set<String> TIME = Set.of("unit", "size");
    private static final Set<String> WINDOW = Set.of("type", "time");
    private static final Set<String> EDGE = Set.of("source", "target", "type");
    private static final Set<String> SKIP = Set.of("type", "patternName");

    /** Time units the format names, and how long each is. */
    private enum Unit {
        DAYS(ChronoUnit.DAYS), HOURS(ChronoUnit.HOURS), MINUTES(ChronoUnit.MINUTES), SECONDS(ChronoUnit.SECONDS),
        MILLISECONDS(ChronoUnit.MILLIS);

        final ChronoUnit unit;

        Unit(ChronoUnit unit) {
            this.unit = unit;
        }
    }

    /** The condition types the format names. */
    private enum ConditionType {
        EXPRESSION, AVIATOR, CLASS, CUSTOM_ARGS, GROOVY
    }

    /** The skip strategies the format names. */
    private enum SkipType {
        NO_SKIP, SKIP_TO_NEXT, SKIP_PAST_LAST_EVENT, SKIP_TO_FIRST, SKIP_TO_LAST
    }

    /**
     * What a document holds.
     *
     * @param id          the rule's id
     * @param version     its version
     * @param description its description, or null
     * @param metadata    the rule's {@code metadata} as JSON text, or null
     * @param graph       its pattern
     * @param rootPath    the graph's JSON path ({@code "pattern"}, or {@code ""} for a bare graph)
     * @param locations   line and column of every value read, by JSON path ({@link #pack})
     */
    public record Read(String id, int version, String description, String metadata, RuleGraph graph, String rootPath,
            Map<String, Long> locations) {
    }

    private final Problem problem;
    private final Map<String, Json> seen = new LinkedHashMap<>();
    private final Set<String> stageNames = new HashSet<>();

    private RuleReader(Problem problem) {
        this.problem = problem;
    }

    /**
     * @param document    the parsed document
     * @param bareGraphId the id of a document that is a bare graph (the file's name), or null to use the graph's name
     * @param source      where the document came from, for messages, or null
     * @return its parts
     * @throws io.cepheus.rules.RuleFormatException on anything wrong
     */
    public static Read read(Json document, String bareGraphId, String source) {
        Problem problem = new Problem(null, source);
        return new RuleReader(problem).document(document, bareGraphId);
    }

    /** @return line and column in one long (line in the high half) */
    public static long pack(int line, int column) {
        return ((long) line << 32) | (column & 0xffffffffL);
    }

    private Read document(Json document, String bareGraphId) {
        if (!(document instanceof Json.Obj obj)) {
            throw problem.at("", document, "a rule is a JSON object, not " + document.kind());
        }
        boolean bare = !obj.members().containsKey("pattern") && !obj.members().containsKey("id")
                && (obj.members().containsKey("nodes") || obj.members().containsKey("type"));
        String id;
        int version;
        String description;
        String metadata = null;
        RuleGraph graph;
        if (bare) {
            id = bareGraphId;
            if (id == null && obj.members().get("name") != null
                    && obj.members().get("name").value() instanceof Json.Str s && !s.value().isBlank()) {
                id = s.value();
            }
            if (id == null) {
                id = "rule";
            }
            problem.ruleId(id);
            version = 1;
            description = null;
            graph = outermost(document, "");
        } else {
            Members m = new Members(document, "", problem, seen);
            Json idValue = m.raw("id");
            if (idValue instanceof Json.Str s && !s.value().isBlank()) {
                problem.ruleId(s.value()); // every later message names it, even one about the id's siblings
            }
            m.noOthers("a rule", ENVELOPE);
            id = m.requiredString("id");
            version = (int) m.requiredInteger("version", 1, Integer.MAX_VALUE);
            description = m.optionalString("description");
            Json metadataValue = obj.members().get("metadata") == null ? null : obj.members().get("metadata").value();
            metadata = metadataValue == null ? null : RuleWriter.json(metadataValue);
            graph = outermost(m.required("pattern"), "pattern");
        }
        Map<String, Long> locations = new HashMap<>();
        seen.forEach((path, value) -> locations.put(path, pack(value.line(), value.column())));
        return new Read(id, version, description, metadata, graph, bare ? "" : "pattern", locations);
    }

    // ------------------------------------------------------------------ graphs and nodes

    private RuleGraph outermost(Json value, String path) {
        Composite c = composite(value, path, true);
        return new RuleGraph(c.name, c.nodes, c.edges, c.window, c.skip);
    }

    /** What a COMPOSITE node holds: the outermost graph and a group alike. */
    private record Composite(String name, RuleGraph.Quantifier quantifier, List<RuleGraph.Node> nodes,
            List<RuleGraph.Edge> edges, RuleGraph.Window window, AfterMatchSkipStrategy skip) {
    }

    private Composite composite(Json value, String path, boolean outermost) {
        Members m = new Members(value, path, problem, seen);
        m.noOthers(outermost ? "the pattern graph" : "a group (COMPOSITE node)", GRAPH);
        String type = m.requiredString("type");
        if (!type.equals("COMPOSITE")) {
            throw problem.at(m.pathOf("type"), m.raw("type"), outermost
                    ? "the pattern is a COMPOSITE node, not " + type
                    : "a group node has type COMPOSITE, not " + type);
        }
        String name = m.optionalString("name");
        if (m.optional("condition") != null) {
            throw problem.at(m.pathOf("condition"), m.raw("condition"), "a COMPOSITE node has no condition: put"
                    + " conditions on its stages");
        }
        Json versionValue = m.optional("version");
        if (versionValue != null) {
            long v = m.integer(m.pathOf("version"), versionValue, 1, Integer.MAX_VALUE, "version");
            if (v != 1) {
                throw problem.at(m.pathOf("version"), versionValue, "format version " + v + " is not supported; this"
                        + " reader reads version 1");
            }
        }
        RuleGraph.Quantifier quantifier = m.optional("quantifier") == null ? RuleGraph.Quantifier.ONCE
                : quantifier(m.required("quantifier"), m.pathOf("quantifier"));
        if (outermost && !quantifier.has(RuleGraph.Property.SINGLE)) {
            throw problem.at(m.pathOf("quantifier"), m.raw("quantifier"), "the outermost graph takes no quantifier:"
                    + " quantify a group (a COMPOSITE node inside nodes) instead");
        }
        List<Json> nodeValues = m.requiredArray("nodes");
        if (nodeValues.isEmpty()) {
            throw problem.at(m.pathOf("nodes"), m.raw("nodes"), "a graph needs at least one node");
        }
        List<RuleGraph.Node> nodes = new ArrayList<>();
        Map<String, Integer> indexByName = new LinkedHashMap<>();
        for (int i = 0; i < nodeValues.size(); i++) {
            String nodePath = m.pathOf("nodes") + "[" + i + "]";
            RuleGraph.Node node = node(nodeValues.get(i), nodePath);
            Integer before = indexByName.putIfAbsent(node.name(), i);
            if (before != null) {
                throw problem.at(nodePath + ".name", seen.get(nodePath + ".name"), "two nodes of one graph are called '"
                        + node.name() + "' (" + m.pathOf("nodes") + "[" + before + "] too): edges could not tell them"
                        + " apart");
            }
            nodes.add(node);
        }
        List<RuleGraph.Edge> edges = new ArrayList<>();
        Json edgesValue = m.optional("edges");
        List<Json> edgeValues = edgesValue == null ? List.of() : m.requiredArray("edges");
        for (int i = 0; i < edgeValues.size(); i++) {
            edges.add(edge(edgeValues.get(i), m.pathOf("edges") + "[" + i + "]", indexByName));
        }
        checkChain(m, nodes, edges, indexByName);
        RuleGraph.Window window = m.optional("window") == null ? null : window(m.required("window"),
                m.pathOf("window"));
        AfterMatchSkipStrategy skip = m.optional("afterMatchStrategy") == null ? AfterMatchSkipStrategy.noSkip()
                : skip(m.required("afterMatchStrategy"), m.pathOf("afterMatchStrategy"));
        if (!outermost && skip.kind() != AfterMatchSkipStrategy.Kind.NO_SKIP) {
            throw problem.at(m.pathOf("afterMatchStrategy"), m.raw("afterMatchStrategy"), "a skip strategy belongs"
                    + " to the whole pattern: set it on the outermost graph, not on a group");
        }
        return new Composite(name, quantifier, nodes, edges, window, skip);
    }

    private RuleGraph.Node node(Json value, String path) {
        Members m = new Members(value, path, problem, seen);
        String type = m.requiredString("type");
        if (type.equals("COMPOSITE")) {
            Composite group = composite(value, path, false);
            if (group.name() == null || group.name().isBlank()) {
                throw problem.at(path + ".name", value, "a group node needs a name: edges refer to it by name");
            }
            return new RuleGraph.Group(group.name(), group.quantifier(), group.nodes(), group.edges(), group.window());
        }
        if (!type.equals("ATOMIC")) {
            throw problem.at(m.pathOf("type"), m.raw("type"), "unknown node type '" + type + "'; known: ATOMIC (a"
                    + " stage), COMPOSITE (a group)");
        }
        m.noOthers("a stage (ATOMIC node)", STAGE);
        String name = m.requiredString("name");
        if (!stageNames.add(name)) {
            throw problem.at(m.pathOf("name"), m.raw("name"), "Duplicate pattern name: a stage called '" + name
                    + "' appears twice; stage names must be unique within a rule (groups included)");
        }
        RuleGraph.Quantifier quantifier = m.optional("quantifier") == null ? RuleGraph.Quantifier.ONCE
                : quantifier(m.required("quantifier"), m.pathOf("quantifier"));
        RuleGraph.Condition condition = m.optional("condition") == null ? null
                : condition(m.required("condition"), m.pathOf("condition"));
        RuleGraph.Window window = m.optional("window") == null ? null : window(m.required("window"),
                m.pathOf("window"));
        return new RuleGraph.Stage(name, quantifier, condition, window);
    }

    private RuleGraph.Edge edge(Json value, String path, Map<String, Integer> nodes) {
        Members m = new Members(value, path, problem, seen);
        m.noOthers("an edge", EDGE);
        String source = m.requiredString("source");
        String target = m.requiredString("target");
        RuleGraph.EdgeType type = m.requiredEnum("type", RuleGraph.EdgeType.class);
        if (!nodes.containsKey(source)) {
            throw problem.at(m.pathOf("source"), m.raw("source"), "the edge starts at '" + source + "', which is no"
                    + " node of this graph (nodes: " + String.join(", ", nodes.keySet()) + ")");
        }
        if (!nodes.containsKey(target)) {
            throw problem.at(m.pathOf("target"), m.raw("target"), "the edge ends at '" + target + "', which is no node"
                    + " of this graph (nodes: " + String.join(", ", nodes.keySet()) + ")");
        }
        if (source.equals(target)) {
            throw problem.at(m.pathOf("target"), m.raw("target"), "an edge from '" + source + "' to itself: to repeat"
                    + " a stage, quantify it (LOOPING or TIMES)");
        }
        return new RuleGraph.Edge(source, target, type);
    }

    /** The edges must order the nodes as one chain: one begin node, each node once, no branch, no cycle. */
    private void checkChain(Members m, List<RuleGraph.Node> nodes, List<RuleGraph.Edge> edges,
            Map<String, Integer> indexByName) {
        Map<String, Integer> outgoing = new HashMap<>();
        Map<String, Integer> incoming = new HashMap<>();
        for (int i = 0; i < edges.size(); i++) {
            RuleGraph.Edge e = edges.get(i);
            String edgePath = m.pathOf("edges") + "[" + i + "]";
            Integer other = outgoing.putIfAbsent(e.source(), i);
            if (other != null) {
                throw problem.at(edgePath + ".source", seen.get(edgePath + ".source"), "two edges leave '" + e.source()
                        + "' (" + m.pathOf("edges") + "[" + other + "] too): a pattern is a sequence, each node has"
                        + " one next node at most");
            }
            other = incoming.putIfAbsent(e.target(), i);
            if (other != null) {
                throw problem.at(edgePath + ".target", seen.get(edgePath + ".target"), "two edges lead to '"
                        + e.target() + "' (" + m.pathOf("edges") + "[" + other + "] too): a pattern is a sequence,"
                        + " each node follows one node at most");
            }
            if (e.type() == RuleGraph.EdgeType.NOT_NEXT || e.type() == RuleGraph.EdgeType.NOT_FOLLOW) {
                RuleGraph.Node target = nodes.get(indexByName.get(e.target()));
                if (target instanceof RuleGraph.Group) {
                    throw problem.at(edgePath + ".type", seen.get(edgePath + ".type"), "a " + e.type() + " edge leads"
                            + " to a single stage, but '" + e.target() + "' is a group");
                }
            }
        }
        List<String> begins = new ArrayList<>();
        for (RuleGraph.Node n : nodes) {
            if (!incoming.containsKey(n.name())) {
                begins.add(n.name());
            }
        }
        if (begins.isEmpty()) {
            throw problem.at(m.pathOf("edges"), m.raw("edges"), "the edges form a cycle: every node has an edge"
                    + " leading to it, so none can begin the pattern");
        }
        if (begins.size() > 1) {
            throw problem.at(m.pathOf("edges"), m.raw("edges") == null ? m.object() : m.raw("edges"), "two begin nodes: "
                    + String.join(" and ", begins) + " (no edge leads to them); the edges must chain every node into"
                    + " one sequence");
        }
        Set<String> visited = new HashSet<>();
        String at = begins.get(0);
        while (at != null) {
            if (!visited.add(at)) {
                throw problem.at(m.pathOf("edges"), m.raw("edges"), "the edges form a cycle through '" + at + "'");
            }
            Integer next = outgoing.get(at);
            at = next == null ? null : edges.get(next).target();
        }
        for (int i = 0; i < nodes.size(); i++) {
            if (!visited.contains(nodes.get(i).name())) {
                String nodePath = m.pathOf("nodes") + "[" + i + "]";
                throw problem.at(nodePath, seen.get(nodePath), "node '" + nodes.get(i).name() + "' is not reached from"
                        + " the begin node '" + begins.get(0) + "' (the edges form a cycle apart from the sequence)");
            }
        }
    }

    // ------------------------------------------------------------------ quantifiers, times, windows

    private RuleGraph.Quantifier quantifier(Json value, String path) {
        Members m = new Members(value, path, problem, seen);
        m.noOthers("a quantifier", QUANTIFIER);
        RuleGraph.ConsumingStrategy consuming = m.optional("consumingStrategy") == null
                ? RuleGraph.ConsumingStrategy.SKIP_TILL_NEXT
                : m.requiredEnum("consumingStrategy", RuleGraph.ConsumingStrategy.class);
        List<Json> propertyValues = m.requiredArray("properties");
        EnumSet<RuleGraph.Property> properties = EnumSet.noneOf(RuleGraph.Property.class);
        for (int i = 0; i < propertyValues.size(); i++) {
            String at = m.pathOf("properties") + "[" + i + "]";
            RuleGraph.Property p = m.enumValue(at, propertyValues.get(i), RuleGraph.Property.class, "property");
            if (!properties.add(p)) {
                throw problem.at(at, propertyValues.get(i), "property " + p + " is listed twice");
            }
        }
        int kinds = (properties.contains(RuleGraph.Property.SINGLE) ? 1 : 0)
                + (properties.contains(RuleGraph.Property.TIMES) ? 1 : 0)
                + (properties.contains(RuleGraph.Property.LOOPING) ? 1 : 0);
        if (kinds != 1) {
            throw problem.at(m.pathOf("properties"), m.raw("properties"), "properties must hold exactly one of SINGLE,"
                    + " TIMES and LOOPING (and may add OPTIONAL, GREEDY), not " + properties);
        }
        RuleGraph.Times times = null;
        Json timesValue = m.optional("times");
        if (properties.contains(RuleGraph.Property.SINGLE)) {
            if (timesValue != null) {
                throw problem.at(m.pathOf("times"), timesValue, "a SINGLE stage takes one event: times must be null");
            }
        } else {
            if (timesValue == null) {
                throw problem.at(m.pathOf("times"), m.has("times") ? m.raw("times") : m.object(), "a "
                        + (properties.contains(RuleGraph.Property.LOOPING) ? "LOOPING" : "TIMES") + " stage needs times"
                        + " {from, to}");
            }
            times = times(timesValue, m.pathOf("times"), properties.contains(RuleGraph.Property.LOOPING));
        }
        RuleGraph.Condition until = m.optional("untilCondition") == null ? null
                : condition(m.required("untilCondition"), m.pathOf("untilCondition"));
        return new RuleGraph.Quantifier(consuming, properties, times, until);
    }

    private RuleGraph.Times times(Json value, String path, boolean looping) {
        Members m = new Members(value, path, problem, seen);
        m.noOthers("times", TIMES);
        int from = (int) m.requiredInteger("from", 0, Integer.MAX_VALUE);
        int to = (int) m.requiredInteger("to", 0, Integer.MAX_VALUE);
        if (looping && to != from) {
            throw problem.at(m.pathOf("to"), m.raw("to"), "a LOOPING stage takes 'from' or more events"
                    + " (timesOrMore(from)), so 'to' must equal 'from' (" + from + "), not " + to);
        }
        Duration windowTime = m.optional("windowTime") == null ? null : time(m.required("windowTime"),
                m.pathOf("windowTime"));
        return new RuleGraph.Times(from, to, windowTime);
    }

    private RuleGraph.Window window(Json value, String path) {
        Members m = new Members(value, path, problem, seen);
        m.noOthers("a window", WINDOW);
        WithinType type = m.requiredEnum("type", WithinType.class);
        Duration time = time(m.required("time"), m.pathOf("time"));
        return new RuleGraph.Window(type, time);
    }

    private Duration time(Json value, String path) {
        Members m = new Members(value, path, problem, seen);
        m.noOthers("a time", TIME);
        Unit unit = m.requiredEnum("unit", Unit.class);
        long size = m.requiredInteger("size", 0, Long.MAX_VALUE);
        try {
            Duration d = unit.unit.getDuration().multipliedBy(size);
            d.toMillis(); // must fit a long of milliseconds, as every time in the engine does
            return d;
        } catch (ArithmeticException e) {
            throw problem.at(m.pathOf("size"), m.raw("size"), size + " " + unit + " does not fit in a long of"
                    + " milliseconds");
        }
    }

    private AfterMatchSkipStrategy skip(Json value, String path) {
        Members m = new Members(value, path, problem, seen);
        m.noOthers("an after-match strategy", SKIP);
        SkipType type = m.requiredEnum("type", SkipType.class);
        String target = m.optionalString("patternName");
        boolean needsTarget = type == SkipType.SKIP_TO_FIRST || type == SkipType.SKIP_TO_LAST;
        if (needsTarget && (target == null || target.isBlank())) {
            throw problem.at(m.pathOf("patternName"), m.has("patternName") ? m.raw("patternName") : m.object(), type
                    + " needs patternName: the stage to skip to");
        }
        if (!needsTarget && target != null) {
            throw problem.at(m.pathOf("patternName"), m.raw("patternName"), type + " takes no patternName (only"
                    + " SKIP_TO_FIRST and SKIP_TO_LAST name a stage)");
        }
        return switch (type) {
            case NO_SKIP -> AfterMatchSkipStrategy.noSkip();
            case SKIP_TO_NEXT -> AfterMatchSkipStrategy.skipToNext();
            case SKIP_PAST_LAST_EVENT -> AfterMatchSkipStrategy.skipPastLastEvent();
            case SKIP_TO_FIRST -> AfterMatchSkipStrategy.skipToFirst(target);
            case SKIP_TO_LAST -> AfterMatchSkipStrategy.skipToLast(target);
        };
    }

    // ------------------------------------------------------------------ conditions

    private RuleGraph.Condition condition(Json value, String path) {
        Members m = new Members(value, path, problem, seen);
        ConditionType type = m.requiredEnum("type", ConditionType.class);
        switch (type) {
            case EXPRESSION, AVIATOR -> {
                m.noOthers("an " + type + " condition", Set.of("type", "expression"));
                Json expressionValue = m.required("expression");
                if (!(expressionValue instanceof Json.Str s)) {
                    throw problem.at(m.pathOf("expression"), expressionValue, "'expression' must be a string but is "
                            + expressionValue.kind());
                }
                try {
                    ExpressionParser.check(s.value());
                } catch (ExpressionSyntaxException e) {
                    throw problem.inExpression(m.pathOf("expression"), expressionValue, s.value(), e.column(),
                            e.getMessage(), null);
                }
                return new RuleGraph.Expression(s.value());
            }
            case CUSTOM_ARGS -> {
                m.noOthers("a CUSTOM_ARGS condition", Set.of("type", "className", "args"));
                String className = m.requiredString("className");
                String args = m.optionalString("args");
                return new RuleGraph.Named(className, args == null ? List.of() : List.of(args));
            }
            case CLASS -> {
                m.noOthers("a CLASS condition", Set.of("type", "className", "args", "nestedConditions",
                        "subClassName"));
                String className = m.requiredString("className");
                return switch (className) {
                    case RICH_AND, RICH_OR, RICH_NOT -> nested(m, className);
                    case SUBTYPE -> {
                        onlyMembers(m, className, Set.of("type", "className", "subClassName"));
                        yield new RuleGraph.Subtype(m.requiredString("subClassName"));
                    }
                    default -> {
                        onlyMembers(m, className, Set.of("type", "className", "args"));
                        Json argsValue = m.optional("args");
                        List<String> args = new ArrayList<>();
                        if (argsValue != null) {
                            List<Json> items = m.requiredArray("args");
                            for (int i = 0; i < items.size(); i++) {
                                if (!(items.get(i) instanceof Json.Str s)) {
                                    throw problem.at(m.pathOf("args") + "[" + i + "]", items.get(i), "args are"
                                            + " strings, not " + items.get(i).kind());
                                }
                                args.add(s.value());
                            }
                        }
                        yield new RuleGraph.Named(className, args);
                    }
                };
            }
            default -> throw problem.at(m.pathOf("type"), m.raw("type"), "a GROOVY condition is code, and a rule file"
                    + " never carries code: write it as an EXPRESSION, or register it in the application and name it"
                    + " with CLASS");
        }
    }

    private RuleGraph.Condition nested(Members m, String className) {
        onlyMembers(m, className, Set.of("type", "className", "nestedConditions"));
        List<Json> items = m.requiredArray("nestedConditions");
        boolean not = className.equals(RICH_NOT);
        if (not ? items.size() != 1 : items.size() < 2) {
            throw problem.at(m.pathOf("nestedConditions"), m.raw("nestedConditions"), simpleName(className)
                    + (not ? " takes exactly one nested condition" : " takes two nested conditions or more")
                    + ", not " + items.size());
        }
        List<RuleGraph.Condition> inner = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            inner.add(condition(items.get(i), m.pathOf("nestedConditions") + "[" + i + "]"));
        }
        return switch (className) {
            case RICH_AND -> new RuleGraph.AllOf(inner);
            case RICH_OR -> new RuleGraph.AnyOf(inner);
            default -> new RuleGraph.Not(inner.get(0));
        };
    }

    private void onlyMembers(Members m, String className, Set<String> allowed) {
        m.noOthers("a CLASS condition " + simpleName(className), allowed);
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
