package io.cepheus.runtime.conformance.windows;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads window and join case files: {@code key: value} lines, {@code #} comments, a line starting with whitespace
 * continues the previous key, each {@code case:} starts a case, unknown keys are kept (and ignored by runners).
 */
public final class WindowCaseParser {

    private WindowCaseParser() {
    }

    /**
     * @param text   the file's text
     * @param source the file name, for messages
     * @return the cases in file order
     * @throws IllegalArgumentException naming the source and line of anything malformed
     */
    public static List<WindowCase> parse(String text, String source) {
        List<WindowCase> cases = new ArrayList<>();
        Map<String, String> current = null;
        String lastKey = null;
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String raw = stripComment(lines[i]);
            if (raw.isBlank()) {
                continue;
            }
            if (Character.isWhitespace(raw.charAt(0))) {
                if (current == null || lastKey == null) {
                    throw new IllegalArgumentException(source + ":" + (i + 1) + ": continuation line before any key");
                }
                current.merge(lastKey, raw.strip(), (a, b) -> a.isEmpty() ? b : a + " " + b);
                continue;
            }
            int colon = raw.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException(source + ":" + (i + 1) + ": expected 'key: value', got: " + raw);
            }
            String key = raw.substring(0, colon).strip();
            String value = raw.substring(colon + 1).strip();
            if (key.equals("case")) {
                if (current != null) {
                    cases.add(toCase(current, source));
                }
                current = new LinkedHashMap<>();
            } else if (current == null) {
                throw new IllegalArgumentException(source + ":" + (i + 1) + ": '" + key + "' before the first case:");
            }
            if (key.equals("note")) {
                lastKey = null; // notes may repeat; they are documentation only
                continue;
            }
            current.merge(key, value, (a, b) -> a + " " + b);
            lastKey = key;
        }
        if (current != null) {
            cases.add(toCase(current, source));
        }
        return cases;
    }

    private static String stripComment(String line) {
        int hash = line.indexOf('#');
        return hash < 0 ? line : line.substring(0, hash);
    }

    private static WindowCase toCase(Map<String, String> settings, String source) {
        String name = settings.get("case");
        List<WindowCase.Token> tokens = parseTokens(settings.getOrDefault("events", ""), source + " case " + name);
        return new WindowCase(name, settings, tokens);
    }

    /**
     * @param text   the {@code events:} value
     * @param source where it comes from, for messages
     * @return the tokens in order
     */
    public static List<WindowCase.Token> parseTokens(String text, String source) {
        List<WindowCase.Token> tokens = new ArrayList<>();
        for (String token : text.trim().split("\\s+")) {
            if (token.isEmpty()) {
                continue;
            }
            char side = ' ';
            String body = token;
            if (token.startsWith("L:") || token.startsWith("R:")) {
                side = token.charAt(0);
                body = token.substring(2);
            }
            int at = body.indexOf('@');
            if (at <= 0) {
                throw new IllegalArgumentException(source + ": bad token '" + token + "' (want k5@100 or wm@100)");
            }
            long ts = Long.parseLong(body.substring(at + 1));
            String head = body.substring(0, at);
            if (head.equals("wm")) {
                tokens.add(new WindowCase.Watermark(side, ts));
            } else {
                if (!Character.isLowerCase(head.charAt(0)) || head.length() < 2) {
                    throw new IllegalArgumentException(source + ": bad element '" + token + "'");
                }
                tokens.add(new WindowCase.Element(side, head.substring(0, 1), Long.parseLong(head.substring(1)), ts));
            }
        }
        return tokens;
    }
}
