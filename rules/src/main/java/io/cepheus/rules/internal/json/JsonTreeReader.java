package io.cepheus.rules.internal.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one JSON document into a {@link Json} tree with positions, on Jackson's streaming parser. Strict: duplicate
 * member names are an error (a rule must not say two things at once), nothing may follow the document, and nesting is
 * bounded ({@value #MAX_DEPTH} levels), as are the lengths Jackson bounds by default, so that no input can exhaust the
 * stack or the heap.
 */
public final class JsonTreeReader {

    /** The deepest nesting of arrays and objects accepted: far beyond any rule, far below a stack overflow. */
    public static final int MAX_DEPTH = 64;

    private JsonTreeReader() {
    }

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(com.fasterxml.jackson.core.StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .build();


    /** Why a document is not well-formed JSON, and where. */
    public static final class SyntaxError extends Exception {
        private static final long serialVersionUID = 1L;

        private final int line;
        private final int column;
        private final String path;
        private final String ruleId;

        SyntaxError(String message, int line, int column, String path, String ruleId, Throwable cause) {
            super(message, cause);
            this.line = line;
            this.column = column;
            this.path = path;
            this.ruleId = ruleId;
        }

        /** @return the path of the value being read when the syntax broke ({@code pattern.nodes[2]}), or "" */
        public String path() {
            return path;
        }

        /** @return the document's top-level {@code id}, if it was read before the syntax broke; else null */
        public String ruleId() {
            return ruleId;
        }

        /** @return the 1-based line, or -1 if unknown */
        public int line() {
            return line;
        }

        /** @return the 1-based column, or -1 if unknown */
        public int column() {
            return column;
        }
    }

    /**
     * @param reader the document (read to its end, not closed)
     * @return its tree
     * @throws SyntaxError if it is not one well-formed JSON value
     * @throws IOException if reading fails
     */
    public static Json read(Reader reader) throws SyntaxError, IOException {
        JsonTreeReader state = new JsonTreeReader();
        JsonParser parser = FACTORY.createParser(reader);
        try {
            parser.disable(JsonParser.Feature.AUTO_CLOSE_SOURCE);
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new SyntaxError("the document is empty", 1, 1, "", null, null);
            }
            Json value = state.value(parser, first, 0);
            JsonToken after = parser.nextToken();
            if (after != null) {
                JsonLocation at = parser.currentTokenLocation();
                throw new SyntaxError("unexpected " + describe(after) + " after the end of the document", at.getLineNr(),
                        at.getColumnNr(), "", state.ruleId, null);
            }
            return value;
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String message = e.getOriginalMessage();
            if (message != null && message.startsWith("Document nesting depth")) {
                message = "the document is nested more than " + MAX_DEPTH + " levels deep";
            }
            throw new SyntaxError(message, at == null ? -1 : at.getLineNr(), at == null ? -1 : at.getColumnNr(),
                    path(parser), state.ruleId, e);
        } finally {
            parser.close();
        }
    }

    /** The top-level {@code id} once read, so that a later syntax error can still name the rule. */
    private String ruleId;

    /** @return the path of what the parser was reading, in the rule format's notation */
    private static String path(JsonParser parser) {
        StringBuilder sb = new StringBuilder();
        try {
            for (String segment : parser.getParsingContext().pathAsPointer().toString().split("/")) {
                if (segment.isEmpty()) {
                    continue;
                }
                String name = segment.replace("~1", "/").replace("~0", "~");
                if (!name.isEmpty() && name.chars().allMatch(Character::isDigit)) {
                    sb.append('[').append(name).append(']');
                } else {
                    sb.append(sb.length() == 0 ? "" : ".").append(name);
                }
            }
        } catch (RuntimeException unknown) {
            return "";
        }
        return sb.toString();
    }

    private Json value(JsonParser p, JsonToken token, int depth) throws IOException {
        JsonLocation at = p.currentTokenLocation();
        int line = at.getLineNr();
        int column = at.getColumnNr();
        switch (token) {
            case START_OBJECT: {
                Map<String, Json.Member> members = new LinkedHashMap<>();
                for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                    JsonLocation nameAt = p.currentTokenLocation();
                    String name = p.currentName();
                    Json v = value(p, p.nextToken(), depth + 1);
                    if (depth == 0 && name.equals("id") && v instanceof Json.Str idValue) {
                        ruleId = idValue.value();
                    }
                    members.put(name, new Json.Member(name, v, nameAt.getLineNr(), nameAt.getColumnNr()));
                }
                return new Json.Obj(members, line, column);
            }
            case START_ARRAY: {
                List<Json> items = new ArrayList<>();
                for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                    items.add(value(p, t, depth + 1));
                }
                return new Json.Arr(items, line, column);
            }
            case VALUE_STRING:
                return new Json.Str(p.getText(), line, column);
            case VALUE_NUMBER_INT:
                return new Json.Num(p.getText(), true, line, column);
            case VALUE_NUMBER_FLOAT:
                return new Json.Num(p.getText(), false, line, column);
            case VALUE_TRUE:
                return new Json.Bool(true, line, column);
            case VALUE_FALSE:
                return new Json.Bool(false, line, column);
            case VALUE_NULL:
                return new Json.Null(line, column);
            default:
                throw new IllegalStateException("unexpected token " + token);
        }
    }

    private static String describe(JsonToken t) {
        return switch (t) {
            case START_OBJECT -> "'{'";
            case START_ARRAY -> "'['";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            default -> t.asString() == null ? t.name() : "'" + t.asString() + "'";
        };
    }
}
