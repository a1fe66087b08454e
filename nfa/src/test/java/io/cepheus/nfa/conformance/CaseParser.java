package io.cepheus.nfa.conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the {@code .case} format of FORMAT.md: {@code key: value} lines, {@code #} comments, lines starting
 * with whitespace continuing the previous key, each {@code case:} starting a new case, unknown keys
 * ({@code note:}, {@code deviation:} ...) ignored.
 */
public final class CaseParser {

    /** Keys this parser interprets; only these may not repeat within a case. */
    private static final Set<String> KNOWN_KEYS = Set.of("case", "pattern", "within", "skip", "end-watermark",
            "events");

    private static final Pattern EVENT = Pattern.compile("([A-Za-z])([+-]?\\d+)@([+-]?\\d+)");
    private static final Pattern WATERMARK = Pattern.compile("(?:wm|watermark)@([+-]?\\d+)");

    private CaseParser() {
    }

    /**
     * @param text   the file's content
     * @param source the file name, for messages
     * @return the cases, in file order
     * @throws CaseSyntaxException on a line that is neither {@code key: value}, a continuation, a comment nor
     *                             blank; on a repeated known key; on a missing {@code pattern:} or
     *                             {@code events:}; on a malformed value
     */
    public static List<ConformanceCase> parse(String text, String source) {
        List<RawCase> raw = splitIntoCases(text, source);
        List<ConformanceCase> out = new ArrayList<>(raw.size());
        for (RawCase r : raw) {
            out.add(interpret(r, source));
        }
        return out;
    }

    /**
     * Tokenises an {@code events:} value.
     *
     * @param text tokens separated by spaces or commas
     * @return events and watermarks in input order
     * @throws CaseSyntaxException on a token that is neither {@code <T><value>@<ts>} nor {@code wm@<ts>}
     */
    public static List<InputToken> parseEvents(String text) {
        List<InputToken> out = new ArrayList<>();
        for (String token : text.trim().split("[\\s,]+")) {
            if (token.isEmpty()) {
                continue;
            }
            Matcher wm = WATERMARK.matcher(token);
            Matcher ev = EVENT.matcher(token);
            try {
                if (wm.matches()) {
                    out.add(new InputToken.Watermark(Long.parseLong(wm.group(1))));
                } else if (ev.matches()) {
                    out.add(new InputToken.Event(new Ev(ev.group(1).charAt(0), Integer.parseInt(ev.group(2)),
                            Long.parseLong(ev.group(3)), token)));
                } else {
                    throw new CaseSyntaxException("bad event token '" + token
                            + "': expected <T><value>@<ts> (e.g. F4@6) or wm@<ts>");
                }
            } catch (NumberFormatException e) {
                throw new CaseSyntaxException("number out of range in event token '" + token + "'", e);
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ lines to raw key/value maps

    /** The key/value pairs of one case before interpretation; line numbers are kept for messages. */
    private record RawCase(int line, Map<String, String> values) {
    }

    private static List<RawCase> splitIntoCases(String text, String source) {
        List<RawCase> cases = new ArrayList<>();
        RawCase current = null;
        String lastKey = null;
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String where = source + ":" + (i + 1);
            String line = stripComment(lines[i]);
            if (line.isBlank()) {
                continue;
            }
            if (Character.isWhitespace(line.charAt(0))) {
                if (current == null || lastKey == null) {
                    throw new CaseSyntaxException(where + ": continuation line with no key before it");
                }
                current.values().merge(lastKey, line.trim(), (a, b) -> a.isEmpty() ? b : a + " " + b);
                continue;
            }
            int colon = line.indexOf(':');
            if (colon < 0) {
                throw new CaseSyntaxException(where + ": expected 'key: value', got '" + line.trim() + "'");
            }
            String key = line.substring(0, colon).trim();
            String value = line.substring(colon + 1).trim();
            if (key.equals("case")) {
                current = new RawCase(i + 1, new LinkedHashMap<>());
            } else if (current == null) {
                throw new CaseSyntaxException(where + ": '" + key + ":' before the first 'case:' line");
            }
            if (KNOWN_KEYS.contains(key) && current.values().containsKey(key)) {
                throw new CaseSyntaxException(where + ": '" + key + ":' given twice in one case");
            }
            if (key.equals("case")) {
                cases.add(current);
            }
            // unknown keys are kept too, only so that their continuation lines have somewhere to go
            current.values().merge(key, value, (a, b) -> a + " " + b);
            lastKey = key;
        }
        return cases;
    }

    private static String stripComment(String line) {
        int hash = line.indexOf('#');
        return hash < 0 ? line : line.substring(0, hash);
    }

    // ------------------------------------------------------------------ raw values to a case

    private static ConformanceCase interpret(RawCase raw, String source) {
        Map<String, String> v = raw.values();
        String where = source + ":" + raw.line();
        String name = v.get("case");
        if (name.isEmpty()) {
            throw new CaseSyntaxException(where + ": 'case:' without a name");
        }
        String at = where + " (case " + name + ")";
        String pattern = v.get("pattern");
        if (pattern == null || pattern.isBlank()) {
            throw new CaseSyntaxException(at + ": no 'pattern:'");
        }
        String events = v.get("events");
        if (events == null) {
            throw new CaseSyntaxException(at + ": no 'events:'");
        }
        OptionalLong within = v.containsKey("within")
                ? OptionalLong.of(parseLong(v.get("within"), "within", at))
                : OptionalLong.empty();
        String skip = v.getOrDefault("skip", "noSkip");
        if (skip.isBlank()) {
            throw new CaseSyntaxException(at + ": empty 'skip:'");
        }
        OptionalLong end = parseEndWatermark(v.getOrDefault("end-watermark", "max"), at);
        try {
            return new ConformanceCase(name, pattern, within, skip, end, parseEvents(events));
        } catch (CaseSyntaxException e) {
            throw new CaseSyntaxException(at + ": " + e.getMessage(), e);
        }
    }

    private static OptionalLong parseEndWatermark(String text, String at) {
        return switch (text) {
            case "max" -> OptionalLong.of(Long.MAX_VALUE);
            case "none" -> OptionalLong.empty();
            default -> OptionalLong.of(parseLong(text, "end-watermark", at));
        };
    }

    private static long parseLong(String text, String key, String at) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new CaseSyntaxException(at + ": '" + key + ":' needs a number, got '" + text + "'", e);
        }
    }
}
