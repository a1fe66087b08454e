package io.cepheus.rules;

import io.cepheus.pattern.Condition;
import io.cepheus.pattern.Pattern;
import io.cepheus.rules.internal.ExpressionCondition;
import io.cepheus.rules.internal.expr.ClassFields;
import io.cepheus.rules.internal.expr.ExpressionCompiler;
import io.cepheus.rules.internal.expr.ExpressionSyntaxException;
import io.cepheus.rules.internal.expr.FieldSource;
import io.cepheus.rules.internal.expr.MapFields;
import io.cepheus.rules.internal.format.PatternDescriber;
import io.cepheus.rules.internal.format.Problem;
import io.cepheus.rules.internal.format.RuleReader;
import io.cepheus.rules.internal.format.RuleWriter;
import io.cepheus.rules.internal.json.Json;
import io.cepheus.rules.internal.json.JsonTreeReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Reading and writing rules, and expression conditions for patterns built in Java. The format is described in the
 * package documentation ({@link io.cepheus.rules}).
 *
 * <pre>{@code
 * Rule rule = Rules.parse(Path.of("rules/brute-force.json"));      // RuleFormatException names what is wrong, and where
 * Pattern<Login> bruteForce = rule.compile(Login.class);
 *
 * Pattern<Payment> cardTesting = Pattern.<Payment>begin("small")
 *         .where(Rules.expression("amount < 1.00", Payment.class))
 *         .followedBy("large").where(Rules.expression("amount > 500.00", Payment.class))
 *         .within(Duration.ofMinutes(1));
 * String json = Rules.toJson("card-testing", 1, cardTesting);      // and back: Rules.parse(json).compile(Payment.class)
 * }</pre>
 */
public final class Rules {

    private Rules() {
    }

    /**
     * Reads a rule from JSON text. A document that is a bare graph (no {@code id} / {@code pattern} envelope) gets the
     * graph's {@code name} as its id (or {@code "rule"}) and version 1.
     *
     * @param json the document
     * @return the rule, checked as far as it can be without the event type
     * @throws RuleFormatException naming the rule, the JSON path and the line and column of what is wrong
     */
    public static Rule parse(String json) {
        Objects.requireNonNull(json, "json");
        try {
            return parse(new StringReader(json), null, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringReader does not fail
        }
    }

    /**
     * Reads a rule from a reader, as {@link #parse(String)}; the reader is read to its end and not closed.
     *
     * @param reader the document
     * @return the rule
     * @throws RuleFormatException as {@link #parse(String)}
     * @throws UncheckedIOException if reading fails
     */
    public static Rule parse(Reader reader) {
        Objects.requireNonNull(reader, "reader");
        try {
            return parse(reader, null, null);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the rule: " + e.getMessage(), e);
        }
    }

    /**
     * Reads a rule file (UTF-8). A file that is a bare graph gets its file name without {@code .json} as its id, and
     * version 1; errors name the file.
     *
     * @param file the file
     * @return the rule
     * @throws RuleFormatException as {@link #parse(String)}, and for bytes that are not UTF-8
     * @throws UncheckedIOException if the file cannot be read
     */
    public static Rule parse(Path file) {
        Objects.requireNonNull(file, "file");
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read rule file " + file + ": " + e.getMessage(), e);
        }
        return parse(bytes, file);
    }

    /** Reads a rule file's bytes, as {@link #parse(Path)} does. */
    static Rule parse(byte[] bytes, Path file) {
        String name = file.getFileName() == null ? file.toString() : file.getFileName().toString();
        String bareId = name.endsWith(".json") ? name.substring(0, name.length() - ".json".length()) : name;
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new RuleFormatException(null, file.toString(), "", -1, -1, "the file is not valid UTF-8", e);
        }
        try {
            return parse(new StringReader(text), bareId, file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Rule parse(Reader reader, String bareId, String source) throws IOException {
        Json document;
        try {
            document = JsonTreeReader.read(reader);
        } catch (JsonTreeReader.SyntaxError e) {
            throw new RuleFormatException(e.ruleId(), source, e.path(), e.line(), e.column(),
                    "not well-formed JSON: " + e.getMessage(), e);
        }
        RuleReader.Read read = RuleReader.read(document, bareId, source);
        return new Rule(read.id(), read.version(), read.description(), read.metadata(), read.graph(), source,
                read.rootPath(), read.locations());
    }

    /**
     * Describes a pattern as a rule graph: compiling it gives a pattern that matches exactly as {@code pattern} does.
     *
     * @param pattern a pattern whose conditions are expressions ({@link #expression}), registered conditions
     *                ({@link NamedConditions#condition}) or combinations of those
     * @return its graph
     * @throws IllegalArgumentException naming the stage whose condition is Java code (no JSON can carry it), or if
     *                                  the skip strategy throws on a miss (no JSON field says so)
     */
    public static RuleGraph toGraph(Pattern<?> pattern) {
        return PatternDescriber.describe(Objects.requireNonNull(pattern, "pattern"));
    }

    /**
     * @param pattern as {@link #toGraph}
     * @return its graph as JSON (a bare graph document, indented)
     * @throws IllegalArgumentException as {@link #toGraph}
     */
    public static String toJson(Pattern<?> pattern) {
        return RuleWriter.graph(toGraph(pattern), true);
    }

    /**
     * @param id      the rule's id
     * @param version its version, at least 1
     * @param pattern as {@link #toGraph}
     * @return a rule document (indented) that {@link #parse} reads back into a rule matching as {@code pattern} does
     * @throws IllegalArgumentException as {@link #toGraph}
     */
    public static String toJson(String id, int version, Pattern<?> pattern) {
        return Rule.of(id, version, null, toGraph(pattern)).toJson();
    }

    /**
     * An expression as the condition of a stage built in Java, for events of a class; {@link #toJson} writes it back as
     * an {@code EXPRESSION}. With an aggregate it is an iterative condition; the stages its aggregates name are looked
     * up when it is evaluated.
     *
     * @param expression the expression (the format's expression language)
     * @param eventType  the events' class
     * @param <T>        the event type
     * @return the condition
     * @throws RuleFormatException if the expression is malformed or cannot be right for this class (the message
     *                             shows it with a caret)
     */
    public static <T> Condition<T> expression(String expression, Class<T> eventType) {
        return expression(expression, ClassFields.of(Objects.requireNonNull(eventType, "eventType")));
    }

    /**
     * An expression as the condition of a stage built in Java, for {@code Map<String, ?>} events.
     *
     * @param expression the expression
     * @param <M>        the map type
     * @return the condition
     * @throws RuleFormatException if the expression is malformed
     */
    public static <M extends Map<String, ?>> Condition<M> mapExpression(String expression) {
        return expression(expression, MapFields.INSTANCE);
    }

    private static <T> Condition<T> expression(String expression, FieldSource fields) {
        Objects.requireNonNull(expression, "expression");
        try {
            return ExpressionCondition.of(ExpressionCompiler.compile(expression, fields, null), null, null);
        } catch (ExpressionSyntaxException e) {
            throw new RuleFormatException(null, null, "", -1, -1, e.getMessage() + " (" + fields.describe() + ")\n"
                    + Problem.caret(expression, e.column()), null);
        }
    }
}
