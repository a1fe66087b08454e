package io.cepheus.benchmarks;

import io.cepheus.benchmarks.workloads.*;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * End-to-end throughput and latency of the runtime engine on W1-W4, next to the bare NFA in the same JVM on
 * the same stream.
 *
 * <p>Throughput: per workload, rounds of one run each of the bare NFA ({@link WorkloadRunner}, as
 * {@link QuickBench} runs it) and of the engine with each shard count ({@link RuntimeWorkloadRunner}, one
 * producer on this thread, a watermark every 1,000 events). The contenders alternate within a round, so the
 * drift of a noisy machine hits them alike; the first rounds are warm-up. Printed: median events/s per
 * contender, the engine's ratio to the bare NFA and, for more shards, to one shard. Every run's counts and
 * checksum are compared with WORKLOADS.md first; a workload whose counts differ gets no speed (exit status 1).
 *
 * <p>Latency: the engine is fed one workload at a steady rate (a busy-waiting producer), and every match's
 * time from the scheduled send of its last event to its handler is recorded; printed per run, then the
 * median p50 and p99 over the runs. Events wait in the shard until a watermark passes them (event time), so
 * the watermark interval is part of the latency: {@code --latency-watermark-every} takes several intervals to
 * show how much. The pacing producer spins, so it occupies a core of its own: a rate the shards cannot
 * sustain on the cores left shows as a growing backlog (the run says the producer fell behind), not as a
 * latency figure.
 *
 * <pre>
 * java -Xms2g -Xmx2g -cp benchmarks/target/benchmarks.jar io.cepheus.benchmarks.RuntimeQuickBench \
 *      [--warmup 3] [--runs 5] [--shards 1,2] [W1 ...] \
 *      [--latency W1] [--rate 1000000] [--latency-shards 1] [--latency-watermark-every 1000,100] \
 *      [--latency-warmup 2] [--latency-runs 3] [--no-latency] [--no-throughput]
 * </pre>
 */
public final class RuntimeQuickBench {

    private RuntimeQuickBench() {
    }

    /** One way of running a workload stream, timed like the others. */
    private record Contender(String name, int shards, Function<WorkloadStream, RunResult> runner) {
    }

    /** @param args see the class comment; workloads default to all four */
    public static void main(String[] args) {
        Options options = Options.parse(args);
        System.out.printf(Locale.ROOT, "RuntimeQuickBench: %d warm-up + %d timed rounds per workload, shards %s, "
                        + "%d processors, %s %s%n", options.warmups, options.runs, Arrays.toString(options.shards),
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"),
                System.getProperty("java.version"));
        boolean allAgree = true;
        if (options.throughput) {
            for (Workload workload : WorkloadSelection.parse(options.workloads)) {
                allAgree &= throughput(workload, options);
            }
        }
        if (options.latency != null && allAgree) {
            allAgree = latency(options);
        }
        System.exit(allAgree ? 0 : 1);
    }

    private static boolean throughput(Workload workload, Options options) {
        WorkloadStream stream = WorkloadGenerator.generate(workload);
        List<Contender> contenders = new ArrayList<>();
        WorkloadRunner nfa = WorkloadRunner.forWorkload(workload);
        contenders.add(new Contender("bare NFA", 0, nfa::run));
        // the same step API, the driver reading the next 16 keys' states first: what a caller can get from it
        WorkloadRunner nfaReadingAhead = nfa.withReadAhead(WorkloadRunner.DEFAULT_READ_AHEAD);
        contenders.add(new Contender("bare, read-ahead", -1, nfaReadingAhead::run));
        for (int shards : options.shards) {
            RuntimeWorkloadRunner runtime = RuntimeWorkloadRunner.forWorkload(workload, shards);
            contenders.add(new Contender("engine, " + shards + (shards == 1 ? " shard" : " shards"), shards,
                    runtime::run));
        }
        for (int round = 0; round < options.warmups; round++) {
            for (Contender contender : contenders) {
                if (!agrees(workload, contender, contender.runner.apply(stream))) {
                    return false;
                }
            }
        }
        double[][] rates = new double[contenders.size()][options.runs];
        for (int round = 0; round < options.runs; round++) {
            for (int c = 0; c < contenders.size(); c++) {
                Contender contender = contenders.get(c);
                long start = StopwatchClock.nanos();
                RunResult result = contender.runner.apply(stream);
                long nanos = StopwatchClock.nanos() - start;
                if (!agrees(workload, contender, result)) {
                    return false;
                }
                rates[c][round] = stream.size() * 1e9 / nanos;
            }
        }
        System.out.printf(Locale.ROOT, "%s: %,d events, counts OK in every run (%,d matches%s)%n", workload,
                stream.size(), workload.expectedMatches(),
                workload.countsTimeouts() ? String.format(Locale.ROOT, ", %,d timeouts", workload.expectedTimeouts())
                        : "");
        double nfaMedian = median(rates[0]);
        double oneShardMedian = Double.NaN;
        for (int c = 0; c < contenders.size(); c++) {
            Contender contender = contenders.get(c);
            double[] sorted = rates[c].clone();
            Arrays.sort(sorted);
            double m = median(rates[c]);
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                    "  %-17s median %6.3f M events/s (min %.3f, max %.3f)", contender.name, m / 1e6,
                    sorted[0] / 1e6, sorted[sorted.length - 1] / 1e6));
            if (c > 0) {
                // time per event relative to the bare NFA's plain loop: +30% is the bound for one shard
                line.append(String.format(Locale.ROOT, "   %.2fx NFA (%+.0f%% time/event)", m / nfaMedian,
                        (nfaMedian / m - 1) * 100));
            }
            if (contender.shards == 1) {
                oneShardMedian = m;
            } else if (contender.shards > 1 && !Double.isNaN(oneShardMedian)) {
                line.append(String.format(Locale.ROOT, ", %.2fx 1 shard", m / oneShardMedian));
            }
            System.out.println(line);
        }
        return true;
    }

    private static boolean latency(Options options) {
        Workload workload = options.latency;
        WorkloadStream stream = WorkloadGenerator.generate(workload);
        for (int shards : options.latencyShards) {
            for (int interval : options.latencyWatermarkEvery) {
                RuntimeWorkloadRunner runner = new RuntimeWorkloadRunner(workload, shards, interval);
                System.out.printf(Locale.ROOT, "latency %s at %.3f M events/s, %d shard(s), watermark every %,d "
                        + "events (send due -> match handler):%n", workload, options.rate / 1e6, shards, interval);
                for (int i = 0; i < options.latencyWarmups; i++) {
                    if (!agrees(workload, null, runner.runPaced(stream, options.rate).result())) {
                        return false;
                    }
                }
                long[] p50 = new long[options.latencyRuns];
                long[] p99 = new long[options.latencyRuns];
                for (int i = 0; i < options.latencyRuns; i++) {
                    PacedRun run = runner.runPaced(stream, options.rate);
                    if (!agrees(workload, null, run.result())) {
                        return false;
                    }
                    p50[i] = run.percentile(0.50);
                    p99[i] = run.percentile(0.99);
                    System.out.println("  run " + (i + 1) + ": " + run.summary());
                    if (run.achievedEventsPerSecond() < 0.98 * options.rate) {
                        System.out.println("    (the producer fell behind the rate: latencies include the backlog)");
                    }
                }
                System.out.printf(Locale.ROOT, "  median over %d runs: p50 %,.0f us, p99 %,.0f us%n",
                        options.latencyRuns, medianOf(p50) / 1e3, medianOf(p99) / 1e3);
            }
        }
        return true;
    }

    /** Prints the differences and returns false when a run's counts are not those of WORKLOADS.md. */
    private static boolean agrees(Workload workload, Contender contender, RunResult result) {
        List<String> differences = result.differencesFrom(workload);
        if (differences.isEmpty()) {
            return true;
        }
        System.out.println(workload + (contender == null ? "" : " (" + contender.name + ")")
                + ": COUNTS DIFFER from WORKLOADS.md, no speed reported:");
        for (String difference : differences) {
            System.out.println("    " + difference);
        }
        return false;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    private static double medianOf(long[] values) {
        double[] asDoubles = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            asDoubles[i] = values[i];
        }
        return median(asDoubles);
    }

    /** The command line. */
    private static final class Options {
        int warmups = 3;
        int runs = 5;
        int[] shards = {1, 2};
        List<String> workloads = new ArrayList<>();
        /** W1 by default: the one workload one shard sustains at 1M events/s on a 2-core machine (see README). */
        Workload latency = Workload.W1;
        long rate = 1_000_000;
        int[] latencyShards = {1};
        int[] latencyWatermarkEvery = {RuntimeWorkloadRunner.WATERMARK_INTERVAL, 100};
        int latencyWarmups = 2;
        int latencyRuns = 3;
        boolean throughput = true;

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--warmup" -> o.warmups = Integer.parseInt(value(args, ++i));
                    case "--runs" -> o.runs = Integer.parseInt(value(args, ++i));
                    case "--shards" -> o.shards = ints(value(args, ++i));
                    case "--latency" -> o.latency = WorkloadSelection.parse(List.of(value(args, ++i))).get(0);
                    case "--no-latency" -> o.latency = null;
                    case "--no-throughput" -> o.throughput = false;
                    case "--rate" -> o.rate = Long.parseLong(value(args, ++i));
                    case "--latency-shards" -> o.latencyShards = ints(value(args, ++i));
                    case "--latency-watermark-every" -> o.latencyWatermarkEvery = ints(value(args, ++i));
                    case "--latency-warmup" -> o.latencyWarmups = Integer.parseInt(value(args, ++i));
                    case "--latency-runs" -> o.latencyRuns = Integer.parseInt(value(args, ++i));
                    default -> {
                        if (args[i].startsWith("--")) {
                            throw new IllegalArgumentException("unknown option " + args[i]);
                        }
                        o.workloads.add(args[i]);
                    }
                }
            }
            if (o.runs < 1 || o.warmups < 0 || o.latencyRuns < 1 || o.latencyWarmups < 0 || o.rate < 1) {
                throw new IllegalArgumentException("need --runs >= 1, --warmup >= 0, --latency-runs >= 1,"
                        + " --latency-warmup >= 0, --rate >= 1");
            }
            return o;
        }

        private static String value(String[] args, int i) {
            if (i >= args.length) {
                throw new IllegalArgumentException(args[i - 1] + " needs a value");
            }
            return args[i];
        }

        /** "1,2" -> {1, 2}; every value at least 1. */
        private static int[] ints(String commaSeparated) {
            int[] out = Arrays.stream(commaSeparated.split(",")).mapToInt(s -> Integer.parseInt(s.trim())).toArray();
            for (int v : out) {
                if (v < 1) {
                    throw new IllegalArgumentException("values must be at least 1: " + commaSeparated);
                }
            }
            return out;
        }
    }
}
