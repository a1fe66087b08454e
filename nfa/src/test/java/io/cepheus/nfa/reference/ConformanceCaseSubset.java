package io.cepheus.nfa.reference;

import io.cepheus.pattern.Contiguity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the conformance cases (see {@code conformance/FORMAT.md}) that fall inside the random-pattern
 * subset, so the reference matcher can be checked against what Flink actually emitted. Anything outside the
 * subset (watermark tokens, skip strategies, NOT stages, greedy, until, other condition atoms, several cases
 * in one file) is rejected with an exception rather than approximated.
 */
final class ConformanceCaseSubset {

    /**
     * One case of the subset.
     *
     * @param name    the case name
     * @param spec    its pattern
     * @param events  its events, indexed from 0
     * @param matches the {@code MATCH} lines of the expected file, without the {@code MATCH } prefix
     */
    record Case(String name, RandomPatternSpec spec, List<RefEvent> events, List<String> matches) {
    }

    private ConformanceCaseSubset() {
    }

    /**
     * @param caseFile the {@code NN-name.case} file; the {@code .expected} file must sit beside it
     * @return the parsed case
     */
    static Case read(Path caseFile) {
        Map<String, String> keys = readKeys(caseFile);
        for (String key : keys.keySet()) {
            if (!List.of("case", "note", "pattern", "events", "within", "skip").contains(key)) {
                throw new IllegalArgumentException(caseFile + ": key '" + key + "' is outside the subset");
            }
        }
        if (keys.containsKey("skip") && !keys.get("skip").equals("noSkip")) {
            throw new IllegalArgumentException(caseFile + ": only noSkip is in the subset");
        }
        long window = keys.containsKey("within") ? Long.parseLong(keys.get("within")) : 0;
        RandomPatternSpec spec = parsePattern(keys.get("pattern"), window);
        String expectedName = caseFile.getFileName().toString().replaceFirst("\\.case$", ".expected");
        List<String> matches = new ArrayList<>();
        for (String line : lines(caseFile.resolveSibling(expectedName))) {
            if (line.startsWith("MATCH ")) {
                matches.add(line.substring("MATCH ".length()).trim());
            }
        }
        return new Case(keys.get("case"), spec, parseEvents(keys.get("events")), matches);
    }

    /**
     * @param text events in the conformance syntax, e.g. {@code A1@1 B2@2}
     * @return the events, indexed from 0
     */
    static List<RefEvent> parseEvents(String text) {
        List<RefEvent> out = new ArrayList<>();
        for (String token : text.trim().split("[\\s,]+")) {
            if (token.isEmpty()) {
                continue;
            }
            int at = token.indexOf('@');
            if (token.startsWith("wm") || at < 2) {
                throw new IllegalArgumentException("event token '" + token + "' is outside the subset");
            }
            out.add(new RefEvent(token.charAt(0), Integer.parseInt(token.substring(1, at)),
                    Long.parseLong(token.substring(at + 1)), out.size()));
        }
        return out;
    }

    /**
     * Renders a match the way the expected files do: {@code {a=[A1@1,A2@2], b=[B3@3]}}.
     *
     * @param match stage name to events, in pattern order
     * @return the text
     */
    static String render(Map<String, List<RefEvent>> match) {
        List<String> parts = new ArrayList<>();
        match.forEach((stage, events) -> {
            List<String> names = new ArrayList<>();
            events.forEach(e -> names.add(e.toString()));
            parts.add(stage + "=[" + String.join(",", names) + "]");
        });
        return "{" + String.join(", ", parts) + "}";
    }

    /**
     * @param text         a pattern in the conformance syntax, within the subset
     * @param windowMillis the window, 0 for none
     * @return the pattern
     */
    static RandomPatternSpec parsePattern(String text, long windowMillis) {
        List<StageSpec> stages = new ArrayList<>();
        for (String stageText : text.split(";")) {
            stages.add(parseStage(stageText.trim().split("\\s+")));
        }
        return new RandomPatternSpec(stages, windowMillis);
    }

    private static StageSpec parseStage(String[] words) {
        Contiguity contiguity = switch (words[0]) {
            case "begin", "followedBy" -> Contiguity.RELAXED;
            case "next" -> Contiguity.STRICT;
            case "followedByAny" -> Contiguity.NON_DETERMINISTIC_RELAXED;
            default -> throw new IllegalArgumentException("stage operator '" + words[0] + "' is outside the subset");
        };
        String name = words[1];
        StageCondition condition = StageCondition.any();
        String kind = "single";
        int from = 1;
        int to = 1;
        boolean optional = false;
        Contiguity inner = Contiguity.RELAXED;
        int i = 2;
        while (i < words.length) {
            String w = words[i++];
            switch (w) {
                case "where" -> {
                    StringBuilder cond = new StringBuilder();
                    while (i < words.length && !isClauseKeyword(words[i])) {
                        cond.append(words[i++]).append(' ');
                    }
                    condition = parseCondition(cond.toString().trim());
                }
                case "times" -> {
                    String[] range = words[i++].split("\\.\\.");
                    kind = "times";
                    from = Integer.parseInt(range[0]);
                    to = Integer.parseInt(range[range.length - 1]);
                    if (from == 0) { // "times 0..n" is an optional times 1..n
                        optional = true;
                        from = 1;
                    }
                }
                case "timesOrMore" -> {
                    kind = "loop";
                    from = Integer.parseInt(words[i++]);
                }
                case "oneOrMore" -> {
                    kind = "loop";
                    from = 1;
                }
                case "optional" -> optional = true;
                case "consecutive" -> inner = Contiguity.STRICT;
                case "allowCombinations" -> inner = Contiguity.NON_DETERMINISTIC_RELAXED;
                default -> throw new IllegalArgumentException("clause '" + w + "' is outside the subset");
            }
        }
        QuantifierSpec q = switch (kind) {
            case "times" -> QuantifierSpec.times(from, to, optional, inner);
            case "loop" -> QuantifierSpec.looping(from, optional, inner);
            default -> QuantifierSpec.single(optional);
        };
        return new StageSpec(name, contiguity, condition, q);
    }

    private static boolean isClauseKeyword(String word) {
        return List.of("where", "or", "until", "times", "timesOrMore", "oneOrMore", "optional", "greedy",
                "consecutive", "allowCombinations", "within", "withinPrev").contains(word);
    }

    /** Conjunctions of {@code true}, {@code type=X}, {@code type in XY}, {@code value>N}, {@code gt-last(S)}. */
    private static StageCondition parseCondition(String text) {
        StageCondition c = StageCondition.any();
        for (String atom : text.split("&")) {
            String a = atom.trim();
            if (a.equals("true")) {
                continue;
            } else if (a.startsWith("type=")) {
                c = new StageCondition(a.substring(5), c.valueAbove(), c.greaterThanLastOf());
            } else if (a.startsWith("type in ")) {
                c = new StageCondition(a.substring(8).trim(), c.valueAbove(), c.greaterThanLastOf());
            } else if (a.startsWith("value>") && !a.startsWith("value>=")) {
                c = c.andValueAbove(Integer.parseInt(a.substring(6)));
            } else if (a.startsWith("gt-last(") && a.endsWith(")")) {
                c = c.andGreaterThanLastOf(a.substring(8, a.length() - 1));
            } else {
                throw new IllegalArgumentException("condition '" + a + "' is outside the subset");
            }
        }
        return c;
    }

    /** Key/value lines: comments stripped, continuation lines joined, exactly one case per file. */
    private static Map<String, String> readKeys(Path file) {
        Map<String, String> keys = new LinkedHashMap<>();
        String last = null;
        for (String raw : lines(file)) {
            int hash = raw.indexOf('#');
            String line = hash >= 0 ? raw.substring(0, hash) : raw;
            if (line.isBlank()) {
                continue;
            }
            if (Character.isWhitespace(line.charAt(0)) && last != null) {
                keys.put(last, keys.get(last) + " " + line.trim());
                continue;
            }
            int colon = line.indexOf(':');
            last = line.substring(0, colon).trim();
            if (last.equals("case") && keys.containsKey("case")) {
                throw new IllegalArgumentException(file + " holds several cases; only single-case files are read");
            }
            keys.merge(last, line.substring(colon + 1).trim(), (a, b) -> a + " " + b);
        }
        return keys;
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
