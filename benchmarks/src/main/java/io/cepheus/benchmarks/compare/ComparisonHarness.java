package io.cepheus.benchmarks.compare;

import io.cepheus.benchmarks.StopwatchClock;
import io.cepheus.benchmarks.workloads.RunResult;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Runs the two engines of a {@link Comparison} side by side in this JVM: warm-up runs, then measured runs,
 * alternating which engine goes first from one round to the next so that neither always runs on a heap or
 * CPU the other just left in some state. Every run (warm-up included) must produce the same result as
 * Cepheus's first run (matches, timeouts, checksum), and that result must satisfy the comparison's
 * specification; otherwise a {@link ResultMismatchException} ends the comparison before any speed is known.
 *
 * <p>A run: {@link Contender#prepare()} (untimed), full GCs until used heap settles, then {@link Trial#feed()}
 * timed by {@link StopwatchClock} with the bytes this thread allocates counted by
 * {@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}, then (for comparisons that ask) another full
 * GC while the trial is still referenced, so the difference in used heap is what the engine's state retains.
 *
 * <p>Owned by one thread, which runs both engines.
 */
public final class ComparisonHarness {

    private static final int MAX_GCS = 5;
    private static final long SETTLED_BYTES = 64 << 10;

    private final int warmups;
    private final int runs;
    private final PrintStream log;
    private final com.sun.management.ThreadMXBean threads;
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();

    /**
     * @param warmups unmeasured rounds per comparison (each runs both engines), at least 0
     * @param runs    measured rounds per comparison, at least 1
     * @param log     where progress lines go
     */
    public ComparisonHarness(int warmups, int runs, PrintStream log) {
        if (warmups < 0 || runs < 1) {
            throw new IllegalArgumentException("need warm-up rounds >= 0 and measured rounds >= 1, got " + warmups
                    + " and " + runs);
        }
        this.warmups = warmups;
        this.runs = runs;
        this.log = log;
        this.threads = allocationCounter();
    }

    /**
     * @param comparison what to run
     * @return both engines' measurements
     * @throws ResultMismatchException if any run's result differs from another's or from the specification
     * @throws Exception               whatever an engine throws
     */
    public ComparisonOutcome run(Comparison comparison) throws Exception {
        RunResult reference = null;
        for (int round = 0; round < warmups; round++) {
            for (Contender contender : order(comparison, round, comparison.flinkRunsIn(round, warmups))) {
                Sample sample = measure(comparison, contender);
                reference = check(comparison, contender, reference, sample.result);
                progress(comparison, "warm-up", round, contender, sample);
            }
        }
        List<Contender> contenders = comparison.contenders();
        int sides = contenders.size();
        double[][] rates = new double[sides][runs];
        double[][] bytes = new double[sides][runs];
        long[][] retained = new long[sides][runs];
        int[] measured = new int[sides];
        for (int round = 0; round < runs; round++) {
            for (Contender contender : order(comparison, round,
                    comparison.flinkRunsIn(warmups + round, warmups))) {
                Sample sample = measure(comparison, contender);
                reference = check(comparison, contender, reference, sample.result);
                progress(comparison, "run", round, contender, sample);
                int side = contenders.indexOf(contender);
                int at = measured[side]++;
                rates[side][at] = sample.eventsPerSecond;
                bytes[side][at] = sample.bytesPerEvent;
                retained[side][at] = sample.retainedBytes;
            }
        }
        boolean heap = comparison.retainedHeap();
        List<EngineStats> stats = new ArrayList<>();
        for (int side = 0; side < sides; side++) {
            int n = measured[side];
            stats.add(new EngineStats(contenders.get(side).engine(), reference, Arrays.copyOf(rates[side], n),
                    Arrays.copyOf(bytes[side], n), heap ? Arrays.copyOf(retained[side], n) : null));
        }
        return new ComparisonOutcome(comparison, stats.subList(0, sides - 1), stats.get(sides - 1));
    }

    /**
     * Cepheus's contenders then Flink in even rounds, the reverse in odd ones (warm-up and measured rounds each
     * counted from 0); Flink left out of the rounds the comparison excludes it from.
     */
    private static List<Contender> order(Comparison comparison, int round, boolean withFlink) {
        List<Contender> all = comparison.contenders();
        if (!withFlink) {
            all.remove(comparison.flink());
        }
        if (round % 2 == 1) {
            Collections.reverse(all);
        }
        return all;
    }

    private RunResult check(Comparison comparison, Contender contender, RunResult reference, RunResult result) {
        List<String> specDifferences = comparison.specCheck().apply(result);
        if (!specDifferences.isEmpty()) {
            throw new ResultMismatchException(comparison.name() + ": " + contender.engine()
                    + " does not reproduce the specified result (" + result + "): " + specDifferences);
        }
        if (reference != null && !reference.equals(result)) {
            throw new ResultMismatchException(comparison.name() + " (" + comparison.input() + "): "
                    + contender.engine() + " produced " + result + ", but the first run produced " + reference);
        }
        return reference == null ? result : reference;
    }

    private Sample measure(Comparison comparison, Contender contender) throws Exception {
        long threadId = Thread.currentThread().getId();
        try (Trial trial = contender.prepare()) {
            long usedBefore = settledHeapUsed();
            long allocatedBefore = threads.getThreadAllocatedBytes(threadId);
            long start = StopwatchClock.nanos();
            RunResult result = trial.feed();
            long nanos = StopwatchClock.nanos() - start;
            long allocated = threads.getThreadAllocatedBytes(threadId) - allocatedBefore;
            long retained = 0;
            if (comparison.retainedHeap()) {
                retained = settledHeapUsed() - usedBefore;
            }
            // the trial (engine and state) must stay reachable until the heap has been measured
            Reference.reachabilityFence(trial);
            int events = comparison.events();
            return new Sample(result, events * 1e9 / Math.max(1, nanos), (double) allocated / events, retained);
        }
    }

    /**
     * Used heap after full GCs, repeated (at most {@value #MAX_GCS} times) until it stops shrinking by more than
     * {@value #SETTLED_BYTES} bytes: one GC can leave objects that a cleaner thread releases only after it (an
     * engine closed in the previous run), which would otherwise be counted against this run.
     */
    private long settledHeapUsed() {
        System.gc();
        long used = memory.getHeapMemoryUsage().getUsed();
        for (int i = 1; i < MAX_GCS; i++) {
            System.gc();
            long now = memory.getHeapMemoryUsage().getUsed();
            boolean settled = used - now < SETTLED_BYTES;
            used = now;
            if (settled) {
                break;
            }
        }
        return used;
    }

    private void progress(Comparison comparison, String kind, int round, Contender contender, Sample sample) {
        log.printf(Locale.ROOT, "  %-16s %-8s %d  %-22s %8.3f M events/s  %8.0f B/event  %s%n", comparison.name(),
                kind, round + 1, contender.engine(), sample.eventsPerSecond / 1e6, sample.bytesPerEvent,
                sample.result);
    }

    private static com.sun.management.ThreadMXBean allocationCounter() {
        if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean counter)
                || !counter.isThreadAllocatedMemorySupported()) {
            throw new IllegalStateException("this JVM cannot count allocated bytes per thread");
        }
        counter.setThreadAllocatedMemoryEnabled(true);
        return counter;
    }

    /** One run's figures. */
    private record Sample(RunResult result, double eventsPerSecond, double bytesPerEvent, long retainedBytes) {
    }
}
