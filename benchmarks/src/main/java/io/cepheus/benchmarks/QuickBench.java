package io.cepheus.benchmarks;

import io.cepheus.benchmarks.workloads.*;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A quick single-thread benchmark without JMH: per workload, warm-up runs then timed runs of the whole stream
 * (fresh matcher and states each run), printing the median events/s and the bytes allocated per event by
 * this thread during the timed runs. These are the "bench" numbers for notes; use {@link NfaWorkloadBenchmark}
 * for careful measurements.
 *
 * <p>Counts come first: every run's matches, timeouts and checksum are compared with WORKLOADS.md, and a
 * workload whose counts differ gets no speed printed (and the exit status is 1). A fast wrong engine is not
 * a result.
 *
 * <pre>
 * java -Xms2g -Xmx2g -cp benchmarks/target/benchmarks.jar io.cepheus.benchmarks.QuickBench \
 *      [--warmup 3] [--runs 5] [--read-ahead 16] [--release-idle] [W1 ...]
 * </pre>
 */
public final class QuickBench {

    private QuickBench() {
    }

    /**
     * @param args {@code --warmup N}, {@code --runs N}, {@code --read-ahead N} (events per read-ahead group,
     *             {@link WorkloadRunner#withReadAhead}; default 0, none), {@code --release-idle} (keep states only for
     *             keys with something pending, {@link WorkloadRunner#withIdleRelease}) and workload names (default:
     *             all four)
     */
    public static void main(String[] args) {
        int warmups = 3;
        int runs = 5;
        int readAhead = 0;
        boolean releaseIdle = false;
        List<String> names = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--warmup" -> warmups = Integer.parseInt(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--read-ahead" -> readAhead = Integer.parseInt(args[++i]);
                case "--release-idle" -> releaseIdle = true;
                default -> names.add(args[i]);
            }
        }
        if (runs < 1 || warmups < 0) {
            throw new IllegalArgumentException("need --runs >= 1 and --warmup >= 0");
        }
        com.sun.management.ThreadMXBean threads = allocationCounter();
        System.out.printf(Locale.ROOT, "QuickBench: %d warm-up + %d timed runs per workload, single thread, %s, %s, %s %s%n",
                warmups, runs, readAhead == 0 ? "no read-ahead" : "read-ahead " + readAhead + " events",
                releaseIdle ? "idle keys released" : "every key's state kept",
                System.getProperty("java.vm.name"), System.getProperty("java.version"));
        boolean allAgree = true;
        for (Workload workload : WorkloadSelection.parse(names)) {
            allAgree &= bench(workload, warmups, runs, readAhead, releaseIdle, threads);
        }
        System.exit(allAgree ? 0 : 1);
    }

    private static boolean bench(Workload workload, int warmups, int runs, int readAhead, boolean releaseIdle,
            com.sun.management.ThreadMXBean threads) {
        WorkloadStream stream = WorkloadGenerator.generate(workload);
        WorkloadRunner runner = WorkloadRunner.forWorkload(workload).withReadAhead(readAhead);
        if (releaseIdle) {
            runner = runner.withIdleRelease();
        }
        long threadId = Thread.currentThread().getId();
        for (int i = 0; i < warmups; i++) {
            if (!agrees(workload, runner.run(stream))) {
                return false;
            }
        }
        double[] eventsPerSecond = new double[runs];
        double[] bytesPerEvent = new double[runs];
        RunResult last = null;
        for (int i = 0; i < runs; i++) {
            long allocatedBefore = threads.getThreadAllocatedBytes(threadId);
            long start = StopwatchClock.nanos();
            RunResult result = runner.run(stream);
            long nanos = StopwatchClock.nanos() - start;
            long allocated = threads.getThreadAllocatedBytes(threadId) - allocatedBefore;
            if (!agrees(workload, result)) {
                return false;
            }
            last = result;
            eventsPerSecond[i] = stream.size() * 1e9 / nanos;
            bytesPerEvent[i] = (double) allocated / stream.size();
        }
        double[] sortedRates = eventsPerSecond.clone();
        Arrays.sort(sortedRates);
        System.out.printf(Locale.ROOT, "%s: %,d events, counts OK (%,d matches, %,d timeouts): median %.3f M events/s "
                        + "(min %.3f, max %.3f), %.0f B allocated/event (median)%n",
                workload, stream.size(), last.matches(), last.timeouts(), median(eventsPerSecond) / 1e6,
                sortedRates[0] / 1e6, sortedRates[runs - 1] / 1e6, median(bytesPerEvent));
        return true;
    }

    /** Prints the differences and returns false when a run's counts are not those of WORKLOADS.md. */
    private static boolean agrees(Workload workload, RunResult result) {
        List<String> differences = result.differencesFrom(workload);
        if (differences.isEmpty()) {
            return true;
        }
        System.out.printf(Locale.ROOT, "%s: COUNTS DIFFER from WORKLOADS.md (%s); no speed reported%n", workload,
                result);
        for (String difference : differences) {
            System.out.println("    " + difference);
        }
        return false;
    }

    private static com.sun.management.ThreadMXBean allocationCounter() {
        if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads)
                || !threads.isThreadAllocatedMemorySupported()) {
            throw new IllegalStateException("this JVM cannot count allocated bytes per thread");
        }
        threads.setThreadAllocatedMemoryEnabled(true);
        return threads;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
