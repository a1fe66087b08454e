package io.cepheus.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.examples.Alert;
import io.cepheus.examples.SampleStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command-line runner end to end, in process: what a user sees on stdout and stderr, and the exit status. */
class CepheusTest {

    /** One run's outcome. */
    record Result(int status, String out, String err) {
    }

    /**
     * Runs the command line in this process, as a user would from a shell; other tests of it use this too.
     *
     * @param stdin what standard input holds
     * @param args  the command line
     * @return the exit status and what was written, line ends as {@code \n}
     */
    static Result runWithInput(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long[] fakeNanos = {0};
        int status = new Cepheus(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                () -> fakeNanos[0] += 1_000_000, false).run(args);
        return new Result(status, out.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n"),
                err.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n"));
    }

    private static Result run(String... args) {
        return runWithInput("", args);
    }

    @Test
    void noArgumentsRunTheDemoWithEveryPlantedAlertAndASummary() {
        Result r = run();
        assertEquals(0, r.status(), r.err());
        SampleStream stream = SampleStream.generate(SampleStream.DEFAULT_SEED);
        StringBuilder expectedLines = new StringBuilder();
        for (Alert alert : stream.plantedAlerts()) {
            expectedLines.append(alert.describe()).append('\n');
        }
        // one shard: the alerts come in time order, exactly the planted ones
        assertTrue(r.out().contains("\n\n" + expectedLines + "\n"), r.out());
        assertTrue(r.out().startsWith("Cepheus fraud-detection demo: 49,934 generated logins"), r.out());
        assertTrue(r.out().contains("alerts                    22\n  brute-force                 12\n"
                + "  card-testing                10\n"), r.out());
        assertTrue(r.out().contains("throughput"), r.out());
    }

    @Test
    void eachAppRunsOverItsSampleWithTheExpectedAlerts() {
        Map<String, String> expected = Map.of(
                "failed-logins", "  failed-logins-relaxed        3\n  failed-logins-strict         2\n",
                "card-testing", "  card-testing                 2\n",
                "fast-checkout", "  fast-checkout                2\n",
                "gold-payment", "  gold-payment                 2\n",
                "sla-breach", "  sla-breach                   4\n",
                "temperature", "  critical                     1\n  overheating                  4\n");
        expected.forEach((app, counts) -> {
            Result r = run(app);
            assertEquals(0, r.status(), app + ": " + r.err());
            assertTrue(r.out().contains(counts + "late events                0\n"), app + ":\n" + r.out());
        });
        Result sla = run("sla-breach");
        assertTrue(sla.out().contains("[09:05:00] SLA BREACH    order A-101 not shipped within 1h 0m of being placed\n"
                + "[09:10:00] SLA BREACH    order A-102 not shipped within 1h 0m of being placed\n"
                + "[10:30:00] SLA BREACH    order A-104 not shipped within 1h 0m of being placed\n"
                + "[12:00:00] SLA BREACH    order A-106 not shipped within 1h 0m of being placed\n"), sla.out());
    }

    @Test
    void runReadsAFileWritesJsonLinesAndSkipsMalformedLines(@TempDir Path dir) throws IOException {
        Path in = dir.resolve("payments.csv");
        Files.writeString(in, """
                card,amount,time
                c1,0.50,2025-03-01T09:00:00Z
                c1,abc,2025-03-01T09:00:10Z
                c1,600.00,2025-03-01T09:00:30Z
                """);
        Path out = dir.resolve("alerts.jsonl");
        Result r = run("run", "card-testing", "--input", in.toString(), "--out", out.toString());

        assertEquals(0, r.status(), r.err());
        assertEquals("cepheus: skipped line 3: field \"amount\": 'abc' is not an amount, e.g. 12.34\n", r.err());
        assertTrue(r.out().startsWith("[09:00:30] CARD TESTING  card c1: 0.50 then 600.00 within 30s\n"), r.out());
        assertTrue(r.out().contains("malformed lines            1 (skipped)\n"), r.out());
        assertTrue(r.out().endsWith("alerts written to " + out + " (JSON Lines)\n"), r.out());
        assertEquals(List.of("{\"rule\":\"card-testing\",\"key\":\"c1\",\"time\":\"2025-03-01T09:00:30Z\","
                + "\"ts\":1740819630000,\"message\":\"card c1: 0.50 then 600.00 within 30s\",\"events\":["
                + "{\"card\":\"c1\",\"amount\":0.50,\"time\":\"2025-03-01T09:00:00Z\"},"
                + "{\"card\":\"c1\",\"amount\":600.00,\"time\":\"2025-03-01T09:00:30Z\"}]}"), Files.readAllLines(out));
    }

    /**
     * A line whose bytes are not UTF-8 is a malformed line like any other: named by its own number, skipped (or
     * aborting under {@code --on-error abort}), and every line around it is read and matched. Far into a file, so
     * that the bad bytes are not in the first chunk a reader decodes.
     */
    @Test
    void aLineThatIsNotUtf8IsSkippedWithItsLineNumberAndTheRestIsRead(@TempDir Path dir) throws IOException {
        StringBuilder text = new StringBuilder("card,amount,time\n");
        for (int i = 0; i < 50_000; i++) {
            text.append("c").append(i % 100).append(",10.00,").append(1_000 + i).append('\n');
        }
        byte[] head = text.toString().getBytes(StandardCharsets.UTF_8);
        byte[] bad = "c7,0.50,60000 caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1); // é as one Latin-1 byte
        byte[] tail = "c7,0.50,60001\nc7,600.00,60002\n".getBytes(StandardCharsets.UTF_8);
        Path in = dir.resolve("payments.csv");
        try (var file = Files.newOutputStream(in)) {
            file.write(head);
            file.write(bad);
            file.write(tail);
        }

        Result skip = run("run", "card-testing", "--input", in.toString(), "--no-progress");
        assertEquals(0, skip.status(), skip.err());
        assertEquals("cepheus: skipped line 50002: not valid UTF-8 (byte 18 of the line is 0xe9)\n", skip.err());
        assertTrue(skip.out().contains("malformed lines            1 (skipped)\n"), skip.out());
        assertTrue(skip.out().contains("events                50,002"), skip.out());
        assertTrue(skip.out().contains("CARD TESTING  card c7: 0.50 then 600.00"), "the lines after it are matched");

        Result abort = run("run", "card-testing", "--input", in.toString(), "--no-progress", "--on-error", "abort");
        assertEquals(1, abort.status());
        assertEquals("cepheus: stopped at line 50002: not valid UTF-8 (byte 18 of the line is 0xe9)"
                + " (--on-error abort)\n", abort.err());
    }

    @Test
    void anEmptyCsvIsAnErrorNotARunOfNoEvents(@TempDir Path dir) throws IOException {
        Path empty = Files.writeString(dir.resolve("payments.csv"), "");
        Result r = run("run", "card-testing", "--input", empty.toString(), "--no-progress");
        assertEquals(1, r.status());
        assertEquals("cepheus: stopped at line 1: the input is empty: a CSV needs a header line\n", r.err());
        Path blank = Files.writeString(dir.resolve("blank.csv"), "\n# nothing yet\n\n");
        assertEquals("cepheus: stopped at line 3: the input has no header line, only blank lines and comments\n",
                run("run", "card-testing", "--input", blank.toString(), "--no-progress").err());
        assertEquals(0, runWithInput("", "run", "card-testing", "--input", "-", "--format", "jsonl",
                "--no-progress").status(), "JSON Lines has no header: empty is no events");
    }

    @Test
    void outToAMissingDirectorySaysSo(@TempDir Path dir) throws IOException {
        Path in = Files.writeString(dir.resolve("payments.csv"), "card,amount,time\nc1,0.50,1000\n");
        Path out = dir.resolve("no/such/alerts.jsonl");
        Result r = run("run", "card-testing", "--input", in.toString(), "--out", out.toString(), "--no-progress");
        assertEquals(1, r.status());
        assertEquals("cepheus: cannot write " + out + ": no such directory " + out.getParent() + "\n", r.err());
    }

    @Test
    void onErrorAbortStopsAtTheMalformedLineWithStatusOne() {
        Result r = runWithInput("card,amount,time\nc1,0.50,1000\nc1,1.00\nc1,600.00,2000\n",
                "run", "card-testing", "--input", "-", "--on-error", "abort");
        assertEquals(1, r.status());
        assertEquals("cepheus: stopped at line 3: 2 columns, the header has 3 (--on-error abort)\n", r.err());
    }

    @Test
    void outDashPutsOnlyJsonOnStdoutFromStdin() {
        String jsonl = """
                {"rack": "r1", "temperature": 101, "time": 1000}
                {"rack": "r1", "temperature": 102, "time": 2000}
                """;
        Result r = runWithInput(jsonl, "run", "temperature", "--input", "-", "--out", "-", "--max-delay", "0s");
        assertEquals(0, r.status(), r.err());
        assertEquals("{\"rule\":\"overheating\",\"key\":\"r1\",\"time\":\"1970-01-01T00:00:02Z\",\"ts\":2000,"
                + "\"message\":\"rack r1: 101.0° then 102.0° within 1s\",\"events\":[{\"rack\":\"r1\","
                + "\"temperature\":101.0,\"time\":\"1970-01-01T00:00:01Z\"},{\"rack\":\"r1\",\"temperature\":102.0,"
                + "\"time\":\"1970-01-01T00:00:02Z\"}]}\n", r.out());
        assertTrue(r.err().contains("alerts                     1\n"), r.err());
    }

    @Test
    void eventsLaterThanTheMaxDelayAreCountedLate() {
        String csv = "order,status,time\nA,placed,0\nB,placed,60000\nA,shipped,1000\n";
        Result late = runWithInput(csv, "run", "sla-breach", "--input", "-", "--max-delay", "30s");
        assertTrue(late.out().contains("alerts                     2\n"), late.out());
        assertTrue(late.out().contains("late events                1\n"), late.out());
        Result inTime = runWithInput(csv, "run", "sla-breach", "--input", "-", "--max-delay", "1m");
        assertTrue(inTime.out().contains("alerts                     1\n"), inTime.out());
        assertTrue(inTime.out().contains("late events                0\n"), inTime.out());
    }

    @Test
    void explainPrintsEveryPatternAsMermaidAndDot() {
        Result r = run("failed-logins", "--explain");
        assertEquals(0, r.status());
        assertTrue(r.out().contains("## failed-logins-strict\n"), r.out());
        assertTrue(r.out().contains("## failed-logins-relaxed\n"), r.out());
        assertEquals(2, r.out().split("```mermaid\nflowchart LR\n", -1).length - 1, r.out());
        assertEquals(2, r.out().split("```dot\ndigraph nfa \\{\n", -1).length - 1, r.out());
        assertEquals(r.out(), run("run", "failed-logins", "--explain").out());
        assertTrue(run("temperature", "--explain").out().contains("## critical\n"));
    }

    @Test
    void helpOnEveryCommand() {
        assertTrue(run("--help").out().contains("Usage: java -jar examples/target/cepheus-demo.jar [COMMAND]"));
        assertEquals(run("--help").out(), run("help").out());
        for (String command : List.of("demo", "run", "failed-logins", "card-testing", "fast-checkout",
                "gold-payment", "sla-breach", "temperature", "fraud")) {
            Result r = run(command, "--help");
            assertEquals(0, r.status(), command);
            assertTrue(r.out().contains("Usage: cepheus"), command + ": " + r.out());
            assertEquals(r.out(), run("help", command).out(), command);
        }
        String help = run("gold-payment", "--help").out();
        assertTrue(help.contains("  grade   required  one of standard|silver|gold: the customer's grade\n"), help);
        assertTrue(help.contains("  amount  required  amount, e.g. 12.34: the amount\n"), help);
    }

    @Test
    void badArgumentsExitWithStatusTwoAndSayWhatIsWrong() {
        Map<List<String>, String> cases = Map.of(
                List.of("frobnicate"), "unknown command 'frobnicate'",
                List.of("--bogus"), "unknown option '--bogus' for 'demo'",
                List.of("demo", "--shards", "0"), "--shards must be between 1 and 64, got 0",
                List.of("run"), "which app? one of fraud, failed-logins",
                List.of("run", "nope", "--input", "x"), "unknown app 'nope'",
                List.of("run", "card-testing"), "--input FILE is needed",
                List.of("run", "card-testing", "--input", "x.csv", "--on-error", "ignore"),
                "--on-error must be one of skip, abort, got 'ignore'",
                List.of("card-testing", "--input", "x.csv"), "unknown option '--input' for 'card-testing'",
                List.of("help", "nope"), "no help on 'nope'");
        cases.forEach((args, message) -> {
            Result r = run(args.toArray(new String[0]));
            assertEquals(2, r.status(), args + ": " + r.err());
            assertTrue(r.err().startsWith("cepheus: error: " + message), args + ": " + r.err());
            assertTrue(r.err().contains("--help' for usage."), args + ": " + r.err());
            assertEquals("", r.out(), args + " printed before failing");
        });
    }

    @Test
    void aMissingFileFailsWithStatusOne() {
        Result r = run("run", "card-testing", "--input", "/no/such/file.csv");
        assertEquals(1, r.status());
        assertEquals("cepheus: no such file: /no/such/file.csv\n", r.err());
    }

    @Test
    void windowsPrintsThePaymentAggregatesOfTheWindowExample() {
        Result r = run("windows");
        assertEquals(0, r.status(), r.err());
        assertEquals(String.join("\n", io.cepheus.examples.windows.PaymentWindows.run(
                io.cepheus.examples.windows.PaymentWindows.PAYMENTS)) + "\n", r.out());
        assertTrue(r.out().contains("largest u1 [960000,1020000) 10.0 @1019999"), r.out());
        assertTrue(r.out().contains("session"), r.out());
    }

    @Test
    void orderPaymentsPrintsTheStudyTableWithThePublishedMatchCounts() {
        Result r = run("order-payments");
        assertEquals(0, r.status(), r.err());
        for (String matched : new String[] {"5,407", "8,469", "8,615", "9,010"}) {
            assertTrue(r.out().contains(matched), "missing " + matched + " in\n" + r.out());
        }
    }

    @Test
    void theNewCommandsHaveHelpAndRejectArguments() {
        assertTrue(run("windows", "--help").out().contains("Usage: cepheus windows"));
        assertTrue(run("order-payments", "--help").out().contains("Usage: cepheus order-payments"));
        assertEquals(2, run("windows", "extra").status());
        assertTrue(run("--help").out().contains("order-payments"));
    }
}
