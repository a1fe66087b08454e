package io.cepheus.rules;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.ConditionException;
import io.cepheus.nfa.CompiledPattern;
import io.cepheus.nfa.MatchSink;
import io.cepheus.nfa.NfaCompiler;
import io.cepheus.nfa.NfaMatcher;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.nfa.NfaState;
import io.cepheus.nfa.conformance.Ev;
import io.cepheus.pattern.Pattern;
import io.cepheus.rules.conformance.RuleCase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzzes the rule reader, the expression parser and compiler: mutations of every valid rule of the rule conformance
 * suite (bytes cut, duplicated, swapped or inserted; JSON tokens and expression fragments spliced in; numbers made
 * huge, negative or fractional; brackets nested thousands deep) and random bytes must be read, compiled (for the
 * cases' records and for maps) and run, or refused with a {@link RuleFormatException}; never another exception, a
 * hang or a stack overflow. What compiles runs through the NFA on random events, where the only failure allowed is a
 * condition's ({@link ExpressionException} for a value the expression cannot compute).
 *
 * <p>{@code -Dcepheus.rules.fuzz.cases=N} (default 6,000 mutations and 1,500 random documents) and
 * {@code -Dcepheus.seed=S}; a failure names the seed and the document.
 */
class RuleFuzzTest {

    private static final int CASES = Integer.getInteger("cepheus.rules.fuzz.cases", 6_000);
    private static final long SEED = Long.getLong("cepheus.seed", 20261202L);

    private static final String[] JSON_TOKENS = {"{", "}", "[", "]", "\"", ":", ",", "null", "true", "-1", "0",
            "2147483648", "1e999", "-0.5", "\"x\"", "\"COMPOSITE\"", "\"ATOMIC\"", "\"LOOPING\"", "\"TIMES\"",
            "\"OPTIONAL\"", "\"GREEDY\"", "\"NOT_NEXT\"", "\"NOT_FOLLOW\"", "\"SKIP_TILL_ANY\"", "\"STRICT\"",
            "\"nodes\":[]", "\"edges\":[]", "\"metadata\":{}", "\\u0000", "\uD800", "\"$end$\"", "{\"type\":\"CLASS\"}",
            "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["};
    private static final String[] EXPRESSION_TOKENS = {"(", ")", "&&", "||", "!", "not ", " in ", "('A','B')", "==",
            "!=", "<", ">=", "+", "-", "*", "/", "%", "value", "type", "ts", "token", "missing", "a.b", "'A'", "\"B\"",
            "1", "0", "-1", "9223372036854775807", "1.5", "null", "nil", "true", "count(a)", "sum(a.value)",
            "last(b.value)", "min(x.type)", "avg(a.token)", "first(c.ts)", "=~", "?", "'", "\\", "((((((((((((((((",
            "1/0", "value % 0"};

    @Test
    @Timeout(value = 10, unit = java.util.concurrent.TimeUnit.MINUTES)
    void mutatedRulesAreReadOrRefusedClearly() throws IOException {
        List<String> valid = validRules();
        Random random = new Random(SEED);
        int read = 0;
        int compiled = 0;
        int refused = 0;
        for (int i = 0; i < CASES; i++) {
            String document = mutate(valid.get(random.nextInt(valid.size())), random);
            Outcome o = attempt(document, random, "mutation " + i);
            read += o.read ? 1 : 0;
            compiled += o.compiled ? 1 : 0;
            refused += o.read && o.compiled ? 0 : 1;
        }
        System.out.printf("rule fuzz (seed %d): %d mutations, %d read, %d compiled and run, %d refused%n", SEED, CASES,
                read, compiled, refused);
        assertTrue(compiled > CASES / 20, "the mutations should still compile sometimes: " + compiled);
        assertTrue(refused > CASES / 4, "the mutations should be refused often: " + refused);
    }

    @Test
    @Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
    void randomBytesAreRefusedClearly(@TempDir Path dir) throws IOException {
        Random random = new Random(SEED + 1);
        Path file = dir.resolve("random.json");
        for (int i = 0; i < CASES / 4; i++) {
            byte[] bytes = new byte[random.nextInt(300)];
            random.nextBytes(bytes);
            if (random.nextBoolean()) {
                for (int b = 0; b < bytes.length; b++) { // mostly JSON punctuation: deeper into the reader
                    bytes[b] = (byte) "{}[]\":,0123456789 ntrufalse\\".charAt(Math.floorMod(bytes[b], 28));
                }
            }
            Files.write(file, bytes);
            String label = "random bytes " + i + " " + java.util.HexFormat.of().formatHex(bytes);
            try {
                Rule rule = Rules.parse(file);
                compileAndRun(rule, random, label);
            } catch (RuleFormatException expected) {
                // refused clearly
            } catch (RuntimeException | StackOverflowError e) {
                throw new AssertionError("seed " + SEED + ", " + label + ": " + e, e);
            }
            attempt(new String(bytes, StandardCharsets.ISO_8859_1), random, label);
        }
    }

    private record Outcome(boolean read, boolean compiled) {
    }

    private static Outcome attempt(String document, Random random, String label) {
        Rule rule;
        try {
            rule = Rules.parse(document);
        } catch (RuleFormatException expected) {
            assertTrue(expected.getMessage() != null && !expected.getMessage().isBlank());
            return new Outcome(false, false);
        } catch (RuntimeException | StackOverflowError e) {
            throw new AssertionError("seed " + SEED + ", " + label + ": reading threw " + e + "\n" + document, e);
        }
        try {
            return new Outcome(true, compileAndRun(rule, random, label));
        } catch (RuntimeException | StackOverflowError e) {
            throw new AssertionError("seed " + SEED + ", " + label + ": compiling or running threw " + e + "\n"
                    + document, e);
        }
    }

    /** @return whether the rule compiled for both event kinds; a RuleFormatException is a refusal, anything else fails */
    private static boolean compileAndRun(Rule rule, Random random, String label) {
        Pattern<Ev> forRecords;
        Pattern<Map<String, Object>> forMaps;
        try {
            forRecords = rule.compile(Ev.class);
            forMaps = rule.compileForMaps();
        } catch (RuleFormatException expected) {
            return false;
        }
        assertTrue(Rules.parse(rule.toJson()).equals(rule), label + ": toJson and parse give another rule");
        CompiledPattern<Ev> nfa = NfaCompiler.compile(forRecords); // the rule compiler checked what the NFA checks
        NfaCompiler.compile(forMaps);
        NfaMatcher<Ev> matcher = nfa.newMatcher(NfaOptions.defaults().withMaxPartialMatchesPerKey(10_000)
                .withProcessingTime(() -> 0L));
        NfaState state = matcher.newState("k");
        MatchSink<Ev> sink = new MatchSink<>() {
            @Override
            public void onMatch(io.cepheus.nfa.Match<Ev> match) {
            }

            @Override
            public void onTimeout(io.cepheus.nfa.Match<Ev> partialMatch, long timeoutTimestamp) {
            }
        };
        for (int i = 0; i < 12; i++) {
            Ev e = Ev.of("ABC".charAt(random.nextInt(3)), random.nextInt(5) - 1, i + 1);
            try {
                matcher.process(state, e, e.ts(), sink);
            } catch (ConditionException failed) {
                if (!(failed.getCause() instanceof ExpressionException)) {
                    throw failed;
                }
            } catch (io.cepheus.nfa.PartialMatchLimitException | io.cepheus.nfa.SkipStrategyException tooMany) {
                // bounded explosion, or a throwing skip strategy: the engine's to report, not the rule's
                return true;
            }
        }
        matcher.advanceTime(state, Long.MAX_VALUE, sink);
        return true;
    }

    private static List<String> validRules() throws IOException {
        Path dir = io.cepheus.nfa.conformance.ConformanceDirectory.locate(null, Path.of("").toAbsolutePath(), "rules")
                .requireExisting("cepheus.rules.conformance.dir");
        List<String> rules = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".case")).sorted().toList()) {
                for (RuleCase c : RuleCase.read(f)) {
                    rules.add(c.rule());
                }
            }
        }
        rules.add(RuleFormatTest.RULE);
        return rules;
    }

    private static String mutate(String rule, Random random) {
        String s = rule;
        int edits = 1 + random.nextInt(3);
        for (int e = 0; e < edits && !s.isEmpty(); e++) {
            int at = random.nextInt(s.length());
            int len = Math.min(s.length() - at, 1 + random.nextInt(12));
            // two in three edits keep the JSON well-formed, so that they reach the graph and expression checks
            int kind = random.nextInt(3) > 0 ? 3 + random.nextInt(5) : random.nextInt(9);
            if (kind == 8 && random.nextInt(3) > 0) {
                kind = 9 + random.nextInt(4);
            }
            switch (kind) {
                case 0 -> s = s.substring(0, at) + s.substring(at + len); // cut
                case 1 -> s = s.substring(0, at) + s.substring(at, at + len) + s.substring(at); // duplicate
                case 2 -> s = s.substring(0, at) + JSON_TOKENS[random.nextInt(JSON_TOKENS.length)] + s.substring(at);
                case 3 -> s = spliceIntoExpression(s, random);
                case 4 -> s = s.replaceFirst("\"(from|to|size|version)\":\\s*\\d+", "\"$1\":"
                        + new String[] {"-5", "0", "99999999999", "1.5", "\"2\"", "null", "2147483647"}[random.nextInt(7)]);
                case 5 -> { // swap two characters
                    int other = random.nextInt(s.length());
                    char[] chars = s.toCharArray();
                    char t = chars[at];
                    chars[at] = chars[other];
                    chars[other] = t;
                    s = new String(chars);
                }
                case 6 -> s = s.replaceFirst("\"(SINGLE|TIMES|LOOPING)\"", "\"" + new String[] {"SINGLE", "TIMES",
                        "LOOPING", "LOOPING\",\"GREEDY", "TIMES\",\"OPTIONAL", "SINGLE\",\"OPTIONAL"}[random.nextInt(6)]
                        + "\"");
                case 7 -> s = s.replaceFirst("\"type\":\"(STRICT|SKIP_TILL_NEXT|SKIP_TILL_ANY|NOT_NEXT|NOT_FOLLOW)\"",
                        "\"type\":\"" + new String[] {"STRICT", "SKIP_TILL_NEXT", "SKIP_TILL_ANY", "NOT_NEXT",
                                "NOT_FOLLOW"}[random.nextInt(5)] + "\"");
                case 9 -> s = s.replaceFirst("\"(source|target|patternName)\":\"[a-z]+\"", "\"$1\":\""
                        + new String[] {"a", "b", "c", "d", "x", "\\$end\\$"}[random.nextInt(6)] + "\"");
                case 10 -> s = s.replaceFirst("\"name\":\"[a-z]+\"", "\"name\":\""
                        + new String[] {"a", "b", "c", "d", "x"}[random.nextInt(5)] + "\"");
                case 11 -> s = s.replaceFirst("\"(type|unit)\":\"(FIRST_AND_LAST|PREVIOUS_AND_CURRENT|NO_SKIP|"
                        + "SKIP_TO_NEXT|SKIP_PAST_LAST_EVENT|SKIP_TO_FIRST|SKIP_TO_LAST|MILLISECONDS|SECONDS)\"",
                        "\"$1\":\"" + new String[] {"FIRST_AND_LAST", "PREVIOUS_AND_CURRENT", "NO_SKIP",
                                "SKIP_TO_FIRST", "SKIP_TO_LAST", "SKIP_PAST_LAST_EVENT", "DAYS",
                                "MILLISECONDS"}[random.nextInt(8)] + "\"");
                case 12 -> s = s.replaceFirst("\"condition\":\\{[^}]*\\}", "\"condition\":null");
                default -> s = s.substring(0, at) + "[".repeat(random.nextInt(5_000)) + s.substring(at);
            }
        }
        return s;
    }

    private static String spliceIntoExpression(String rule, Random random) {
        int key = rule.indexOf("\"expression\":\"", random.nextInt(Math.max(1, rule.length() / 2)));
        if (key < 0) {
            key = rule.indexOf("\"expression\":\"");
        }
        if (key < 0) {
            return rule;
        }
        int start = key + "\"expression\":\"".length();
        int end = rule.indexOf('"', start);
        if (end < 0) {
            return rule;
        }
        String expression = rule.substring(start, end);
        int at = expression.isEmpty() ? 0 : random.nextInt(expression.length() + 1);
        String token = EXPRESSION_TOKENS[random.nextInt(EXPRESSION_TOKENS.length)].replace("\\", "\\\\")
                .replace("\"", "\\\"");
        String changed = random.nextBoolean() ? expression.substring(0, at) + token + expression.substring(at)
                : expression.substring(0, at) + token + expression.substring(Math.min(expression.length(),
                        at + random.nextInt(4)));
        return rule.substring(0, start) + changed + rule.substring(end);
    }
}
