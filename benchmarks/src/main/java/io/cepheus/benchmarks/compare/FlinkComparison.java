package io.cepheus.benchmarks.compare;

import io.cepheus.examples.workloads.Workload;
import io.cepheus.examples.workloads.WorkloadGenerator;
import io.cepheus.examples.workloads.WorkloadSelection;
import io.cepheus.examples.workloads.WorkloadStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The side-by-side comparison of issue 5, one command: generates each workload once, runs Cepheus and Apache
 * Flink on it in this JVM ({@link ComparisonHarness}), checks their results are equal (and, on the full
 * default-seed streams, equal to WORKLOADS.md), then prints the table and writes it to a Markdown file.
 *
 * <pre>
 * java -Xms3g -Xmx3g -cp benchmarks/target/benchmarks.jar io.cepheus.benchmarks.compare.FlinkComparison \
 *      [--warmup 1] [--runs 3] [--events N] [--out benchmarks/target/flink-comparison.md] [W1 ...]
 * </pre>
 *
 * <p>{@code --events N} feeds both engines only the first N events of each stream (WORKLOADS.md's counts then
 * do not apply, the engines must still agree); the table says so in its input column. Exit status: 0 when every
 * comparison agreed, 1 on a result mismatch (no table is written), 2 on a bad command line.
 */
public final class FlinkComparison {

    private FlinkComparison() {
    }

    /**
     * @param args options and workload names (default all four), see the class comment
     * @throws Exception whatever an engine throws, or failing to write the results file
     */
    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("FlinkComparison: " + e.getMessage());
            System.err.println("usage: FlinkComparison [--warmup N] [--runs N] [--events N] [--out FILE] [W1 ...]");
            System.exit(2);
            return;
        }
        String setting = String.format(Locale.ROOT,
                "%d warm-up + %d measured rounds per workload, engines alternating, one thread; %s %s, max heap %d MB,"
                        + " %d processors", options.warmups, options.runs, System.getProperty("java.vm.name"),
                System.getProperty("java.version"), Runtime.getRuntime().maxMemory() >> 20,
                Runtime.getRuntime().availableProcessors());
        System.out.println("FlinkComparison: " + setting);
        System.out.println("JVM arguments: " + ManagementFactory.getRuntimeMXBean().getInputArguments());
        ComparisonHarness harness = new ComparisonHarness(options.warmups, options.runs, System.out);
        List<ComparisonOutcome> outcomes = new ArrayList<>();
        for (Workload workload : options.workloads) {
            WorkloadStream stream = WorkloadGenerator.generate(workload);
            int length = options.events > 0 ? Math.min(options.events, stream.size()) : stream.size();
            Comparison comparison = CepComparisons.of(stream, length);
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
        String table = ComparisonReport.table(outcomes);
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

    /** The parsed command line. */
    private static final class Options {
        int warmups = 1;
        int runs = 3;
        int events;
        Path out = Path.of("benchmarks", "target", "flink-comparison.md");
        List<Workload> workloads;

        static Options parse(String[] args) {
            Options options = new Options();
            List<String> names = new ArrayList<>();
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--warmup" -> options.warmups = number(args, ++i);
                    case "--runs" -> options.runs = number(args, ++i);
                    case "--events" -> options.events = number(args, ++i);
                    case "--out" -> options.out = Path.of(value(args, ++i));
                    default -> names.add(args[i]);
                }
            }
            if (options.runs < 1 || options.warmups < 0 || options.events < 0) {
                throw new IllegalArgumentException("need --runs >= 1, --warmup >= 0 and --events >= 0");
            }
            options.workloads = WorkloadSelection.parse(names);
            return options;
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
