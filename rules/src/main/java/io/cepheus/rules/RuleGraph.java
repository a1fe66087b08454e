package io.cepheus.rules;

import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.WithinType;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A pattern as a graph, the JSON shape of a rule's {@code pattern} (a {@code COMPOSITE} node): its stages, the edges
 * that order them and say how each follows the one before, the whole pattern's window and its after-match skip
 * strategy. A {@link Group} among the nodes is a group pattern (a {@code COMPOSITE} node inside {@code nodes}).
 * Immutable; made by {@link Rules#parse} from JSON and by {@link Rules#toGraph} from a pattern, and turned into a
 * pattern by {@link Rule#compile}.
 *
 * @param name               the graph's name (the products that write this format give it the last stage's name);
 *                           null if not given
 * @param nodes              the stages and groups, in the order they are written (the edges give the pattern's order)
 * @param edges              the order: from each node to the one after it, with its contiguity
 * @param window             the whole pattern's window, or null
 * @param afterMatchStrategy the after-match skip strategy
 */
public record RuleGraph(String name, List<Node> nodes, List<Edge> edges, Window window,
        AfterMatchSkipStrategy afterMatchStrategy) {

    /**
     * Copies the lists; checks what must be there.
     *
     * @param name               the graph's name (the products that write this format give it the last stage's name);
     *                           null if not given
     * @param nodes              the stages and groups, in the order they are written (the edges give the pattern's
     *                           order)
     * @param edges              the order: from each node to the one after it, with its contiguity
     * @param window             the whole pattern's window, or null
     * @param afterMatchStrategy the after-match skip strategy
     */
    public RuleGraph {
        nodes = List.copyOf(nodes);
        edges = List.copyOf(edges);
        Objects.requireNonNull(afterMatchStrategy, "afterMatchStrategy");
    }

    /** A node of the graph: a stage ({@code ATOMIC}) or a group ({@code COMPOSITE}). */
    public sealed interface Node permits Stage, Group {
        /** @return the node's name, unique in the rule (null only for a graph that has none) */
        String name();

        /** @return how many events (or rounds of a group) it takes */
        Quantifier quantifier();

        /** @return its window, or null */
        Window window();
    }

    /**
     * A stage: one condition on events, quantified.
     *
     * @param name       unique in the rule
     * @param quantifier how many events it takes
     * @param condition  what an event must satisfy; null accepts every event
     * @param window     a window on this stage (an extension of the format): {@code FIRST_AND_LAST} bounds the whole
     *                   match as on the graph, {@code PREVIOUS_AND_CURRENT} the step from the previous event to this
     *                   stage's; null for none
     */
    public record Stage(String name, Quantifier quantifier, Condition condition, Window window) implements Node {
        /**
         * Checks what must be there.
         *
         * @param name       unique in the rule
         * @param quantifier how many events it takes
         * @param condition  what an event must satisfy; null accepts every event
         * @param window     a window on this stage (an extension of the format): {@code FIRST_AND_LAST} bounds the
         *                   whole match as on the graph, {@code PREVIOUS_AND_CURRENT} the step from the previous
         *                   event to this stage's; null for none
         */
        public Stage {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(quantifier, "quantifier");
        }
    }

    /**
     * A group: a sub-pattern quantified as a whole ({@code Pattern.begin(subPattern).times(2)}).
     *
     * @param name       unique among its sibling nodes (the products name a group after its last stage)
     * @param quantifier how many rounds it matches
     * @param nodes      its stages and groups
     * @param edges      their order
     * @param window     a window on the group as a stage, or null
     */
    public record Group(String name, Quantifier quantifier, List<Node> nodes, List<Edge> edges, Window window)
            implements Node {
        /**
         * Copies the lists; checks what must be there.
         *
         * @param name       unique among its sibling nodes (the products name a group after its last stage)
         * @param quantifier how many rounds it matches
         * @param nodes      its stages and groups
         * @param edges      their order
         * @param window     a window on the group as a stage, or null
         */
        public Group {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(quantifier, "quantifier");
            nodes = List.copyOf(nodes);
            edges = List.copyOf(edges);
        }
    }

    /**
     * An edge: {@code target} comes after {@code source}.
     *
     * @param source the earlier node's name
     * @param target the later node's name
     * @param type   how the target follows the source
     */
    public record Edge(String source, String target, EdgeType type) {
        /**
         * Checks what must be there.
         *
         * @param source the earlier node's name
         * @param target the later node's name
         * @param type   how the target follows the source
         */
        public Edge {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(type, "type");
        }
    }

    /** How a node follows the one before it: the Pattern API's {@code next}, {@code followedBy} ... */
    public enum EdgeType {
        /** {@code next}: directly after. */
        STRICT,
        /** {@code followedBy}: the first matching event later on. */
        SKIP_TILL_NEXT,
        /** {@code followedByAny}: every later matching event. */
        SKIP_TILL_ANY,
        /** {@code notNext}: the next event must not match the target (a single stage). */
        NOT_NEXT,
        /** {@code notFollowedBy}: no event matching the target (a single stage) before the node after it. */
        NOT_FOLLOW
    }

    /** The contiguity between the events of one looping or times stage. */
    public enum ConsumingStrategy {
        /** {@code consecutive()}. */
        STRICT,
        /** Relaxed, the default. */
        SKIP_TILL_NEXT,
        /** {@code allowCombinations()}. */
        SKIP_TILL_ANY
    }

    /** What a quantifier's {@code properties} may hold. */
    public enum Property {
        /** One event. */
        SINGLE,
        /** {@code times(from, to)}. */
        TIMES,
        /** {@code timesOrMore(from)}, {@code oneOrMore()}. */
        LOOPING,
        /** {@code optional()}. */
        OPTIONAL,
        /** {@code greedy()}. */
        GREEDY
    }

    /**
     * How many events a stage takes (or how many rounds a group matches).
     *
     * @param consumingStrategy contiguity between its own events
     * @param properties        exactly one of {@code SINGLE}, {@code TIMES}, {@code LOOPING}, and any of
     *                          {@code OPTIONAL}, {@code GREEDY}
     * @param times             the counts, for {@code TIMES} and {@code LOOPING}; null for {@code SINGLE}
     * @param untilCondition    what ends a {@code LOOPING} stage; null for none
     */
    public record Quantifier(ConsumingStrategy consumingStrategy, Set<Property> properties, Times times,
            Condition untilCondition) {

        /** One event, relaxed: a plain stage. */
        public static final Quantifier ONCE = new Quantifier(ConsumingStrategy.SKIP_TILL_NEXT, Set.of(Property.SINGLE),
                null, null);

        /**
         * Copies the properties.
         *
         * @param consumingStrategy contiguity between its own events
         * @param properties        exactly one of {@code SINGLE}, {@code TIMES}, {@code LOOPING}, and any of {@code
         *                          OPTIONAL}, {@code GREEDY}
         * @param times             the counts, for {@code TIMES} and {@code LOOPING}; null for {@code SINGLE}
         * @param untilCondition    what ends a {@code LOOPING} stage; null for none
         */
        public Quantifier {
            Objects.requireNonNull(consumingStrategy, "consumingStrategy");
            properties = Set.copyOf(properties);
        }

        /**
         * @param p a property
         * @return whether {@code p} is among the properties
         */
        public boolean has(Property p) {
            return properties.contains(p);
        }
    }

    /**
     * The counts of a {@code TIMES} or {@code LOOPING} quantifier.
     *
     * @param from       the least (0 makes the stage optional)
     * @param to         the most, for {@code TIMES}; for {@code LOOPING} equal to {@code from}
     * @param windowTime the longest time allowed between two consecutive events of the stage; null for none
     */
    public record Times(int from, int to, Duration windowTime) {
    }

    /**
     * A window.
     *
     * @param type what it measures
     * @param time how long it is
     */
    public record Window(WithinType type, Duration time) {
        /**
         * Checks what must be there.
         *
         * @param type what it measures
         * @param time how long it is
         */
        public Window {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(time, "time");
        }
    }

    /** A stage's condition: an expression, a condition the application registered, or a combination of those. */
    public sealed interface Condition permits Expression, Named, AllOf, AnyOf, Not, Subtype {
    }

    /**
     * {@code "type": "EXPRESSION"} (or {@code "AVIATOR"}, read the same way).
     *
     * @param expression the expression (the format's section 4)
     */
    public record Expression(String expression) implements Condition {
        /**
         * Checks what must be there.
         *
         * @param expression the expression (the format's section 4)
         */
        public Expression {
            Objects.requireNonNull(expression, "expression");
        }
    }

    /**
     * {@code "type": "CLASS"}: a condition the application registered under {@code className}.
     *
     * @param className the registry key
     * @param args      the arguments given to the registered factory; empty for none
     */
    public record Named(String className, List<String> args) implements Condition {
        /**
         * Copies the arguments.
         *
         * @param className the registry key
         * @param args      the arguments given to the registered factory; empty for none
         */
        public Named {
            Objects.requireNonNull(className, "className");
            args = List.copyOf(args);
        }
    }

    /**
     * Flink's {@code RichAndCondition}: every nested condition holds (evaluated in order, short-circuit).
     *
     * @param conditions at least two
     */
    public record AllOf(List<Condition> conditions) implements Condition {
        /**
         * Copies the list.
         *
         * @param conditions at least two
         */
        public AllOf {
            conditions = List.copyOf(conditions);
        }
    }

    /**
     * Flink's {@code RichOrCondition}: some nested condition holds (evaluated in order, short-circuit).
     *
     * @param conditions at least two
     */
    public record AnyOf(List<Condition> conditions) implements Condition {
        /**
         * Copies the list.
         *
         * @param conditions at least two
         */
        public AnyOf {
            conditions = List.copyOf(conditions);
        }
    }

    /**
     * Flink's {@code RichNotCondition}.
     *
     * @param condition the negated condition
     */
    public record Not(Condition condition) implements Condition {
        /**
         * Checks what must be there.
         *
         * @param condition the negated condition
         */
        public Not {
            Objects.requireNonNull(condition, "condition");
        }
    }

    /**
     * Flink's {@code SubtypeCondition}: the event is of the type the application registered under this name.
     *
     * @param subClassName the registry key
     */
    public record Subtype(String subClassName) implements Condition {
        /**
         * Checks what must be there.
         *
         * @param subClassName the registry key
         */
        public Subtype {
            Objects.requireNonNull(subClassName, "subClassName");
        }
    }
}
