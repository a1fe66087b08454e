package io.cepheus.rules.internal.format;

import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Condition;
import io.cepheus.pattern.Contiguity;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.Quantifier;
import io.cepheus.pattern.WithinType;
import io.cepheus.pattern.internal.AndCondition;
import io.cepheus.pattern.internal.NotCondition;
import io.cepheus.pattern.internal.OrCondition;
import io.cepheus.pattern.internal.SubtypeCondition;
import io.cepheus.pattern.internal.WholePatternRules;
import io.cepheus.rules.RuleGraph;
import io.cepheus.rules.internal.ExpressionCondition;
import io.cepheus.rules.internal.NamedCondition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * Describes a pattern as a rule graph, the inverse of {@link PatternAssembler}: compiling the graph gives a pattern
 * that matches exactly as this one does. Every stage's {@code FIRST_AND_LAST} window becomes the graph's window (the
 * smallest applies to the whole pattern either way), a {@code PREVIOUS_AND_CURRENT} window stays on its stage (or
 * group). A group node is named after its last stage, as the products that write this format name it. Conditions must
 * be expressions ({@code Rules.expression}) or registered ({@code NamedConditions}), or combinations of those: Java
 * code has no JSON form.
 */
public final class PatternDescriber {

    private PatternDescriber() {
    }

    /**
     * @param pattern the pattern
     * @return its graph
     * @throws IllegalArgumentException naming the stage, if a condition or the skip strategy has no JSON form
     */
    public static RuleGraph describe(Pattern<?> pattern) {
        AfterMatchSkipStrategy skip = pattern.skipStrategy();
        if (skip.throwOnAbsent()) {
            throw new IllegalArgumentException("the skip strategy's throwExceptionOnMiss() has no JSON form: the rule"
                    + " format's afterMatchStrategy names a type and a stage only");
        }
        long window = WholePatternRules.window(pattern);
        Level top = level(pattern);
        return new RuleGraph(top.lastName(), top.nodes(), top.edges(),
                window > 0 ? new RuleGraph.Window(WithinType.FIRST_AND_LAST, Duration.ofMillis(window)) : null, skip);
    }

    /** The nodes and edges of one level of a pattern (the whole pattern, or a group's sub-pattern). */
    private record Level(List<RuleGraph.Node> nodes, List<RuleGraph.Edge> edges) {
        String lastName() {
            return nodes.get(nodes.size() - 1).name();
        }
    }

    private static <T> Level level(Pattern<T> last) {
        List<RuleGraph.Node> nodes = new ArrayList<>();
        List<RuleGraph.Edge> edges = new ArrayList<>();
        for (Pattern<T> stage : last.stages()) {
            RuleGraph.Node node;
            RuleGraph.Quantifier quantifier = quantifier(stage);
            RuleGraph.Window gap = stage.window(WithinType.PREVIOUS_AND_CURRENT)
                    .map(d -> new RuleGraph.Window(WithinType.PREVIOUS_AND_CURRENT, d)).orElse(null);
            if (stage.isGroup()) {
                Level group = level(stage.group());
                node = new RuleGraph.Group(group.lastName(), quantifier, group.nodes(), group.edges(), gap);
            } else {
                node = new RuleGraph.Stage(stage.name(), quantifier, condition(stage.condition(), stage), gap);
            }
            if (!nodes.isEmpty()) {
                edges.add(new RuleGraph.Edge(nodes.get(nodes.size() - 1).name(), node.name(),
                        edgeType(stage.contiguity())));
            }
            nodes.add(node);
        }
        return new Level(nodes, edges);
    }

    private static RuleGraph.EdgeType edgeType(Contiguity c) {
        return switch (c) {
            case STRICT -> RuleGraph.EdgeType.STRICT;
            case RELAXED -> RuleGraph.EdgeType.SKIP_TILL_NEXT;
            case NON_DETERMINISTIC_RELAXED -> RuleGraph.EdgeType.SKIP_TILL_ANY;
            case NOT_NEXT -> RuleGraph.EdgeType.NOT_NEXT;
            case NOT_FOLLOWED_BY -> RuleGraph.EdgeType.NOT_FOLLOW;
        };
    }

    private static <T> RuleGraph.Quantifier quantifier(Pattern<T> stage) {
        Quantifier q = stage.quantifier();
        EnumSet<RuleGraph.Property> properties = EnumSet.noneOf(RuleGraph.Property.class);
        RuleGraph.Times times = null;
        switch (q.kind()) {
            case SINGLE -> properties.add(RuleGraph.Property.SINGLE);
            case TIMES -> {
                properties.add(RuleGraph.Property.TIMES);
                times = new RuleGraph.Times(q.from(), q.to(), stage.timesWindow().orElse(null));
            }
            case LOOPING -> {
                properties.add(RuleGraph.Property.LOOPING);
                times = new RuleGraph.Times(q.from(), q.from(), stage.timesWindow().orElse(null));
            }
        }
        if (q.optional()) {
            properties.add(RuleGraph.Property.OPTIONAL);
        }
        if (q.greedy()) {
            properties.add(RuleGraph.Property.GREEDY);
        }
        RuleGraph.ConsumingStrategy consuming = switch (q.inner()) {
            case STRICT -> RuleGraph.ConsumingStrategy.STRICT;
            case NON_DETERMINISTIC_RELAXED -> RuleGraph.ConsumingStrategy.SKIP_TILL_ANY;
            default -> RuleGraph.ConsumingStrategy.SKIP_TILL_NEXT;
        };
        RuleGraph.Condition until = stage.untilCondition() == null ? null : condition(stage.untilCondition(), stage);
        return new RuleGraph.Quantifier(consuming, properties, times, until);
    }

    private static <T> RuleGraph.Condition condition(Condition<T> c, Pattern<T> stage) {
        if (c == null) {
            return null;
        }
        if (c instanceof ExpressionCondition<T> e) {
            return new RuleGraph.Expression(e.expression());
        }
        if (c instanceof NamedCondition<T> n) {
            return n.isSubtype() ? new RuleGraph.Subtype(n.name()) : new RuleGraph.Named(n.name(), n.args());
        }
        if (c instanceof SubtypeCondition<T> s) {
            return new RuleGraph.Subtype(s.type().getName());
        }
        if (c instanceof AndCondition<T> and) {
            List<RuleGraph.Condition> parts = new ArrayList<>();
            flatten(and, stage, parts, true);
            return new RuleGraph.AllOf(parts);
        }
        if (c instanceof OrCondition<T> or) {
            List<RuleGraph.Condition> parts = new ArrayList<>();
            flatten(or, stage, parts, false);
            return new RuleGraph.AnyOf(parts);
        }
        if (c instanceof NotCondition<T> not) {
            return new RuleGraph.Not(condition(not.inner(), stage));
        }
        throw new IllegalArgumentException("stage '" + stage.displayName() + "': its condition (" + c + ") is Java code,"
                + " which JSON cannot carry; write it with Rules.expression(...), or register it in NamedConditions and"
                + " use NamedConditions.condition(name)");
    }

    /** Flattens a left-leaning chain of ands (or ors) into one list, in evaluation order. */
    private static <T> void flatten(Condition<T> c, Pattern<T> stage, List<RuleGraph.Condition> into, boolean and) {
        if (and && c instanceof AndCondition<T> a) {
            flatten(a.left(), stage, into, true);
            flatten(a.right(), stage, into, true);
        } else if (!and && c instanceof OrCondition<T> o) {
            flatten(o.left(), stage, into, false);
            flatten(o.right(), stage, into, false);
        } else {
            into.add(condition(c, stage));
        }
    }
}
