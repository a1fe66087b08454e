package io.cepheus.examples.cli;

import io.cepheus.examples.SampleStream;
import io.cepheus.examples.StopwatchClock;
import io.cepheus.nfa.CompiledPattern;
import io.cepheus.nfa.NfaCompiler;
import io.cepheus.pattern.Pattern;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The command-line runner, the shaded jar's main class: {@code java -jar examples/target/cepheus-demo.jar
 * [COMMAND] [OPTIONS]}. Without a command it runs the fraud-detection demo. {@code --help} on any command
 * says what it takes. Exit status: 0 done, 1 failed (bad input under {@code --on-error abort}, unreadable
 * file), 2 bad arguments.
 *
 * <p>An instance runs one command at a time on the caller's thread; the streams and the clock are injected
 * so tests see exactly what a user would.
 */
public final class Cepheus {

    /** Exit status of a run that did its job. */
    public static final int OK = 0;
    /** Exit status of a run that failed. */
    public static final int FAILED = 1;
    /** Exit status of bad arguments. */
    public static final int USAGE = 2;

    private static final Set<String> APP_OPTIONS = Set.of("out", "shards", "max-delay");
    private static final Set<String> APP_FLAGS = Set.of("explain", "no-progress", "help");
    private static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(5);

    private final PrintStream out;
    private final PrintStream err;
    private final InputStream stdin;
    private final LongSupplier nanos;
    private final boolean terminal;

    /**
     * @param out      standard output
     * @param err      standard error
     * @param stdin    standard input, for {@code --input -}
     * @param nanos    a monotonic clock (throughput, progress)
     * @param terminal whether the user watches a terminal (progress redrawn in place)
     */
    public Cepheus(PrintStream out, PrintStream err, InputStream stdin, LongSupplier nanos, boolean terminal) {
        this.out = out;
        this.err = err;
        this.stdin = stdin;
        this.nanos = nanos;
        this.terminal = terminal;
    }

    /** @param args the command line */
    public static void main(String[] args) {
        PrintStream stdout = new PrintStream(new BufferedOutputStream(System.out, 1 << 16), true,
                StandardCharsets.UTF_8);
        int status = new Cepheus(stdout, System.err, System.in, StopwatchClock::nanos, System.console() != null)
                .run(args);
        stdout.flush();
        System.exit(status);
    }

    /**
     * @param args the command line
     * @return the exit status
     */
    public int run(String... args) {
        List<String> tokens = Arrays.asList(args);
        String command = tokens.isEmpty() || tokens.get(0).startsWith("--") && !isHelp(tokens.get(0)) ? "demo"
                : tokens.get(0);
        List<String> rest = tokens.isEmpty() || !command.equals(tokens.get(0)) ? tokens
                : tokens.subList(1, tokens.size());
        try {
            return switch (command) {
                case "help", "--help", "-h" -> help(rest);
                case "demo", "fraud" -> demo(command, rest);
                case "run" -> runCommand(rest);
                case "explain" -> explainRules(rest);
                case "windows" -> windows(rest);
                case "order-payments" -> orderPayments(rest);
                default -> {
                    ExampleApp<?> app = Apps.byName(command);
                    if (app == null) {
                        throw new UsageException(null, "unknown command '" + command + "'; commands: demo, "
                                + Apps.names().replace("fraud, ", "")
                                + ", windows, order-payments, run, explain, help");
                    }
                    yield sample(app, rest);
                }
            };
        } catch (UsageException e) {
            err.println("cepheus: error: " + e.getMessage());
            err.println(e.command() == null ? "Run 'cepheus --help' for usage."
                    : "Run 'cepheus " + e.command() + " --help' for usage.");
            return USAGE;
        } catch (AppRunner.AbortedException e) {
            err.println("cepheus: stopped at " + e.getMessage()
                    + (((MalformedLineException) e.getCause()).fatal() ? "" : " (--on-error abort)"));
            return FAILED;
        } catch (UncheckedIOException e) {
            err.println("cepheus: " + e.getMessage());
            return FAILED;
        } finally {
            out.flush();
        }
    }

    private static boolean isHelp(String token) {
        return token.equals("--help") || token.equals("-h");
    }

    // ---- commands

    private int help(List<String> rest) {
        if (rest.isEmpty()) {
            out.print(Help.top());
            return OK;
        }
        if (rest.size() > 1) {
            throw new UsageException(null, "help takes one command, got " + String.join(" ", rest));
        }
        String topic = rest.get(0);
        String text = Help.of(topic);
        if (text == null) {
            throw new UsageException(null, "no help on '" + topic + "': no such command");
        }
        out.print(text);
        return OK;
    }

    private int demo(String command, List<String> rest) {
        Set<String> options = union(APP_OPTIONS, Set.of("seed"));
        Args args = Args.parse(command, rest, options, APP_FLAGS, 0);
        if (args.has("help")) {
            out.print(Help.of("demo"));
            return OK;
        }
        if (args.has("explain")) {
            explain(Apps.FRAUD);
            return OK;
        }
        long seed = args.longValue("seed", SampleStream.DEFAULT_SEED);
        RunSettings.of(args);
        SampleStream stream = SampleStream.generate(seed);
        try (Outputs o = outputs(args)) {
            o.banner.printf(Locale.ROOT, "Cepheus fraud-detection demo: %,d generated logins and card payments of "
                    + "2,000 users over 3 hours (seed %d)%n", stream.events().size(), seed);
            o.banner.println("rules: brute-force (5 failed logins in a row within 10 min, per user), card-testing "
                    + "(under 1.00 then over 500.00 within 1 min, per card)");
            o.banner.println();
            return runApp(Apps.FRAUD, EventSource.of(stream.events()), args, o);
        }
    }

    private int sample(ExampleApp<?> app, List<String> rest) {
        Args args = Args.parse(app.name(), rest, APP_OPTIONS, APP_FLAGS, 0);
        if (args.has("help")) {
            out.print(Help.of(app.name()));
            return OK;
        }
        if (args.has("explain")) {
            explain(app);
            return OK;
        }
        RunSettings.of(args);
        try (Outputs o = outputs(args)) {
            o.banner.println(app.name() + ": " + app.title());
            o.banner.println("input: the app's sample data (" + app.sample() + " in the jar); your own: cepheus run "
                    + app.name() + " --input FILE");
            o.banner.println();
            return runSample(app, args, o);
        }
    }

    private <E> int runSample(ExampleApp<E> app, Args args, Outputs o) {
        InputStream resource = Cepheus.class.getResourceAsStream("/" + app.sample());
        if (resource == null) {
            throw new IllegalStateException("the jar lacks " + app.sample());
        }
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(resource, StandardCharsets.UTF_8))) {
            EventReader<E> events = new EventReader<>(reader, app.input(),
                    EventReader.Format.ofFileName(app.sample()));
            return runApp(app, events::next, args, o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private int runCommand(List<String> rest) {
        Set<String> options = union(APP_OPTIONS, Set.of("input", "format", "on-error", "rules", "key", "time",
                "watch-interval"));
        Args args = Args.parse("run", rest, options, union(APP_FLAGS, Set.of("watch", "timeouts")), 1);
        if (args.has("help")) {
            out.print(Help.of("run"));
            return OK;
        }
        if (args.value("rules") != null) {
            return runRules(args);
        }
        for (String ruleOnly : List.of("key", "time", "watch-interval")) {
            if (args.value(ruleOnly) != null) {
                throw new UsageException("run", "--" + ruleOnly + " goes with --rules (an app knows its own)");
            }
        }
        if (args.has("watch") || args.has("timeouts")) {
            throw new UsageException("run", "--watch and --timeouts go with --rules");
        }
        if (args.positionals().isEmpty()) {
            throw new UsageException("run", "which app? one of " + Apps.names());
        }
        ExampleApp<?> app = Apps.byName(args.positionals().get(0));
        if (app == null) {
            throw new UsageException("run", "unknown app '" + args.positionals().get(0) + "'; apps: " + Apps.names());
        }
        if (args.has("explain")) {
            explain(app);
            return OK;
        }
        String input = args.value("input");
        if (input == null) {
            throw new UsageException("run", "--input FILE is needed ('-' reads standard input)");
        }
        String format = args.choice("format", null, List.of("csv", "jsonl"));
        RunSettings.of(args);
        EventReader.Format fmt = format == null ? (input.equals("-") ? null : EventReader.Format.ofFileName(input))
                : EventReader.Format.valueOf(format.toUpperCase(Locale.ROOT));
        try (BufferedReader reader = open(input); Outputs o = outputs(args)) {
            return runFile(app, reader, fmt, args, o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code run --rules DIR|FILE --input FILE|- --key FIELD --time FIELD}: your rules over your data. */
    private int runRules(Args args) {
        if (!args.positionals().isEmpty()) {
            throw new UsageException("run", "either an app (run APP) or --rules, not both");
        }
        String input = args.value("input");
        if (input == null) {
            throw new UsageException("run", "--input FILE is needed ('-' reads standard input)");
        }
        String keys = args.value("key");
        if (keys == null) {
            throw new UsageException("run", "--key FIELD is needed: the field the rules match per value of (user,"
                    + " card ...); FIELD,FIELD takes the first an event has");
        }
        String timeField = args.value("time");
        if (timeField == null) {
            throw new UsageException("run", "--time FIELD is needed: the field holding each event's time (epoch ms or"
                    + " ISO-8601)");
        }
        List<String> keyFields = Arrays.stream(keys.split(",")).map(String::strip).filter(k -> !k.isEmpty()).toList();
        String format = args.choice("format", null, List.of("csv", "jsonl"));
        RunSettings settings = RunSettings.of(args);
        long interval = args.has("watch") ? args.duration("watch-interval", Duration.ofSeconds(1)).toNanos() : 0;
        Path where = Path.of(args.value("rules"));
        if (!Files.exists(where)) {
            throw new UncheckedIOException(new IOException("no such rule folder or file: " + where));
        }
        WatchedRules watched = new WatchedRules(where, err, nanos, interval);
        EventReader.Format fmt = format == null ? (input.equals("-") ? null : EventReader.Format.ofFileName(input))
                : EventReader.Format.valueOf(format.toUpperCase(Locale.ROOT));
        try (BufferedReader reader = open(input); Outputs o = outputs(args)) {
            RuleAlerts alerts = new RuleAlerts(o.lines, o.json, args.has("timeouts"));
            RulePipeline pipeline = new RulePipeline(settings.shards(), alerts, watched, err);
            if (pipeline.rulesInForce() == 0 && interval == 0) {
                throw new UncheckedIOException(new IOException("no valid rule in " + where + " (see the rejections"
                        + " above); nothing to run"));
            }
            if (args.has("explain")) {
                watched.running().forEach((id, rule) -> {
                    CompiledPattern<?> compiled = NfaCompiler.compile(rule.compileForMaps());
                    out.println("## " + id + " v" + rule.version());
                    out.println();
                    out.println("```mermaid");
                    out.print(ensureNewline(compiled.toMermaid()));
                    out.println("```");
                });
                pipeline.finish();
                return OK;
            }
            o.banner.println("rules: " + watched.running().values().stream().map(r -> r.id() + " v" + r.version())
                    .collect(java.util.stream.Collectors.joining(", ")) + (interval > 0 ? " (watching " + where + ")"
                    : "") + "; key " + String.join(" or ", keyFields) + ", time " + timeField);
            o.banner.println();
            ExampleApp<MapEvent> app = new ExampleApp<>("rules", "your rules", "", MapEvents.schema(keyFields,
                    timeField), MapEvent::time, List.of(), Map.of(), null, null);
            EventReader<MapEvent> events = new EventReader<>(reader, app.input(), fmt);
            Progress progress = new Progress(args.has("no-progress") ? null : err, terminal, nanos);
            AppRunner.Summary summary = new AppRunner(err, nanos).run(app, events::next, pipeline, alerts,
                    settings.maxDelay(), settings.skip(), progress);
            summary.print(o.banner);
            if (pipeline.deadLetters() > 0) {
                o.banner.printf(Locale.ROOT, "condition errors%,12d (events a rule could not evaluate; see above)%n",
                        pipeline.deadLetters());
            }
            if (o.jsonTarget != null) {
                o.banner.println("alerts written to " + o.jsonTarget + " (JSON Lines)");
            }
            return OK;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code explain --rules R --input F --key FIELD=VALUES --time FIELD [--rule ID] [--html FILE]}: the rules run
     * over the events as {@code run --rules} runs them, traced for the keys asked about.
     */
    private int explainRules(List<String> rest) {
        Args args = Args.parse("explain", rest, Set.of("rules", "input", "format", "on-error", "key", "time", "rule",
                "html", "max-delay"), Set.of("help"), 0);
        if (args.has("help")) {
            out.print(Help.of("explain"));
            return OK;
        }
        String rulesAt = required(args, "rules", "--rules DIR|FILE is needed: the rule files to explain");
        String input = required(args, "input", "--input FILE is needed ('-' reads standard input)");
        String key = required(args, "key", "--key FIELD=VALUE is needed: the key field and the key (user=bob)");
        String timeField = required(args, "time", "--time FIELD is needed: the field holding each event's time");
        int eq = key.indexOf('=');
        if (eq <= 0 || eq == key.length() - 1) {
            throw new UsageException("explain", "--key takes FIELD=VALUE (user=bob, or user=bob,erin), not '" + key
                    + "'");
        }
        String keyField = key.substring(0, eq).strip();
        List<String> keyValues = Arrays.stream(key.substring(eq + 1).split(",")).map(String::strip)
                .filter(k -> !k.isEmpty()).toList();
        String format = args.choice("format", null, List.of("csv", "jsonl"));
        Duration maxDelay = args.duration("max-delay", DEFAULT_MAX_DELAY);
        boolean skip = args.choice("on-error", "skip", List.of("skip", "abort")).equals("skip");
        Path where = Path.of(rulesAt);
        if (!Files.exists(where)) {
            throw new UncheckedIOException(new IOException("no such rule folder or file: " + where));
        }
        WatchedRules watched = new WatchedRules(where, err, nanos, 0);
        RuleExplainer explainer;
        try {
            explainer = new RuleExplainer(watched, keyValues, args.value("rule"));
        } catch (IllegalArgumentException e) {
            throw new UsageException("explain", e.getMessage());
        }
        EventReader.Format fmt = format == null ? (input.equals("-") ? null : EventReader.Format.ofFileName(input))
                : EventReader.Format.valueOf(format.toUpperCase(Locale.ROOT));
        ExampleApp<MapEvent> app = new ExampleApp<>("explain", "your rules, explained", "", MapEvents.schema(
                List.of(keyField), timeField), MapEvent::time, List.of(), Map.of(), null, null);
        try (BufferedReader reader = open(input)) {
            EventReader<MapEvent> events = new EventReader<>(reader, app.input(), fmt);
            RuleAlerts none = new RuleAlerts(null, null, false);
            new AppRunner(err, nanos).run(app, events::next, explainer, none, maxDelay, skip,
                    new Progress(null, false, nanos));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Map<io.cepheus.runtime.rules.RuleVersion, io.cepheus.runtime.explain.Explanation>> traces =
                explainer.explanations();
        java.util.function.LongFunction<String> time = Cepheus::isoTime;
        traces.forEach((k, byRule) -> byRule.values().forEach(x -> {
            out.println(x.timeline(time));
            out.println();
        }));
        String html = args.value("html");
        if (html != null) {
            String title = "Cepheus explain: " + keyField + " " + String.join(", ", keyValues) + " over " + input;
            try {
                Files.writeString(Path.of(html), ExplainPage.render(title, traces, time), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + html + ": " + e.getMessage(), e);
            }
            out.println("timeline page written to " + html);
        }
        return OK;
    }

    private static String required(Args args, String option, String message) {
        String value = args.value(option);
        if (value == null) {
            throw new UsageException("explain", message);
        }
        return value;
    }

    /** Event times of the command line's inputs are epoch milliseconds: written as ISO-8601 instants. */
    private static String isoTime(long millis) {
        return java.time.Instant.ofEpochMilli(millis).toString();
    }

    private <E> int runFile(ExampleApp<E> app, BufferedReader reader, EventReader.Format format, Args args,
            Outputs o) {
        EventReader<E> events = new EventReader<>(reader, app.input(), format);
        return runApp(app, events::next, args, o);
    }

    private BufferedReader open(String input) {
        if (input.equals("-")) {
            return new Utf8LineReader(new BufferedInputStream(stdin));
        }
        try {
            return new Utf8LineReader(new BufferedInputStream(Files.newInputStream(Path.of(input))));
        } catch (NoSuchFileException e) {
            throw new UncheckedIOException("no such file: " + input, e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + input + ": " + e.getMessage(), e);
        }
    }

    /**
     * The options every run takes, checked before anything is printed.
     *
     * @param shards   engine shards
     * @param maxDelay how late an event may be
     * @param skip     whether malformed lines are skipped
     */
    private record RunSettings(int shards, Duration maxDelay, boolean skip) {
        static RunSettings of(Args args) {
            return new RunSettings(args.intValue("shards", 1, 1, 64), args.duration("max-delay", DEFAULT_MAX_DELAY),
                    args.choice("on-error", "skip", List.of("skip", "abort")).equals("skip"));
        }
    }

    private <E> int runApp(ExampleApp<E> app, EventSource<E> source, Args args, Outputs o) {
        RunSettings settings = RunSettings.of(args);
        AlertOutput alerts = new AlertOutput(o.lines, o.json, app.alertEvents());
        Pipeline<E> pipeline = app.pipeline().create(settings.shards(), alerts);
        Progress progress = new Progress(args.has("no-progress") ? null : err, terminal, nanos);
        AppRunner.Summary summary = new AppRunner(err, nanos).run(app, source, pipeline, alerts,
                settings.maxDelay(), settings.skip(), progress);
        summary.print(o.banner);
        if (o.jsonTarget != null) {
            o.banner.println("alerts written to " + o.jsonTarget + " (JSON Lines)");
        }
        return OK;
    }

    /** The window example: payments aggregated three ways (tumbling reduce, sliding aggregate, sessions). */
    private int windows(List<String> rest) {
        Args args = Args.parse("windows", rest, Set.of(), Set.of("help"), 0);
        if (args.has("help")) {
            out.print(Help.of("windows"));
            return OK;
        }
        io.cepheus.examples.windows.PaymentWindows.run(io.cepheus.examples.windows.PaymentWindows.PAYMENTS)
                .forEach(out::println);
        return OK;
    }

    /** The interval-join study: orders joined to payments for R = 1, 5, 15, 60 minutes. */
    private int orderPayments(List<String> rest) {
        Args args = Args.parse("order-payments", rest, Set.of(), Set.of("help"), 0);
        if (args.has("help")) {
            out.print(Help.of("order-payments"));
            return OK;
        }
        List<io.cepheus.examples.joins.OrderPaymentStudy.Event> events =
                io.cepheus.examples.joins.OrderPaymentStudy.load();
        out.println(io.cepheus.examples.joins.OrderPaymentStudy.table(events,
                io.cepheus.examples.joins.OrderPaymentStudy.run(events)));
        return OK;
    }

    private void explain(ExampleApp<?> app) {
        out.println("# " + app.name() + ": " + app.title());
        for (Map.Entry<String, Pattern<?>> e : app.patterns().entrySet()) {
            CompiledPattern<?> compiled = NfaCompiler.compile(e.getValue());
            out.println();
            out.println("## " + e.getKey());
            out.println();
            out.println("Pattern: " + e.getValue());
            out.println("Compiled: " + compiled);
            out.println();
            out.println("Mermaid (renders on GitHub, or paste into https://mermaid.live):");
            out.println();
            out.println("```mermaid");
            out.print(ensureNewline(compiled.toMermaid()));
            out.println("```");
            out.println();
            out.println("DOT (render with: dot -Tsvg -o " + app.name() + ".svg):");
            out.println();
            out.println("```dot");
            out.print(ensureNewline(compiled.toDot()));
            out.println("```");
        }
    }

    private static String ensureNewline(String s) {
        return s.endsWith("\n") ? s : s + "\n";
    }

    // ---- outputs

    /**
     * Where a run's text goes. With {@code --out -} the JSON takes standard output, so the readable lines are
     * left out and the banner and summary go to standard error.
     */
    private final class Outputs implements AutoCloseable {
        final PrintStream banner;
        final PrintStream lines;
        final PrintStream json;
        final String jsonTarget;
        private final OutputStream file;

        Outputs(Args args) {
            String target = args.value("out");
            if (target == null) {
                banner = out;
                lines = out;
                json = null;
                jsonTarget = null;
                file = null;
            } else if (target.equals("-")) {
                banner = err;
                lines = null;
                json = out;
                jsonTarget = null;
                file = null;
            } else {
                try {
                    file = new BufferedOutputStream(Files.newOutputStream(Path.of(target)));
                } catch (NoSuchFileException e) {
                    Path parent = Path.of(target).toAbsolutePath().getParent();
                    throw new UncheckedIOException("cannot write " + target + ": no such directory " + parent, e);
                } catch (AccessDeniedException e) {
                    throw new UncheckedIOException("cannot write " + target + ": permission denied", e);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
                }
                banner = out;
                lines = out;
                json = new PrintStream(file, false, StandardCharsets.UTF_8);
                jsonTarget = target;
            }
        }

        @Override
        public void close() {
            if (json != null) {
                json.flush();
            }
            if (file != null) {
                json.close();
                if (json.checkError()) {
                    throw new UncheckedIOException(new IOException("writing " + jsonTarget + " failed"));
                }
            }
        }
    }

    private Outputs outputs(Args args) {
        return new Outputs(args);
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        java.util.Set<String> out = new java.util.HashSet<>(a);
        out.addAll(b);
        return out;
    }
}
