package io.cepheus.rules.conformance;

import io.cepheus.nfa.conformance.CaseParser;
import io.cepheus.nfa.conformance.CaseSyntaxException;
import io.cepheus.nfa.conformance.InputToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One case of a rule conformance file (the CEP case format with the pattern given as one {@code rule:} line of JSON):
 * its name, the rule, the input and the end watermark.
 *
 * @param name         the case name
 * @param rule         the rule document
 * @param input        events and watermarks in input order
 * @param endWatermark the watermark after the last token; empty for {@code end-watermark: none}
 */
public record RuleCase(String name, String rule, List<InputToken> input, OptionalLong endWatermark) {

    /**
     * Reads a {@code .case} file of rule cases. Lines are {@code key: value}; a {@code case:} line starts a case;
     * a line starting with whitespace continues the previous key; {@code #} starts a comment except on a
     * {@code rule:} line (JSON strings may hold one); keys other than {@code case}, {@code rule}, {@code events} and
     * {@code end-watermark} are ignored.
     *
     * @param file the file
     * @return its cases in file order
     * @throws CaseSyntaxException if a case lacks its rule or events, or a value is malformed
     */
    public static List<RuleCase> read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        List<Map<String, String>> raw = new ArrayList<>();
        Map<String, String> current = null;
        String lastKey = null;
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            boolean ruleLine = line.startsWith("rule:");
            if (!ruleLine && line.indexOf('#') >= 0) {
                line = line.substring(0, line.indexOf('#'));
            }
            if (line.isBlank()) {
                continue;
            }
            if (Character.isWhitespace(line.charAt(0))) {
                if (current == null || lastKey == null) {
                    throw new CaseSyntaxException(file.getFileName() + ":" + (i + 1) + ": continuation with no key");
                }
                current.merge(lastKey, line.trim(), (a, b) -> a + " " + b);
                continue;
            }
            int colon = line.indexOf(':');
            if (colon < 0) {
                throw new CaseSyntaxException(file.getFileName() + ":" + (i + 1) + ": expected 'key: value'");
            }
            String key = line.substring(0, colon).trim();
            String value = line.substring(colon + 1).trim();
            if (key.equals("case")) {
                current = new LinkedHashMap<>();
                raw.add(current);
            } else if (current == null) {
                throw new CaseSyntaxException(file.getFileName() + ":" + (i + 1) + ": '" + key
                        + ":' before the first 'case:'");
            }
            current.merge(key, value, (a, b) -> a + " " + b);
            lastKey = key;
        }
        List<RuleCase> out = new ArrayList<>();
        for (Map<String, String> c : raw) {
            String name = c.get("case");
            if (c.get("rule") == null || c.get("events") == null) {
                throw new CaseSyntaxException(file.getFileName() + " (case " + name + "): needs 'rule:' and 'events:'");
            }
            String end = c.getOrDefault("end-watermark", "max");
            OptionalLong endWatermark = switch (end) {
                case "max" -> OptionalLong.of(Long.MAX_VALUE);
                case "none" -> OptionalLong.empty();
                default -> OptionalLong.of(Long.parseLong(end));
            };
            out.add(new RuleCase(name, c.get("rule"), CaseParser.parseEvents(c.get("events")), endWatermark));
        }
        return out;
    }
}
