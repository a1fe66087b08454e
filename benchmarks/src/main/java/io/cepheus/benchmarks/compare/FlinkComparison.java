package io.cepheus.benchmarks.compare;

import io.cepheus.benchmarks.workloads.Workload;
import io.cepheus.benchmarks.workloads.WorkloadGenerator;
import io.cepheus.benchmarks.workloads.WorkloadStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The side-by-side comparison with Apache Flink, one command: generates each row's input once, runs Cepheus and Apache
 * Flink on it in this JVM ({@link ComparisonHarness}), checks their results are equal (and, on the full
 * default-seed CEP streams, equal to WORKLOADS.md), then prints the table and writes it to a Markdown file. Rows:
 * CEP W1-W4 (bare NFA and engine vs {@code CepOperator}), windows {@code tumbling}, {@code sliding},
 * {@code session} ({@link WindowInput}, engine vs {@code WindowOperator}) and {@code join} ({@link JoinInput},
 * engine vs {@code IntervalJoinOperator}).
 *
 * <pre>
 * java -Xms3g -Xmx3g -cp benchmarks/target/benchmarks.jar io.cepheus.benchmarks.compare.FlinkComparison \
 *      [--warmup 1] [--runs 3] [--events N] [--keys N] [--out benchmarks/target/flink-comparison.md] \
 *      [W1 ... | cep | windows]
 * </pre>
 *
 * <p>{@code --events N} feeds every engine only the first N elements of each input (WORKLOADS.md's counts then
 * do not apply, the engines must still agree); the table says so in its input column. {@code --keys N} draws the
 * window rows' keys from N values instead of 10,000 (the same times and amounts, so the per-key state, and how much
 * of it the cache holds, is what changes; {@code --keys 1} keeps every engine's state in the first-level cache);
 * the input column then says it is not the benchmark input. Exit status: 0 when every
 * comparison agreed, 1 on a result mismatch (no table is written), 2 on a bad command line.
 */
public final class FlinkComparison {

    private FlinkComparison() {
    }

    /**
     * @param args options and row names (default all), see the class comment
     * @throws Exception whatever an engine throws, or failing to write the results file
     */
    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("FlinkComparison: " + e.getMessage());
            System.err.println("usage: FlinkComparison [--warmup N] [--runs N] [--events N] [--keys N] [--out FILE]"
                    + " [ROW ...]"
                    + " (rows: " + String.join(" ", ROWS) + ", groups cep windows; default all)");
            System.exit(2);
            return;
        }
        String setting = String.format(Locale.ROOT,
                "%d warm-up + %d measured rounds per row, engines alternating, one thread; %s %s, max heap %d MB,"
                        + " %d processors", options.warmups, options.runs, System.getProperty("java.vm.name"),
                System.getProperty("java.version"), Runtime.getRuntime().maxMemory() >> 20,
                Runtime.getRuntime().availableProcessors());
        System.out.println("FlinkComparison: " + setting);
        System.out.println("JVM arguments: " + ManagementFactory.getRuntimeMXBean().getInputArguments());
        ComparisonHarness harness = new ComparisonHarness(options.warmups, options.runs, System.out);
        List<ComparisonOutcome> outcomes = new ArrayList<>();
        for (String row : options.rows) {
            Comparison comparison = build(row, options.events, options.keys);
            System.out.println(comparison.name() + ": " + comparison.input());
            try {
                outcomes.add(harness.run(comparison));
            } catch (ResultMismatchException e) {
                System.out.println();
                System.out.println("!!! RESULTS DIFFER, NO SPEED REPORTED !!!");
                System.out.println(e.getMessage());
                System.exit(1);
                return;
            }
        }
        String table = ComparisonReport.table(outcomes) + ComparisonReport.slidingVersusTumbling(outcomes);
        System.out.println();
        System.out.print(table);
        Path out = options.out.toAbsolutePath();
        Files.createDirectories(out.getParent());
        String command = "FlinkComparison " + String.join(" ", args) + " (JVM arguments "
                + ManagementFactory.getRuntimeMXBean().getInputArguments() + ")";
        Files.writeString(out, "# Cepheus vs Apache Flink\n\n`" + command + "`: " + setting + ".\n\n" + table,
                StandardCharsets.UTF_8);
        System.out.println();
        System.out.println("results written to " + out);
    }

    /** Every row name, in table order. */
    static final List<String> ROWS = List.of("W1", "W2", "W3", "W4", "tumbling", "sliding", "session", "join");

    /**
     * Generates a row's input (once) and builds its comparison.
     *
     * @param row    one of {@link #ROWS}
     * @param events 0 for the whole input, else feed only the first {@code events} elements
     * @param keys   the window rows' key count ({@link WindowInput#KEYS} for the benchmark input)
     * @return the comparison
     */
    static Comparison build(String row, int events, int keys) {
        return switch (row) {
            case "W1", "W2", "W3", "W4" -> {
                WorkloadStream stream = WorkloadGenerator.generate(Workload.valueOf(row));
                yield CepComparisons.of(stream, events > 0 ? Math.min(events, stream.size()) : stream.size());
            }
            case "tumbling", "sliding", "session" -> WindowComparisons.of(
                    WindowInput.generate(events > 0 ? Math.min(events, WindowInput.EVENTS) : WindowInput.EVENTS,
                            WindowInput.DEFAULT_SEED, keys, 1, WindowInput.MAX_DELAY_MS),
                    WindowSpec.valueOf(row.toUpperCase(Locale.ROOT)));
            case "join" -> {
                JoinInput input = JoinInput.generate(JoinInput.ORDERS, JoinInput.DEFAULT_SEED);
                yield JoinComparisons.of(events > 0 ? input.prefix(Math.min(events, input.elements().length))
                        : input);
            }
            default -> throw new IllegalArgumentException("unknown row '" + row + "'; known: " + ROWS);
        };
    }

    /** The parsed command line. */
    private static final class Options {
        int warmups = 1;
        int runs = 3;
        int events;
        int keys = WindowInput.KEYS;
        Path out = Path.of("benchmarks", "target", "flink-comparison.md");
        List<String> rows;

        static Options parse(String[] args) {
            Options options = new Options();
            List<String> names = new ArrayList<>();
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--warmup" -> options.warmups = number(args, ++i);
                    case "--runs" -> options.runs = number(args, ++i);
                    case "--events" -> options.events = number(args, ++i);
                    case "--keys" -> options.keys = number(args, ++i);
                    case "--out" -> options.out = Path.of(value(args, ++i));
                    default -> names.add(args[i]);
                }
            }
            if (options.runs < 1 || options.warmups < 0 || options.events < 0 || options.keys < 1) {
                throw new IllegalArgumentException("need --runs >= 1, --warmup >= 0, --events >= 0 and --keys >= 1");
            }
            options.rows = rows(names);
            return options;
        }

        /** Row names, case-insensitive, plus the groups {@code cep} (W1-W4) and {@code windows}; none means all. */
        private static List<String> rows(List<String> names) {
            if (names.isEmpty()) {
                return ROWS;
            }
            java.util.Set<String> chosen = new java.util.HashSet<>();
            for (String name : names) {
                String lower = name.toLowerCase(Locale.ROOT);
                switch (lower) {
                    case "cep" -> chosen.addAll(ROWS.subList(0, 4));
                    case "windows" -> chosen.addAll(ROWS.subList(4, 7));
                    default -> {
                        String row = ROWS.stream().filter(r -> r.equalsIgnoreCase(lower)).findFirst()
                                .orElseThrow(() -> new IllegalArgumentException("unknown row '" + name
                                        + "'; known: " + String.join(" ", ROWS) + ", and the groups cep, windows"));
                        chosen.add(row);
                    }
                }
            }
            return ROWS.stream().filter(chosen::contains).toList();
        }

        private static int number(String[] args, int at) {
            String text = value(args, at);
            try {
                return Integer.parseInt(text.replace("_", "").replace(",", ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(args[at - 1] + " needs a whole number, got '" + text + "'", e);
            }
        }

        /** The value following the option at {@code at - 1}. */
        private static String value(String[] args, int at) {
            if (at >= args.length) {
                throw new IllegalArgumentException(args[at - 1] + " needs a value");
            }
            return args[at];
        }
    }
}
