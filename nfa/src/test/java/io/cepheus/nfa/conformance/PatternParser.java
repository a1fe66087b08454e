package io.cepheus.nfa.conformance;

import io.cepheus.nfa.conformance.PatternSpec.Clause;
import io.cepheus.nfa.conformance.PatternSpec.ClauseKind;
import io.cepheus.nfa.conformance.PatternSpec.Stage;
import io.cepheus.nfa.conformance.PatternSpec.StageOp;
import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Condition;
import io.cepheus.pattern.Pattern;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;

/**
 * Parses the pattern language of FORMAT.md:
 * <pre>
 * pattern := stage (';' stage)*
 * stage   := OP NAME clause*
 * clause  := where COND | or COND | until COND | times N | times N..M | timesOrMore N | oneOrMore
 *          | optional | greedy | consecutive | allowCombinations | within N | withinPrev N
 * </pre>
 * A condition runs until the next clause keyword or the end of the stage.
 */
public final class PatternParser {

    private static final java.util.regex.Pattern NUMBER = java.util.regex.Pattern.compile("[+-]?\\d+");
    private static final java.util.regex.Pattern RANGE =
            java.util.regex.Pattern.compile("([+-]?\\d+)\\.\\.([+-]?\\d+)");

    private PatternParser() {
    }

    /**
     * Parses and builds in one go, for callers that need not tell syntax errors from rejected patterns.
     *
     * @param text         the pattern text
     * @param withinMillis the header window, if any
     * @param skip         the {@code skip:} text
     * @return the pattern
     * @throws CaseSyntaxException if the text is not in the language
     * @throws RuntimeException    whatever the builder throws for a pattern it rejects
     */
    public static Pattern<Ev> toPattern(String text, OptionalLong withinMillis, String skip) {
        return parse(text).build(withinMillis, parseSkip(skip));
    }

    /**
     * @param text the pattern text, e.g. {@code begin a where type=A ; next b where type=B}
     * @return the parsed stages; no builder call has been made yet
     * @throws CaseSyntaxException if the text is not in the language
     */
    public static PatternSpec parse(String text) {
        String[] stageTexts = text.split(";", -1);
        List<Stage> stages = new ArrayList<>(stageTexts.length);
        for (int i = 0; i < stageTexts.length; i++) {
            stages.add(parseStage(stageTexts[i].trim(), i == 0, text));
        }
        return new PatternSpec(stages);
    }

    /**
     * @param text {@code noSkip | skipToNext | skipPastLastEvent | skipToFirst S | skipToLast S}
     * @return the strategy (the default one: no exception when S is absent from a match)
     * @throws CaseSyntaxException on anything else
     */
    public static AfterMatchSkipStrategy parseSkip(String text) {
        String[] w = text.trim().split("\\s+");
        String kind = w[0];
        boolean named = kind.equals("skipToFirst") || kind.equals("skipToLast");
        if (w.length != (named ? 2 : 1)) {
            throw new CaseSyntaxException("skip '" + text + "': " + kind
                    + (named ? " takes one stage name" : " takes no argument"));
        }
        return switch (kind) {
            case "noSkip" -> AfterMatchSkipStrategy.noSkip();
            case "skipToNext" -> AfterMatchSkipStrategy.skipToNext();
            case "skipPastLastEvent" -> AfterMatchSkipStrategy.skipPastLastEvent();
            case "skipToFirst" -> AfterMatchSkipStrategy.skipToFirst(w[1]);
            case "skipToLast" -> AfterMatchSkipStrategy.skipToLast(w[1]);
            default -> throw new CaseSyntaxException("unknown skip strategy '" + kind + "'");
        };
    }

    private static Stage parseStage(String stageText, boolean first, String whole) {
        String[] words = stageText.isEmpty() ? new String[0] : stageText.split("\\s+");
        String where = "pattern '" + whole + "', stage '" + stageText + "'";
        if (words.length < 2) {
            throw new CaseSyntaxException(where + ": a stage is OP NAME clause*");
        }
        StageOp op = StageOp.ofKeyword(words[0]);
        if (op == null) {
            throw new CaseSyntaxException(where + ": unknown stage operator '" + words[0] + "'");
        }
        if (first != (op == StageOp.BEGIN)) {
            throw new CaseSyntaxException(where + ": 'begin' starts the pattern and only there");
        }
        String name = words[1];
        if (ClauseKind.ofKeyword(name) != null) {
            throw new CaseSyntaxException(where + ": missing stage name before '" + name + "'");
        }
        List<Clause> clauses = new ArrayList<>();
        int i = 2;
        while (i < words.length) {
            ClauseKind kind = ClauseKind.ofKeyword(words[i]);
            if (kind == null) {
                throw new CaseSyntaxException(where + ": expected a clause, got '" + words[i] + "'");
            }
            i++;
            if (kind.takesCondition()) {
                int end = i;
                while (end < words.length && ClauseKind.ofKeyword(words[end]) == null) {
                    end++;
                }
                if (end == i) {
                    throw new CaseSyntaxException(where + ": '" + kind.keyword() + "' without a condition");
                }
                Condition<Ev> c = ConditionParser.parse(String.join(" ", Arrays.copyOfRange(words, i, end)));
                clauses.add(new Clause(kind, 0, 0, c));
                i = end;
            } else if (kind == ClauseKind.TIMES) {
                String arg = argument(words, i, kind, where);
                Matcher range = RANGE.matcher(arg);
                if (range.matches()) {
                    clauses.add(new Clause(kind, parseNumber(range.group(1), where),
                            parseNumber(range.group(2), where), null));
                } else {
                    long n = number(arg, kind, where);
                    clauses.add(new Clause(kind, n, n, null));
                }
                i++;
            } else if (kind == ClauseKind.TIMES_OR_MORE || kind == ClauseKind.WITHIN
                    || kind == ClauseKind.WITHIN_PREV) {
                long n = number(argument(words, i, kind, where), kind, where);
                clauses.add(new Clause(kind, n, n, null));
                i++;
            } else {
                clauses.add(new Clause(kind, 0, 0, null));
            }
        }
        return new Stage(op, name, clauses);
    }

    private static String argument(String[] words, int i, ClauseKind kind, String where) {
        if (i >= words.length) {
            throw new CaseSyntaxException(where + ": '" + kind.keyword() + "' needs a number");
        }
        return words[i];
    }

    private static long number(String word, ClauseKind kind, String where) {
        if (!NUMBER.matcher(word).matches()) {
            throw new CaseSyntaxException(where + ": '" + kind.keyword() + "' needs a number, got '" + word + "'");
        }
        return parseNumber(word, where);
    }

    private static long parseNumber(String digits, String where) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new CaseSyntaxException(where + ": number out of range: " + digits, e);
        }
    }
}
