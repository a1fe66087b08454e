package io.cepheus.examples.cli;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON the runner needs: reading one flat object per line (string, number, boolean or null
 * values; nested values are rejected, naming the field) and writing maps, lists, strings, numbers and
 * booleans. Stateless.
 */
public final class Json {

    private Json() {
    }

    /**
     * @param text one line holding a JSON object
     * @param line its line number, for messages
     * @return field name to its value as text (a number as written, {@code true}/{@code false}); null values
     *     are left out
     * @throws MalformedLineException if the line is not a flat JSON object
     */
    public static Map<String, String> parseFlatObject(String text, long line) {
        return new Reader(text, line).object();
    }

    /**
     * @param value a map (string keys), list, string, number, boolean or null
     * @return it as compact JSON
     */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String s) {
            string(s, out);
        } else if (value instanceof Boolean || value instanceof Integer || value instanceof Long) {
            out.append(value);
        } else if (value instanceof BigDecimal d) {
            out.append(d.toPlainString());
        } else if (value instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) {
                throw new IllegalArgumentException("JSON has no " + d);
            }
            out.append(d);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.append(first ? "" : ",");
                first = false;
                string((String) e.getKey(), out);
                out.append(':');
                write(e.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                out.append(i == 0 ? "" : ",");
                write(list.get(i), out);
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("cannot write " + value.getClass().getSimpleName() + " as JSON");
        }
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** A recursive-descent reader of one flat object; single use. */
    private static final class Reader {
        private final String s;
        private final long line;
        private int pos;

        Reader(String s, long line) {
            this.s = s;
            this.line = line;
        }

        Map<String, String> object() {
            Map<String, String> out = new LinkedHashMap<>();
            skipSpace();
            expect('{', "a JSON object starting with '{'");
            skipSpace();
            if (peek() == '}') {
                pos++;
            } else {
                while (true) {
                    skipSpace();
                    String key = string();
                    skipSpace();
                    expect(':', "':' after \"" + key + "\"");
                    skipSpace();
                    String value = value(key);
                    if (out.containsKey(key)) {
                        throw fail("field \"" + key + "\" appears twice");
                    }
                    if (value != null) {
                        out.put(key, value);
                    }
                    skipSpace();
                    char c = peek();
                    pos++;
                    if (c == '}') {
                        break;
                    }
                    if (c != ',') {
                        throw fail("expected ',' or '}' at column " + pos);
                    }
                }
            }
            skipSpace();
            if (pos < s.length()) {
                throw fail("unexpected text after the object at column " + (pos + 1));
            }
            return out;
        }

        private String value(String key) {
            char c = peek();
            if (c == '"') {
                return string();
            }
            if (c == '{' || c == '[') {
                throw fail("field \"" + key + "\" holds a nested value; only flat objects are read");
            }
            int start = pos;
            while (pos < s.length() && ",} \t".indexOf(s.charAt(pos)) < 0) {
                pos++;
            }
            String word = s.substring(start, pos);
            if (word.equals("null")) {
                return null;
            }
            if (word.equals("true") || word.equals("false")) {
                return word;
            }
            try {
                new BigDecimal(word);
                return word;
            } catch (NumberFormatException e) {
                throw fail("field \"" + key + "\": '" + word + "' is not a JSON value");
            }
        }

        private String string() {
            expect('"', "a quoted field name or string at column " + (pos + 1));
            StringBuilder out = new StringBuilder();
            while (true) {
                if (pos >= s.length()) {
                    throw fail("unterminated string");
                }
                char c = s.charAt(pos++);
                if (c == '"') {
                    return out.toString();
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                if (pos >= s.length()) {
                    throw fail("unterminated string");
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case '"', '\\', '/' -> out.append(e);
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'u' -> {
                        if (pos + 4 > s.length()) {
                            throw fail("bad \\u escape");
                        }
                        try {
                            out.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        } catch (NumberFormatException ex) {
                            throw fail("bad \\u escape");
                        }
                        pos += 4;
                    }
                    default -> throw fail("bad escape \\" + e);
                }
            }
        }

        private void expect(char c, String what) {
            if (peek() != c) {
                throw fail("expected " + what);
            }
            pos++;
        }

        private char peek() {
            if (pos >= s.length()) {
                throw fail("the line ends inside the JSON object");
            }
            return s.charAt(pos);
        }

        private void skipSpace() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        private MalformedLineException fail(String message) {
            return new MalformedLineException(line, message);
        }
    }
}
