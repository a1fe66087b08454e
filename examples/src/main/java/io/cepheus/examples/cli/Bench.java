package io.cepheus.examples.cli;

import io.cepheus.examples.workloads.MatchChecksum;
import io.cepheus.examples.workloads.RunResult;
import io.cepheus.examples.workloads.Workload;
import io.cepheus.examples.workloads.WorkloadGenerator;
import io.cepheus.examples.workloads.WorkloadRunner;
import io.cepheus.examples.workloads.WorkloadStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The {@code bench} command: the workloads W1–W4 of {@code shared/bench/WORKLOADS.md} through the NFA on one
 * thread ({@link WorkloadRunner}), several runs each, the median speed printed with the match counts, and the
 * counts and checksums checked against the ones WORKLOADS.md publishes. A quick look, not a benchmark:
 * {@code benchmarks/} has JMH and the engine runs.
 */
public final class Bench {

    private final PrintStream out;
    private final LongSupplier nanos;

    /**
     * @param out   where the table goes
     * @param nanos a monotonic clock
     */
    public Bench(PrintStream out, LongSupplier nanos) {
        this.out = out;
        this.nanos = nanos;
    }

    /**
     * @param workloads the workloads to run
     * @param runs      runs per workload (the median is reported)
     * @return whether every count and checksum agreed with WORKLOADS.md
     */
    public boolean run(List<Workload> workloads, int runs) {
        out.printf(Locale.ROOT, "W1-W4 of shared/bench/WORKLOADS.md through the NFA, one thread, median of %d run%s%n%n",
                runs, runs == 1 ? "" : "s");
        out.printf(Locale.ROOT, "%-8s %10s %14s %10s %10s  %-16s  %s%n", "workload", "events", "events/s", "matches",
                "timeouts", "checksum", "check");
        boolean allAgree = true;
        for (Workload workload : workloads) {
            WorkloadStream stream = WorkloadGenerator.generate(workload);
            WorkloadRunner runner = WorkloadRunner.forWorkload(workload);
            long[] nanosPerRun = new long[runs];
            RunResult result = null;
            for (int i = 0; i < runs; i++) {
                long start = nanos.getAsLong();
                RunResult r = runner.run(stream);
                nanosPerRun[i] = Math.max(1, nanos.getAsLong() - start);
                if (result != null && !result.equals(r)) {
                    throw new IllegalStateException(workload + ": two runs disagree: " + result + " and " + r);
                }
                result = r;
            }
            Arrays.sort(nanosPerRun);
            long median = nanosPerRun[runs / 2];
            List<String> differences = result.differencesFrom(workload);
            allAgree &= differences.isEmpty();
            out.printf(Locale.ROOT, "%-8s %,10d %,14d %,10d %10s  %-16s  %s%n", workload, stream.size(),
                    Math.round(stream.size() * 1e9 / median), result.matches(),
                    workload.countsTimeouts() ? String.format(Locale.ROOT, "%,d", result.timeouts()) : "-",
                    MatchChecksum.hex(result.checksum()),
                    differences.isEmpty() ? "OK" : "MISMATCH: " + String.join("; ", differences));
        }
        out.println();
        out.println(allAgree ? "every count and checksum agrees with WORKLOADS.md"
                : "MISMATCH: some counts differ from WORKLOADS.md");
        return allAgree;
    }
}
