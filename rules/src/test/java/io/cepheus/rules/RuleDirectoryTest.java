package io.cepheus.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.Pattern;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A watched folder of rule files, polled explicitly: loaded at the first poll, new and changed files validated
 * before they are reported, invalid ones reported once (file, rule id, JSON path) while the running version stays,
 * deleted files removed.
 */
class RuleDirectoryTest {

    record Login(String user, boolean ok, long time) {
    }

    private static String rule(String id, int version, String expression) {
        return """
                {"id": "%s", "version": %d, "pattern": {"type": "COMPOSITE", "nodes": [
                  {"name": "a", "type": "ATOMIC", "condition": {"type": "EXPRESSION", "expression": "%s"}}]}}"""
                .formatted(id, version, expression);
    }

    private static RuleDirectory<Pattern<Login>> open(Path dir) {
        return RuleDirectory.open(dir, rule -> rule.compile(Login.class));
    }

    @Test
    void theFirstPollLoadsEveryValidFileAndRejectsTheOthers(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("a.json"), rule("fail", 1, "!ok"));
        Files.writeString(dir.resolve("b.json"), rule("typo", 1, "okk"));
        Files.writeString(dir.resolve("notes.txt"), "not a rule");
        Files.writeString(dir.resolve(".a.json.swp"), "an editor's copy");
        RuleDirectory<Pattern<Login>> rules = open(dir);
        List<RuleDirectory.Change<Pattern<Login>>> changes = rules.poll();
        assertEquals(2, changes.size(), changes.toString());
        RuleDirectory.Put<Pattern<Login>> put = assertInstanceOf(RuleDirectory.Put.class, changes.get(0));
        assertEquals("fail", put.rule().id());
        assertEquals("a", put.compiled().name());
        RuleDirectory.Rejected<Pattern<Login>> rejected = assertInstanceOf(RuleDirectory.Rejected.class,
                changes.get(1));
        RuleFormatException problem = assertInstanceOf(RuleFormatException.class, rejected.problem());
        assertEquals("typo", problem.ruleId());
        assertEquals("pattern.nodes[0].condition.expression", problem.path());
        assertTrue(problem.getMessage().contains(dir.resolve("b.json").toString()), problem.getMessage());
        assertEquals(List.of(), rules.poll(), "nothing changed: nothing to report, the rejection not again");
        assertEquals(List.of("fail"), List.copyOf(rules.running().keySet()));
    }

    @Test
    void aChangedFileIsAppliedOnlyWithAHigherVersionAndAnInvalidOneLeavesTheRunningVersion(@TempDir Path dir)
            throws IOException {
        Path file = dir.resolve("fail.json");
        Files.writeString(file, rule("fail", 1, "!ok"));
        RuleDirectory<Pattern<Login>> rules = open(dir);
        rules.poll();
        Files.writeString(file, rule("fail", 2, "!ok && user != 'test'"));
        RuleDirectory.Put<Pattern<Login>> v2 = assertInstanceOf(RuleDirectory.Put.class, rules.poll().get(0));
        assertEquals(2, v2.rule().version());
        Files.writeString(file, rule("fail", 3, "!ok &&"));
        RuleDirectory.Rejected<Pattern<Login>> broken = assertInstanceOf(RuleDirectory.Rejected.class,
                single(rules.poll()));
        assertTrue(broken.problem().getMessage().contains("expected a value"), broken.problem().getMessage());
        assertEquals(2, rules.running().get("fail").version(), "the running version stays");
        Files.writeString(file, rule("fail", 2, "!ok && user != 'admin'"));
        RuleDirectory.Rejected<Pattern<Login>> sameVersion = assertInstanceOf(RuleDirectory.Rejected.class,
                single(rules.poll()));
        assertTrue(sameVersion.problem().getMessage().contains("raise the version"), sameVersion.problem()
                .getMessage());
        Files.writeString(file, rule("fail", 2, "!ok && user != 'test'").replace("  ", "    "));
        assertEquals(List.of(), rules.poll(), "the running rule, respaced: nothing to change");
        Files.writeString(file, rule("fail", 4, "!ok"));
        assertInstanceOf(RuleDirectory.Put.class, single(rules.poll()));
    }

    @Test
    void aDeletedFileRemovesItsRuleAndAFileThatChangesItsIdReplacesTheOldId(@TempDir Path dir) throws IOException {
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        Files.writeString(a, rule("fail", 1, "!ok"));
        Files.writeString(b, rule("ok", 1, "ok"));
        RuleDirectory<Pattern<Login>> rules = open(dir);
        assertEquals(2, rules.poll().size());
        Files.delete(b);
        RuleDirectory.Removed<Pattern<Login>> removed = assertInstanceOf(RuleDirectory.Removed.class,
                single(rules.poll()));
        assertEquals("ok", removed.id());
        Files.writeString(a, rule("failed-login", 1, "!ok"));
        List<RuleDirectory.Change<Pattern<Login>>> renamed = rules.poll();
        assertEquals("fail", assertInstanceOf(RuleDirectory.Removed.class, renamed.get(0)).id());
        assertEquals("failed-login", assertInstanceOf(RuleDirectory.Put.class, renamed.get(1)).rule().id());
        Files.writeString(b, rule("failed-login", 5, "!ok"));
        RuleDirectory.Rejected<Pattern<Login>> twice = assertInstanceOf(RuleDirectory.Rejected.class,
                single(rules.poll()));
        assertTrue(twice.problem().getMessage().contains("one file per rule"), twice.problem().getMessage());
        assertEquals(Map.of("failed-login", 1), Map.of("failed-login", rules.running().get("failed-login").version()));
    }

    @Test
    void oneFileCanBeWatchedAloneAndAMissingFolderIsAnError(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("only.json");
        Files.writeString(file, rule("only", 1, "ok"));
        RuleDirectory<Pattern<Login>> one = open(file);
        assertEquals("only", assertInstanceOf(RuleDirectory.Put.class, single(one.poll())).rule().id());
        assertThrows(UncheckedIOException.class, () -> open(dir.resolve("nope")).poll());
    }

    private static <X> X single(List<X> list) {
        assertEquals(1, list.size(), list.toString());
        return list.get(0);
    }
}
