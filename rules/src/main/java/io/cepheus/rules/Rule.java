package io.cepheus.rules;

import io.cepheus.pattern.Condition;
import io.cepheus.pattern.Pattern;
import io.cepheus.rules.internal.expr.ClassFields;
import io.cepheus.rules.internal.expr.MapFields;
import io.cepheus.rules.internal.format.PatternAssembler;
import io.cepheus.rules.internal.format.RuleWriter;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * A rule: a pattern written as data, with an id and a version, so that it can be stored, reviewed and swapped while
 * the engine runs. Read one with {@link Rules#parse}; compile it against the events it will see with
 * {@link #compile(Class)} (records, JavaBeans, classes with public fields) or {@link #compileForMaps()} (what JSON
 * Lines and CSV rows become), then register the pattern like any other.
 *
 * <pre>{@code
 * Rule rule = Rules.parse(Path.of("rules/card-testing.json"));
 * Pattern<Payment> pattern = rule.compile(Payment.class);
 * }</pre>
 *
 * <p>Immutable. Compiling resolves every field the expressions read to an accessor of the event class once, checks
 * the expressions' types, and builds the pattern with the Pattern API's builder: what is wrong is a
 * {@link RuleFormatException} naming the rule, the JSON path and (when the rule was read from text) the line and
 * column. Equal rules have equal ids, versions, descriptions, metadata and graphs.
 */
public final class Rule {

    private final String id;
    private final int version;
    private final String description;
    private final String metadata;
    private final RuleGraph pattern;
    private final String source;
    private final String rootPath;
    private final Map<String, Long> locations;

    Rule(String id, int version, String description, String metadata, RuleGraph pattern, String source,
            String rootPath, Map<String, Long> locations) {
        this.id = id;
        this.version = version;
        this.description = description;
        this.metadata = metadata;
        this.pattern = pattern;
        this.source = source;
        this.rootPath = rootPath;
        this.locations = Map.copyOf(locations);
    }

    /**
     * A rule made in code (not read from text: its errors carry JSON paths, but no lines).
     *
     * @param id          the rule's id, not blank
     * @param version     its version, at least 1
     * @param description its description, or null
     * @param pattern     its pattern graph
     * @return the rule
     */
    public static Rule of(String id, int version, String description, RuleGraph pattern) {
        if (Objects.requireNonNull(id, "id").isBlank()) {
            throw new IllegalArgumentException("a rule's id must not be blank");
        }
        if (version < 1) {
            throw new IllegalArgumentException("a rule's version is at least 1, was " + version);
        }
        return new Rule(id, version, description, null, Objects.requireNonNull(pattern, "pattern"), null, "pattern",
                Map.of());
    }

    /** @return the rule's id: what replacing and removing it refer to */
    public String id() {
        return id;
    }

    /** @return its version: a newer version of the same id replaces an older one */
    public int version() {
        return version;
    }

    /** @return its description, or null */
    public String description() {
        return description;
    }

    /** @return its {@code metadata}, as JSON text, or null: kept, never interpreted */
    public String metadata() {
        return metadata;
    }

    /** @return its pattern, as a graph */
    public RuleGraph pattern() {
        return pattern;
    }

    /** @return where it was read from (a file), or null */
    public String source() {
        return source;
    }

    /**
     * Compiles the rule for events of a class: records, JavaBeans, classes with public fields. Its conditions must
     * be expressions.
     *
     * @param eventType the class of the events
     * @param <T>       the event type
     * @return the pattern
     * @throws RuleFormatException if the rule is not a valid pattern for these events (an unknown field, a string
     *                             compared with a number, a registered condition it names, a builder rule)
     */
    public <T> Pattern<T> compile(Class<T> eventType) {
        return compile(eventType, NamedConditions.none());
    }

    /**
     * Compiles the rule for events of a class, its {@code CLASS} conditions looked up in {@code named}.
     *
     * @param eventType the class of the events
     * @param named     the conditions the application registered
     * @param <T>       the event type
     * @return the pattern
     * @throws RuleFormatException as {@link #compile(Class)}
     */
    public <T> Pattern<T> compile(Class<T> eventType, NamedConditions<T> named) {
        Objects.requireNonNull(eventType, "eventType");
        return PatternAssembler.assemble(id, version, source, pattern, rootPath, locations,
                ClassFields.of(eventType), registry(named));
    }

    /**
     * Compiles the rule for {@code Map<String, ?>} events (JSON Lines, CSV rows): a field is a key, a missing key
     * reads as null, types are those of the values.
     *
     * @param <M> the map type
     * @return the pattern
     * @throws RuleFormatException as {@link #compile(Class)}
     */
    public <M extends Map<String, ?>> Pattern<M> compileForMaps() {
        return compileForMaps(NamedConditions.none());
    }

    /**
     * As {@link #compileForMaps()}, its {@code CLASS} conditions looked up in {@code named}.
     *
     * @param named the conditions the application registered
     * @param <M>   the map type
     * @return the pattern
     * @throws RuleFormatException as {@link #compile(Class)}
     */
    public <M extends Map<String, ?>> Pattern<M> compileForMaps(NamedConditions<M> named) {
        return PatternAssembler.assemble(id, version, source, pattern, rootPath, locations, MapFields.INSTANCE,
                registry(named));
    }

    private static <T> PatternAssembler.Registry<T> registry(NamedConditions<T> named) {
        Objects.requireNonNull(named, "named");
        return new PatternAssembler.Registry<>() {
            @Override
            public Function<List<String>, ? extends Condition<T>> condition(String name) {
                return named.factory(name);
            }

            @Override
            public Class<? extends T> subtype(String name) {
                return named.subtypeClass(name);
            }

            @Override
            public Set<String> conditionNames() {
                return named.conditionNames();
            }

            @Override
            public Set<String> subtypeNames() {
                return named.subtypeNames();
            }
        };
    }

    /** @return the rule as a JSON document, indented, that {@link Rules#parse} reads back to an equal rule */
    public String toJson() {
        return RuleWriter.rule(id, version, description, metadata, pattern, true);
    }

    /**
     * @param version the new version
     * @return this rule with another version (as when a changed rule is published)
     */
    public Rule withVersion(int version) {
        if (version < 1) {
            throw new IllegalArgumentException("a rule's version is at least 1, was " + version);
        }
        return new Rule(id, version, description, metadata, pattern, source, rootPath, locations);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Rule r && id.equals(r.id) && version == r.version && Objects.equals(description,
                r.description) && Objects.equals(metadata, r.metadata) && pattern.equals(r.pattern);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, version, description, pattern);
    }

    @Override
    public String toString() {
        return "Rule[" + id + " v" + version + (source == null ? "" : ", " + source) + "]";
    }
}
