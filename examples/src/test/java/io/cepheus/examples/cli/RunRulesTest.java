package io.cepheus.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cepheus run --rules} on a user's data: typed fields from CSV and JSON Lines, alerts naming rule and version,
 * invalid rules reported with their file and path, events a rule cannot evaluate reported and skipped, and
 * {@code --watch} picking up a changed rule file half way through the input (the file is changed by the input stream
 * itself when half of it has been read, and the clock is the test's: nothing sleeps).
 */
class RunRulesTest {

    record Result(int status, String out, String err) {
    }

    private static Result run(InputStream stdin, long[] clock, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = new Cepheus(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), stdin, () -> clock[0], false).run(args);
        return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static String rule(String id, int version, String first, String second) {
        return """
                {"id": "%s", "version": %d, "pattern": {"type": "COMPOSITE",
                 "nodes": [{"name": "small", "type": "ATOMIC", "condition": {"type": "EXPRESSION", "expression": "%s"}},
                           {"name": "large", "type": "ATOMIC", "condition": {"type": "EXPRESSION", "expression": "%s"}}],
                 "edges": [{"source": "small", "target": "large", "type": "SKIP_TILL_NEXT"}],
                 "window": {"type": "FIRST_AND_LAST", "time": {"unit": "MINUTES", "size": 1}}}}"""
                .formatted(id, version, first, second);
    }

    @Test
    void rulesRunOverJsonLinesWithTheirTypesAndNestedFieldsAndEveryAlertNamesItsVersion(@TempDir Path dir)
            throws IOException {
        Files.writeString(dir.resolve("r.json"), rule("abroad", 3, "amount < 1", "amount > 100 && card.country != 'DE'"));
        Path input = dir.resolve("in.jsonl");
        Files.writeString(input, """
                {"id": "7", "amount": 0.5, "card": {"country": "FR"}, "time": "2025-03-01T09:00:00Z"}
                {"id": "7", "amount": 250, "card": {"country": "FR"}, "time": "2025-03-01T09:00:10Z"}
                {"id": 7, "amount": 0.5, "card": {"country": "DE"}, "time": 1740819620000}
                {"id": 7, "amount": 250, "card": {"country": "DE"}, "time": 1740819630000}
                """);
        Path alerts = dir.resolve("alerts.jsonl");
        Result r = run(InputStream.nullInputStream(), new long[1], "run", "--rules", dir.resolve("r.json").toString(),
                "--input", input.toString(), "--key", "id", "--time", "time", "--out", alerts.toString(),
                "--no-progress");
        assertEquals(0, r.status(), r.err());
        List<String> lines = Files.readAllLines(alerts);
        assertEquals(1, lines.size(), "the text key '7' and the number 7 are two keys, and DE is excluded: " + lines);
        assertTrue(lines.get(0).startsWith("{\"rule\":\"abroad\",\"version\":3,\"key\":\"7\","
                + "\"time\":\"2025-03-01T09:00:10Z\",\"ts\":1740819610000,\"match\":{\"small\":[{\"id\":\"7\","
                + "\"amount\":0.5,\"card\":{\"country\":\"FR\"},\"time\":1740819600000}]"), lines.get(0));
        assertTrue(r.out().contains("alerts                     1\n  abroad                       1\n"), r.out());
    }

    @Test
    void invalidRuleFilesAndEventsARuleCannotEvaluateAreReportedNotFatal(@TempDir Path dir) throws IOException {
        Path rules = Files.createDirectory(dir.resolve("rules"));
        Files.writeString(rules.resolve("good.json"), rule("good", 1, "amount < 1", "amount > 100"));
        Files.writeString(rules.resolve("bad.json"), rule("bad", 1, "amount <", "amount > 100"));
        Path input = dir.resolve("in.csv");
        Files.writeString(input, "card,amount,time\nc1,0.5,1000\nc1,lots,2000\nc1,500,3000\n");
        Result r = run(InputStream.nullInputStream(), new long[1], "run", "--rules", rules.toString(), "--input",
                input.toString(), "--key", "card", "--time", "time", "--no-progress");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("cepheus: rule file " + rules.resolve("bad.json") + " rejected: rule 'bad' ("
                + rules.resolve("bad.json") + "), pattern.nodes[0].condition.expression (line 2, column "), r.err());
        assertTrue(r.err().contains("cannot compare the string 'lots' with the number 100"), r.err());
        assertTrue(r.out().contains("good v1  c1:"), r.out());
        assertTrue(r.out().contains("condition errors           1"), r.out());
        Result none = run(InputStream.nullInputStream(), new long[1], "run", "--rules", rules.resolve("bad.json")
                .toString(), "--input", input.toString(), "--key", "card", "--time", "time", "--no-progress");
        assertEquals(Cepheus.FAILED, none.status());
        assertTrue(none.err().contains("no valid rule in"), none.err());
        Result usage = run(InputStream.nullInputStream(), new long[1], "run", "--rules", rules.toString(), "--input",
                input.toString(), "--time", "time");
        assertEquals(Cepheus.USAGE, usage.status());
        assertTrue(usage.err().contains("--key FIELD is needed"), usage.err());
    }

    @Test
    void watchingTheRulesAppliesAChangedFileFromTheNextEventAndKeepsTheRunningVersionOfABrokenOne(@TempDir Path dir)
            throws IOException {
        Path rules = Files.createDirectory(dir.resolve("rules"));
        Path file = rules.resolve("probe.json");
        Files.writeString(file, rule("probe", 1, "amount < 1", "amount > 500"));
        StringBuilder csv = new StringBuilder("card,amount,time\n");
        for (int i = 0; i < 40; i++) {
            // a probe then 200.00, every 10 s on its own card: an alert under v2 only
            csv.append("c").append(i).append(",0.5,").append(i * 10_000L).append('\n');
            csv.append("c").append(i).append(",200,").append(i * 10_000L + 5_000).append('\n');
        }
        byte[] bytes = csv.toString().getBytes(StandardCharsets.UTF_8);
        long[] clock = {0};
        InputStream stdin = new InputStream() {
            private int at;

            @Override
            public int read() {
                if (at == bytes.length / 2) {
                    try { // half way: the analyst lowers the threshold, the clock passes the watch interval
                        Files.writeString(file, rule("probe", 2, "amount < 1", "amount > 100"));
                        Files.writeString(rules.resolve("broken.json"), "{\"id\": \"broken\"");
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    clock[0] += 5_000_000_000L;
                }
                return at < bytes.length ? bytes[at++] & 0xff : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                // never past the middle in one read: the reader sees the change only once it needs the second half
                int end = at < bytes.length / 2 ? bytes.length / 2 : bytes.length;
                if (at == bytes.length / 2) {
                    read(); // the change, then the first byte of the second half
                    at--;
                }
                int n = Math.min(len, end - at);
                if (n <= 0) {
                    return -1;
                }
                System.arraycopy(bytes, at, b, off, n);
                at += n;
                return n;
            }
        };
        Path alerts = dir.resolve("alerts.jsonl");
        Result r = run(stdin, clock, "run", "--rules", rules.toString(), "--input", "-", "--format", "csv", "--key",
                "card", "--time", "time", "--watch", "--out", alerts.toString(), "--no-progress");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("cepheus: rule probe v2 from " + file + " replaces the running version"), r.err());
        assertTrue(r.err().contains("rules" + java.io.File.separator + "broken.json rejected (the running version"
                + " stays)"), r.err());
        List<String> lines = Files.readAllLines(alerts);
        assertTrue(lines.size() > 10 && lines.size() < 40, lines.size() + " alerts: only after the change");
        assertTrue(lines.stream().allMatch(l -> l.contains("\"rule\":\"probe\",\"version\":2")), lines.toString());
    }
}
