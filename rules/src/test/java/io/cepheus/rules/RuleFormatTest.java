package io.cepheus.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Condition;
import io.cepheus.pattern.MalformedPatternException;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.Quantifier;
import io.cepheus.pattern.WithinType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rule format: what a rule file holds and how it becomes a pattern, and every way it can be wrong, each
 * reported with the rule's id, the JSON path and the line and column.
 */
class RuleFormatTest {

    record Login(String user, boolean ok, int attempt, long time) {
    }

    static final String STAGE = """
            {"name": "%s", "type": "ATOMIC",
             "quantifier": {"consumingStrategy": "SKIP_TILL_NEXT", "properties": ["SINGLE"], "times": null,
                            "untilCondition": null},
             "condition": {"type": "EXPRESSION", "expression": "%s"}}""";

    /** A valid rule: three failed logins in a row, then a success, within ten minutes. */
    static final String RULE = """
            {
              "id": "brute-force",
              "version": 3,
              "description": "3 failed logins, then one that works",
              "metadata": {"owner": "fraud-team", "tags": ["login"]},
              "pattern": {
                "name": "success", "type": "COMPOSITE",
                "quantifier": {"consumingStrategy": "SKIP_TILL_NEXT", "properties": ["SINGLE"], "times": null,
                               "untilCondition": null},
                "condition": null,
                "nodes": [
                  {"name": "fail", "type": "ATOMIC",
                   "quantifier": {"consumingStrategy": "STRICT", "properties": ["TIMES"],
                                  "times": {"from": 3, "to": 3, "windowTime": null}, "untilCondition": null},
                   "condition": {"type": "EXPRESSION", "expression": "!ok"}},
                  {"name": "success", "type": "ATOMIC",
                   "quantifier": {"consumingStrategy": "SKIP_TILL_NEXT", "properties": ["SINGLE"], "times": null,
                                  "untilCondition": null},
                   "condition": {"type": "EXPRESSION", "expression": "ok && attempt > last(fail.attempt)"}}
                ],
                "edges": [{"source": "fail", "target": "success", "type": "SKIP_TILL_NEXT"}],
                "window": {"type": "FIRST_AND_LAST", "time": {"unit": "MINUTES", "size": 10}},
                "afterMatchStrategy": {"type": "SKIP_PAST_LAST_EVENT", "patternName": null},
                "version": 1
              }
            }
            """;

    @Test
    void aRuleBecomesThePatternItDescribes() {
        Rule rule = Rules.parse(RULE);
        assertEquals("brute-force", rule.id());
        assertEquals(3, rule.version());
        assertEquals("3 failed logins, then one that works", rule.description());
        assertEquals("{\"owner\":\"fraud-team\",\"tags\":[\"login\"]}", rule.metadata());
        Pattern<Login> p = rule.compile(Login.class);
        List<Pattern<Login>> stages = p.stages();
        assertEquals(List.of("fail", "success"), stages.stream().map(Pattern::name).toList());
        assertEquals(new Quantifier(Quantifier.Kind.TIMES, 3, 3, false, false, io.cepheus.pattern.Contiguity.STRICT),
                stages.get(0).quantifier());
        assertEquals(io.cepheus.pattern.Contiguity.RELAXED, stages.get(1).contiguity());
        assertEquals(Duration.ofMinutes(10), p.window(WithinType.FIRST_AND_LAST).orElseThrow());
        assertEquals(AfterMatchSkipStrategy.skipPastLastEvent(), p.skipStrategy());
        assertTrue(stages.get(1).condition().isIterative(), "an aggregate makes an iterative condition");
        assertTrue(!stages.get(0).condition().isIterative());
    }

    @Test
    void aBareGraphFileIsARuleNamedAfterItsFile(@TempDir Path dir) throws IOException {
        String graph = RULE.substring(RULE.indexOf("\"pattern\": ") + "\"pattern\": ".length(), RULE.lastIndexOf('}'));
        Path file = dir.resolve("login-burst.json");
        Files.writeString(file, graph);
        Rule rule = Rules.parse(file);
        assertEquals("login-burst", rule.id());
        assertEquals(1, rule.version());
        assertNull(rule.description());
        assertEquals(file.toString(), rule.source());
        assertEquals("success", Rules.parse(graph).id(), "from a string: the graph's name");
    }

    @Test
    void missingOptionalPartsTakeTheirDefaults() {
        Rule rule = Rules.parse("""
                {"id": "r", "version": 1, "pattern": {"type": "COMPOSITE", "nodes": [
                  {"name": "a", "type": "ATOMIC"}]}}""");
        Pattern<Login> p = rule.compile(Login.class);
        assertEquals("a", p.name());
        assertNull(p.condition(), "no condition: every event");
        assertEquals(Quantifier.Kind.SINGLE, p.quantifier().kind());
        assertEquals(AfterMatchSkipStrategy.noSkip(), p.skipStrategy());
    }

    @Test
    void conditionsAreExpressionsAviatorRegisteredNamesAndTheirCombinations() {
        Condition<Login> vip = (Condition<Login>) (io.cepheus.pattern.SimpleCondition<Login>) l -> l.user().equals("vip");
        NamedConditions<Login> named = NamedConditions.<Login>builder()
                .condition("com.acme.Vip", vip)
                .conditionFactory("com.acme.UserIn", args -> (io.cepheus.pattern.SimpleCondition<Login>) l ->
                        args.contains(l.user()))
                .subtype("login", Login.class)
                .build();
        String condition = """
                {"type": "CLASS", "className": "org.apache.flink.cep.pattern.conditions.RichAndCondition",
                 "nestedConditions": [
                   {"type": "AVIATOR", "expression": "attempt > 1"},
                   {"type": "CLASS", "className": "org.apache.flink.cep.pattern.conditions.RichOrCondition",
                    "nestedConditions": [
                      {"type": "CLASS", "className": "com.acme.Vip"},
                      {"type": "CLASS", "className": "com.acme.UserIn", "args": ["ann", "bob"]},
                      {"type": "CUSTOM_ARGS", "className": "com.acme.UserIn", "args": "cy"}]},
                   {"type": "CLASS", "className": "org.apache.flink.cep.pattern.conditions.RichNotCondition",
                    "nestedConditions": [{"type": "EXPRESSION", "expression": "ok"}]},
                   {"type": "CLASS", "className": "org.apache.flink.cep.pattern.conditions.SubtypeCondition",
                    "subClassName": "login"}]}""";
        Pattern<Login> p = Rules.parse(oneStage(condition)).compile(Login.class, named);
        Condition<Login> c = p.condition();
        assertTrue(c.test(new Login("bob", false, 2, 0), null));
        assertTrue(c.test(new Login("cy", false, 2, 0), null));
        assertTrue(c.test(new Login("vip", false, 2, 0), null));
        assertTrue(!c.test(new Login("dan", false, 2, 0), null), "no name matches");
        assertTrue(!c.test(new Login("bob", true, 2, 0), null), "not ok");
        assertTrue(!c.test(new Login("bob", false, 1, 0), null), "attempt > 1");
    }

    @Test
    void aGroupIsACompositeNodeWithItsOwnQuantifier() {
        String rule = """
                {"id": "g", "version": 1, "pattern": {"name": "z", "type": "COMPOSITE", "nodes": [
                  {"name": "a", "type": "ATOMIC", "condition": {"type": "EXPRESSION", "expression": "!ok"}},
                  {"name": "b2", "type": "COMPOSITE",
                   "quantifier": {"consumingStrategy": "SKIP_TILL_NEXT", "properties": ["TIMES"],
                                  "times": {"from": 2, "to": 2, "windowTime": null}, "untilCondition": null},
                   "nodes": [
                     {"name": "b1", "type": "ATOMIC", "condition": {"type": "EXPRESSION", "expression": "!ok"}},
                     {"name": "b2", "type": "ATOMIC", "condition": {"type": "EXPRESSION", "expression": "ok"}}],
                   "edges": [{"source": "b1", "target": "b2", "type": "STRICT"}],
                   "afterMatchStrategy": {"type": "NO_SKIP", "patternName": null}},
                  {"name": "z", "type": "ATOMIC"}],
                 "edges": [{"source": "a", "target": "b2", "type": "SKIP_TILL_NEXT"},
                           {"source": "b2", "target": "z", "type": "STRICT"}]}}""";
        Pattern<Login> p = Rules.parse(rule).compile(Login.class);
        Pattern<Login> group = p.stages().get(1);
        assertTrue(group.isGroup());
        assertEquals(2, group.quantifier().from());
        assertEquals(List.of("b1", "b2"), group.group().stages().stream().map(Pattern::name).toList());
        assertEquals(io.cepheus.pattern.Contiguity.STRICT, group.group().contiguity());
    }

    // ------------------------------------------------------------------ errors

    @Test
    void syntaxErrorsNameTheLineColumnAndWhereInTheDocument() {
        RuleFormatException e = refused("{\"id\": \"x\", \"version\": 1,\n \"pattern\": {\"type\": \"COMPOSITE\",\n"
                + "  \"nodes\": [ {\"name\": \"a\" \"type\": \"ATOMIC\"} ]}}");
        assertEquals("x", e.ruleId());
        assertEquals(3, e.line());
        assertEquals(27, e.column());
        assertEquals("pattern.nodes[0].name", e.path());
        assertTrue(e.problem().startsWith("not well-formed JSON"), e.problem());
        assertEquals(1, refused("").line());
        assertTrue(refused("{} {}").problem().contains("after the end of the document"));
        assertTrue(refused("[1, 2]").problem().contains("a rule is a JSON object, not an array"));
        assertTrue(refused("{\"id\": \"a\", \"id\": \"b\"}").problem().contains("Duplicate"));
        assertTrue(refused("[".repeat(100_000)).problem().contains("nested more than 64 levels deep"));
    }

    @Test
    void everyFieldIsCheckedAndReportedAtItsPath() {
        assertRefused(RULE.replace("\"version\": 3", "\"version\": 0"), "version", "\"version\": 0", "'version' is 0, outside [1,");
        assertRefused(RULE.replace("\"version\": 3", "\"version\": \"3\""), "version", "\"version\": \"3\"",
                "'version' must be an integer but is a string");
        assertRefused(RULE.replace("\"id\": \"brute-force\",", ""), "id", "{", "missing 'id'");
        assertRefused(RULE.replace("\"description\"", "\"descripton\""), "descripton", "\"descripton\"",
                "unknown field 'descripton' in a rule");
        assertRefused(RULE.replace("\"from\": 3, \"to\": 3", "\"from\": -1, \"to\": 3"),
                "pattern.nodes[0].quantifier.times.from", "\"from\": -1", "'from' is -1, outside [0,");
        assertRefused(RULE.replace("\"properties\": [\"TIMES\"]", "\"properties\": [\"TIMES\", \"LOOPING\"]"),
                "pattern.nodes[0].quantifier.properties", "\"TIMES\", \"LOOPING\"", "exactly one of SINGLE, TIMES and LOOPING");
        assertRefused(RULE.replace("\"properties\": [\"TIMES\"]", "\"properties\": [\"times\"]"),
                "pattern.nodes[0].quantifier.properties[0]", "[\"times\"]", "unknown property 'times'", "upper case: TIMES");
        assertRefused(RULE.replace("\"type\": \"SKIP_TILL_NEXT\"}]", "\"type\": \"FOLLOWED_BY\"}]"),
                "pattern.edges[0].type", "FOLLOWED_BY", "unknown type 'FOLLOWED_BY'");
        assertRefused(RULE.replace("\"unit\": \"MINUTES\"", "\"unit\": \"WEEKS\""), "pattern.window.time.unit", "WEEKS",
                "unknown unit 'WEEKS'; known: DAYS, HOURS, MINUTES, SECONDS, MILLISECONDS");
        assertRefused(RULE.replace("\"patternName\": null}", "\"patternName\": \"fail\"}"),
                "pattern.afterMatchStrategy.patternName", "\"patternName\": \"fail\"", "SKIP_PAST_LAST_EVENT takes no patternName");
        assertRefused(RULE.replace("\"version\": 1\n", "\"version\": 2\n"), "pattern.version", "\"version\": 2",
                "format version 2 is not supported");
        assertRefused(RULE.replace("{\"type\": \"EXPRESSION\", \"expression\": \"!ok\"}",
                "{\"type\": \"GROOVY\", \"script\": \"!ok\"}"), "pattern.nodes[0].condition.type", "GROOVY",
                "a GROOVY condition is code, and a rule file never carries code");
        assertRefused(RULE.replace("{\"type\": \"EXPRESSION\", \"expression\": \"!ok\"}",
                "{\"type\": \"EXPRESSION\", \"expression\": \"!ok &&\"}"), "pattern.nodes[0].condition.expression", "!ok &&",
                "expected a value", "    !ok &&\n          ^");
        assertRefused(RULE.replace("\"times\": {\"from\": 3, \"to\": 3, \"windowTime\": null}", "\"times\": null"),
                "pattern.nodes[0].quantifier.times", "\"times\": null, \"untilCondition\": null},", "a TIMES stage needs times {from, to}");
        assertRefused(RULE.replace("\"properties\": [\"TIMES\"]", "\"properties\": [\"LOOPING\"]")
                .replace("\"from\": 3, \"to\": 3", "\"from\": 3, \"to\": 5"), "pattern.nodes[0].quantifier.times.to",
                "\"to\": 5", "'to' must equal 'from' (3), not 5");
        assertRefused(RULE.replace("\"metadata\": {\"owner\": \"fraud-team\", \"tags\": [\"login\"]},",
                "\"metadata\": {\"anything\": {\"goes\": [1, {\"here\": true}]}}, \"extra\": 1,"), "extra", "\"extra\"",
                "unknown field 'extra'");
    }

    @Test
    void theGraphMustChainEveryNodeOnce() {
        String three = """
                {"id": "c", "version": 1, "pattern": {"type": "COMPOSITE",
                 "nodes": [%s, %s, %s],
                 "edges": [%s]}}""";
        String a = STAGE.formatted("a", "ok");
        String b = STAGE.formatted("b", "ok");
        String c = STAGE.formatted("c", "ok");
        assertRefused(three.formatted(a, b, c, edge("a", "b") + "," + edge("b", "x")), "pattern.edges[1].target", "\"edges\"",
                "the edge ends at 'x', which is no node of this graph (nodes: a, b, c)");
        assertRefused(three.formatted(a, b, c, edge("a", "b")), "pattern.edges", "\"edges\"",
                "two begin nodes: a and c (no edge leads to them)");
        assertRefused(three.formatted(a, b, c, edge("a", "b") + "," + edge("b", "c") + "," + edge("c", "a")),
                "pattern.edges", "\"edges\"", "the edges form a cycle");
        assertRefused(three.formatted(a, b, c, edge("a", "b") + "," + edge("a", "c")), "pattern.edges[1].source", "\"edges\"",
                "two edges leave 'a'");
        assertRefused(three.formatted(a, b, c, edge("a", "c") + "," + edge("b", "c")), "pattern.edges[1].target", "\"edges\"",
                "two edges lead to 'c'");
        assertRefused(three.formatted(a, b, c, edge("a", "b") + "," + edge("b", "c") + "," + edge("c", "b")),
                "pattern.edges[2].target", "\"edges\"", "two edges lead to 'b'");
        assertRefused(three.formatted(a, a, c, edge("a", "c")), "pattern.nodes[1].name", "last:{\"name\": \"a\"",
                "Duplicate pattern name: a stage called 'a' appears twice");
        assertRefused(three.formatted(a, b, c, edge("a", "a")), "pattern.edges[0].target", "\"edges\"", "to itself");
    }

    @Test
    void whatTheBuilderRefusesIsRefusedInItsWordsAtThePathOfTheFailingCall() {
        String notAfterOptional = RULE.replace("\"properties\": [\"TIMES\"]", "\"properties\": [\"TIMES\", \"OPTIONAL\"]")
                .replace("\"type\": \"SKIP_TILL_NEXT\"}]", "\"type\": \"NOT_NEXT\"}]");
        RuleFormatException e = compileRefused(notAfterOptional);
        assertEquals("pattern.edges[0].type", e.path());
        assertTrue(e.getCause() instanceof MalformedPatternException);
        assertTrue(e.problem().contains("a NOT stage cannot follow the optional stage 'fail'"), e.problem());
        RuleFormatException until = compileRefused(RULE.replace("\"untilCondition\": null}",
                "\"untilCondition\": {\"type\": \"EXPRESSION\", \"expression\": \"ok\"}}"));
        assertEquals("pattern.nodes[0].quantifier.untilCondition", until.path());
        assertTrue(until.problem().contains("only applicable to looping states"), until.problem());
        RuleFormatException skip = compileRefused(RULE.replace(
                "{\"type\": \"SKIP_PAST_LAST_EVENT\", \"patternName\": null}",
                "{\"type\": \"SKIP_TO_FIRST\", \"patternName\": \"nope\"}"));
        assertEquals("pattern.afterMatchStrategy.patternName", skip.path());
        assertTrue(skip.problem().contains("can not be found in the given Pattern"), skip.problem());
        RuleFormatException trailingNot = compileRefused(RULE.replace("\"type\": \"SKIP_TILL_NEXT\"}]",
                "\"type\": \"NOT_FOLLOW\"}]").replace(
                "\"window\": {\"type\": \"FIRST_AND_LAST\", \"time\": {\"unit\": \"MINUTES\", \"size\": 10}},", ""));
        assertEquals("pattern.nodes[1]", trailingNot.path());
        assertTrue(trailingNot.problem().contains("NotFollowedBy is not supported without windowTime"));
        int lastSingle = RULE.lastIndexOf("[\"SINGLE\"]");
        RuleFormatException greedySingle = compileRefused(RULE.substring(0, lastSingle) + "[\"SINGLE\", \"GREEDY\"]"
                + RULE.substring(lastSingle + "[\"SINGLE\"]".length()));
        assertEquals("pattern.nodes[1].quantifier.properties", greedySingle.path());
    }

    @Test
    void compileErrorsNameTheFieldLineAndColumnAndShowTheExpression() {
        RuleFormatException e = compileRefused(RULE.replace("attempt > last(fail.attempt)",
                "atempt > last(fail.attempt)"));
        assertEquals("brute-force", e.ruleId());
        assertEquals("pattern.nodes[1].condition.expression", e.path());
        assertEquals(19, e.line());
        assertTrue(e.problem().contains("unknown field 'atempt' of Login (events of class Login); its fields: attempt,"
                + " ok, time, user") || e.problem().contains("unknown field 'atempt' of Login"), e.problem());
        assertTrue(e.problem().endsWith("    ok && atempt > last(fail.attempt)\n          ^"), e.problem());
        RuleFormatException later = compileRefused(RULE.replace("last(fail.attempt)", "last(success.attempt) +"
                + " count(nope)"));
        assertTrue(later.problem().contains("count(nope): 'nope' is not this stage or an earlier one"),
                later.problem());
        RuleFormatException unregistered = compileRefused(RULE.replace(
                "{\"type\": \"EXPRESSION\", \"expression\": \"!ok\"}", "{\"type\": \"CLASS\", \"className\":"
                        + " \"java.lang.Runtime\"}"));
        assertEquals("pattern.nodes[0].condition.className", unregistered.path());
        assertTrue(unregistered.problem().contains("no condition is registered under 'java.lang.Runtime'"));
    }

    /** {@code times.windowTime} is {@code times(from, to, window)}, written back as read; a single stage has no times. */
    @Test
    void aWindowBetweenTheEventsOfAQuantifiedStageIsTheStagesTimesWindow() {
        String withWindow = RULE.replace("\"windowTime\": null", "\"windowTime\": {\"unit\": \"SECONDS\", \"size\": 5}");
        Pattern<Login> p = Rules.parse(withWindow).compile(Login.class);
        assertEquals(java.util.Optional.of(java.time.Duration.ofSeconds(5)), p.stages().get(0).timesWindow());
        assertEquals(java.util.Optional.empty(), Rules.parse(RULE).compile(Login.class).stages().get(0).timesWindow());
        Pattern<Login> again = Rules.parse(Rules.toJson(p)).compile(Login.class);
        assertEquals(java.util.Optional.of(java.time.Duration.ofSeconds(5)), again.stages().get(0).timesWindow());

        RuleFormatException tooLong = compileRefused(RULE.replace("\"windowTime\": null",
                "\"windowTime\": {\"unit\": \"MINUTES\", \"size\": 11}"));
        assertTrue(tooLong.problem().contains("its window between events (660000 ms) is larger than the pattern's"
                + " FIRST_AND_LAST window (600000 ms)"), tooLong.problem());

        int successTimes = RULE.lastIndexOf("\"times\": null"); // the success stage's, a single event
        RuleFormatException single = assertThrows(RuleFormatException.class, () -> Rules.parse(
                RULE.substring(0, successTimes) + "\"times\": {\"from\": 1, \"to\": 1, \"windowTime\": {\"unit\":"
                        + " \"SECONDS\", \"size\": 5}}" + RULE.substring(successTimes + "\"times\": null".length())));
        assertEquals("pattern.nodes[1].quantifier.times", single.path());
        assertTrue(single.problem().contains("a SINGLE stage takes one event"), single.problem());
    }

    @Test
    void mapEventsCompileWithoutAClassAndReadMissingKeysAsNull() {
        Pattern<Map<String, Object>> p = Rules.parse(RULE).compileForMaps();
        Condition<Map<String, Object>> fail = p.stages().get(0).condition();
        assertTrue(fail.test(Map.of("ok", false), null));
        assertTrue(fail.test(Map.of(), null), "a missing key reads as null, false as a boolean, so !ok holds");
    }

    @Test
    void aFileThatIsNotUtf8IsARuleFormatError(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("bad.json");
        byte[] bytes = RULE.getBytes(StandardCharsets.UTF_8);
        bytes[40] = (byte) 0xff;
        Files.write(file, bytes);
        RuleFormatException e = assertThrows(RuleFormatException.class, () -> Rules.parse(file));
        assertTrue(e.problem().contains("not valid UTF-8"), e.problem());
    }

    // ------------------------------------------------------------------ helpers

    private static String edge(String from, String to) {
        return "{\"source\": \"" + from + "\", \"target\": \"" + to + "\", \"type\": \"SKIP_TILL_NEXT\"}";
    }

    private static String oneStage(String condition) {
        return "{\"id\": \"one\", \"version\": 1, \"pattern\": {\"type\": \"COMPOSITE\", \"nodes\": [{\"name\": \"a\","
                + " \"type\": \"ATOMIC\", \"condition\": " + condition + "}]}}";
    }

    private static RuleFormatException refused(String json) {
        return assertThrows(RuleFormatException.class, () -> Rules.parse(json));
    }

    private static RuleFormatException compileRefused(String json) {
        Rule rule = Rules.parse(json);
        return assertThrows(RuleFormatException.class, () -> rule.compile(Login.class));
    }

    /** @param lineOf text on the line the error must name (its first occurrence in {@code json}) */
    private static void assertRefused(String json, String path, String lineOf, String... fragments) {
        RuleFormatException e = assertThrows(RuleFormatException.class, () -> Rules.parse(json).compile(Login.class));
        assertEquals(path, e.path(), e.getMessage());
        int at = lineOf.startsWith("last:") ? json.lastIndexOf(lineOf.substring(5)) : json.indexOf(lineOf);
        assertTrue(at >= 0, "no '" + lineOf + "' in the rule");
        int line = 1 + (int) json.substring(0, at).chars().filter(ch -> ch == '\n').count();
        assertEquals(line, e.line(), e.getMessage());
        assertTrue(e.column() > 0, e.getMessage());
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), "expected '" + f + "' in: " + e.getMessage());
        }
        assertTrue(e.getMessage().contains(path), e.getMessage());
    }
}
