package io.cepheus.rules.internal.format;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.rules.RuleGraph;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;

/**
 * Writes rules and graphs as JSON in the shape the products that read this format write it: every field present
 * (null where unset), the graph's and each group's {@code version} 1, times in the largest unit that holds them
 * exactly. A stage's {@code window} (an extension of the format) is written only when the stage has one.
 */
public final class RuleWriter {

    private static final JsonFactory FACTORY = new JsonFactory();

    private RuleWriter() {
    }

    /**
     * @param id          the rule's id
     * @param version     its version
     * @param description its description, or null
     * @param metadata    its metadata as JSON text, or null
     * @param graph       its pattern
     * @param pretty      indent the output
     * @return the rule document
     */
    public static String rule(String id, int version, String description, String metadata, RuleGraph graph,
            boolean pretty) {
        return write(pretty, g -> {
            g.writeStartObject();
            g.writeStringField("id", id);
            g.writeNumberField("version", version);
            if (description != null) {
                g.writeStringField("description", description);
            }
            if (metadata != null) {
                g.writeFieldName("metadata");
                g.writeRawValue(metadata);
            }
            g.writeFieldName("pattern");
            graph(g, graph);
            g.writeEndObject();
        });
    }

    /**
     * @param graph  a pattern graph
     * @param pretty indent the output
     * @return the graph alone (a bare graph document)
     */
    public static String graph(RuleGraph graph, boolean pretty) {
        return write(pretty, g -> graph(g, graph));
    }

    /**
     * @param value a JSON value as read
     * @return it as compact JSON text
     */
    public static String json(io.cepheus.rules.internal.json.Json value) {
        return write(false, g -> json(g, value));
    }

    private static void json(JsonGenerator g, io.cepheus.rules.internal.json.Json value) throws IOException {
        if (value instanceof io.cepheus.rules.internal.json.Json.Obj o) {
            g.writeStartObject();
            for (io.cepheus.rules.internal.json.Json.Member m : o.members().values()) {
                g.writeFieldName(m.name());
                json(g, m.value());
            }
            g.writeEndObject();
        } else if (value instanceof io.cepheus.rules.internal.json.Json.Arr a) {
            g.writeStartArray();
            for (io.cepheus.rules.internal.json.Json item : a.items()) {
                json(g, item);
            }
            g.writeEndArray();
        } else if (value instanceof io.cepheus.rules.internal.json.Json.Str str) {
            g.writeString(str.value());
        } else if (value instanceof io.cepheus.rules.internal.json.Json.Num n) {
            g.writeNumber(n.text());
        } else if (value instanceof io.cepheus.rules.internal.json.Json.Bool b) {
            g.writeBoolean(b.value());
        } else {
            g.writeNull();
        }
    }

    private interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private static String write(boolean pretty, Body body) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            if (pretty) {
                g.useDefaultPrettyPrinter();
            }
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }

    private static void graph(JsonGenerator g, RuleGraph graph) throws IOException {
        composite(g, graph.name(), RuleGraph.Quantifier.ONCE, graph.nodes(), graph.edges(), graph.window(),
                graph.afterMatchStrategy());
    }

    private static void composite(JsonGenerator g, String name, RuleGraph.Quantifier quantifier,
            List<RuleGraph.Node> nodes, List<RuleGraph.Edge> edges, RuleGraph.Window window,
            AfterMatchSkipStrategy skip) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", name);
        g.writeStringField("type", "COMPOSITE");
        g.writeFieldName("quantifier");
        quantifier(g, quantifier);
        g.writeNullField("condition");
        g.writeArrayFieldStart("nodes");
        for (RuleGraph.Node node : nodes) {
            if (node instanceof RuleGraph.Group group) {
                composite(g, group.name(), group.quantifier(), group.nodes(), group.edges(), group.window(),
                        AfterMatchSkipStrategy.noSkip());
            } else {
                stage(g, (RuleGraph.Stage) node);
            }
        }
        g.writeEndArray();
        g.writeArrayFieldStart("edges");
        for (RuleGraph.Edge e : edges) {
            g.writeStartObject();
            g.writeStringField("source", e.source());
            g.writeStringField("target", e.target());
            g.writeStringField("type", e.type().name());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeFieldName("window");
        window(g, window);
        g.writeFieldName("afterMatchStrategy");
        g.writeStartObject();
        g.writeStringField("type", skip.kind().name());
        g.writeStringField("patternName", skip.stage());
        g.writeEndObject();
        g.writeNumberField("version", 1);
        g.writeEndObject();
    }

    private static void stage(JsonGenerator g, RuleGraph.Stage stage) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", stage.name());
        g.writeStringField("type", "ATOMIC");
        g.writeFieldName("quantifier");
        quantifier(g, stage.quantifier());
        g.writeFieldName("condition");
        condition(g, stage.condition());
        if (stage.window() != null) {
            g.writeFieldName("window");
            window(g, stage.window());
        }
        g.writeEndObject();
    }

    private static void quantifier(JsonGenerator g, RuleGraph.Quantifier q) throws IOException {
        g.writeStartObject();
        g.writeStringField("consumingStrategy", q.consumingStrategy().name());
        g.writeArrayFieldStart("properties");
        for (RuleGraph.Property p : RuleGraph.Property.values()) {
            if (q.has(p)) {
                g.writeString(p.name());
            }
        }
        g.writeEndArray();
        g.writeFieldName("times");
        if (q.times() == null) {
            g.writeNull();
        } else {
            g.writeStartObject();
            g.writeNumberField("from", q.times().from());
            g.writeNumberField("to", q.times().to());
            g.writeFieldName("windowTime");
            time(g, q.times().windowTime());
            g.writeEndObject();
        }
        g.writeFieldName("untilCondition");
        condition(g, q.untilCondition());
        g.writeEndObject();
    }

    private static void window(JsonGenerator g, RuleGraph.Window w) throws IOException {
        if (w == null) {
            g.writeNull();
            return;
        }
        g.writeStartObject();
        g.writeStringField("type", w.type().name());
        g.writeFieldName("time");
        time(g, w.time());
        g.writeEndObject();
    }

    private static void time(JsonGenerator g, Duration d) throws IOException {
        if (d == null) {
            g.writeNull();
            return;
        }
        long ms = d.toMillis();
        String unit = "MILLISECONDS";
        long size = ms;
        if (ms != 0 && ms % 86_400_000L == 0) {
            unit = "DAYS";
            size = ms / 86_400_000L;
        } else if (ms != 0 && ms % 3_600_000L == 0) {
            unit = "HOURS";
            size = ms / 3_600_000L;
        } else if (ms != 0 && ms % 60_000L == 0) {
            unit = "MINUTES";
            size = ms / 60_000L;
        } else if (ms != 0 && ms % 1_000L == 0) {
            unit = "SECONDS";
            size = ms / 1_000L;
        }
        g.writeStartObject();
        g.writeStringField("unit", unit);
        g.writeNumberField("size", size);
        g.writeEndObject();
    }

    private static void condition(JsonGenerator g, RuleGraph.Condition c) throws IOException {
        if (c == null) {
            g.writeNull();
            return;
        }
        g.writeStartObject();
        if (c instanceof RuleGraph.Expression e) {
            g.writeStringField("type", "EXPRESSION");
            g.writeStringField("expression", e.expression());
        } else if (c instanceof RuleGraph.Named n) {
            g.writeStringField("type", "CLASS");
            g.writeStringField("className", n.className());
            if (!n.args().isEmpty()) {
                g.writeArrayFieldStart("args");
                for (String a : n.args()) {
                    g.writeString(a);
                }
                g.writeEndArray();
            }
        } else if (c instanceof RuleGraph.Subtype s) {
            g.writeStringField("type", "CLASS");
            g.writeStringField("className", RuleReader.SUBTYPE);
            g.writeStringField("subClassName", s.subClassName());
        } else {
            String className;
            List<RuleGraph.Condition> nested;
            if (c instanceof RuleGraph.AllOf a) {
                className = RuleReader.RICH_AND;
                nested = a.conditions();
            } else if (c instanceof RuleGraph.AnyOf o) {
                className = RuleReader.RICH_OR;
                nested = o.conditions();
            } else {
                className = RuleReader.RICH_NOT;
                nested = List.of(((RuleGraph.Not) c).condition());
            }
            g.writeStringField("type", "CLASS");
            g.writeStringField("className", className);
            g.writeArrayFieldStart("nestedConditions");
            for (RuleGraph.Condition n : nested) {
                condition(g, n);
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }
}
