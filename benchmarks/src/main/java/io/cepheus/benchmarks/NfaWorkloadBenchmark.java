package io.cepheus.benchmarks;

import com.carrotsearch.hppc.IntObjectHashMap;
import io.cepheus.benchmarks.workloads.*;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH throughput of the NFA on workloads W1-W4, in events per second (one JMH operation = one event).
 *
 * <p>One invocation runs {@value #EVENTS_PER_INVOCATION} events: the whole stream through a fresh matcher and
 * fresh per-key states (W1, W2, W4), or the 200,000-event W3 stream five times, each pass fresh. JMH needs
 * the operation count as a compile-time constant, so all workloads are brought to the same count rather than
 * splitting the suite. The stream is generated and the pattern compiled once per trial, outside the
 * measurement; the counts are checked against WORKLOADS.md before the first iteration and after every
 * iteration, and a mismatch fails the benchmark instead of producing a score.
 *
 * <p>Allocation per event: run with JMH's GC profiler and read {@code gc.alloc.rate.norm} (bytes per
 * operation, i.e. per event):
 * <pre>
 * mvn -B -ntp -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar NfaWorkloadBenchmark -prof gc
 * java -jar benchmarks/target/benchmarks.jar NfaWorkloadBenchmark.matchWholeStream -p workload=W2 -prof gc \
 *      -wi 2 -i 3
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
public class NfaWorkloadBenchmark {

    /** Events per invocation: the size of the largest stream, a multiple of every stream's size. */
    static final int EVENTS_PER_INVOCATION = 1_000_000;

    /** The workload to run. */
    @Param({"W1", "W2", "W3", "W4"})
    public Workload workload;

    /**
     * Events per read-ahead group ({@link WorkloadRunner#withReadAhead}): 0 steps each event as it comes; 16 first
     * reads the key states of the next 16 events, so that their cache misses overlap.
     */
    @Param({"0", "16"})
    public int readAhead;

    private WorkloadStream stream;
    private WorkloadRunner runner;
    private int passes;
    private RunResult lastResult;

    /** Generates the stream, compiles the pattern and checks the counts once before measuring. */
    @Setup(Level.Trial)
    public void generateAndVerify() {
        stream = WorkloadGenerator.generate(workload);
        if (EVENTS_PER_INVOCATION % stream.size() != 0) {
            throw new IllegalStateException(workload + ": " + stream.size() + " events do not divide "
                    + EVENTS_PER_INVOCATION);
        }
        passes = EVENTS_PER_INVOCATION / stream.size();
        runner = WorkloadRunner.forWorkload(workload).withReadAhead(readAhead);
        lastResult = runner.run(stream);
        checkCounts();
    }

    /** Fails the benchmark if the last measured run did not produce the expected counts. */
    @TearDown(Level.Iteration)
    public void checkCounts() {
        List<String> differences = lastResult.differencesFrom(workload);
        if (!differences.isEmpty()) {
            throw new IllegalStateException(workload + " counts differ from WORKLOADS.md, no score: " + differences);
        }
    }

    /**
     * The whole engine as a shard drives it: per-key state lookup, event-time advance, condition evaluation,
     * shared-buffer updates, match extraction ({@code Match} objects) and the final flush of open partial
     * matches. This is the number to compare with other engines.
     *
     * @return the last pass's result, so the work cannot be optimised away
     */
    @Benchmark
    @OperationsPerInvocation(EVENTS_PER_INVOCATION)
    public RunResult matchWholeStream() {
        RunResult result = null;
        for (int pass = 0; pass < passes; pass++) {
            result = runner.run(stream);
        }
        lastResult = result;
        return result;
    }

    /**
     * Only the harness around the engine: walking the stream, the per-key hppc map lookup (with one object
     * created per new key, as {@code newState} does) and reading each event object. Subtracting its time per
     * event from {@link #matchWholeStream()}'s isolates what the NFA itself costs.
     *
     * @return a value depending on every event, so the loop cannot be optimised away
     */
    @Benchmark
    @OperationsPerInvocation(EVENTS_PER_INVOCATION)
    public long harnessOnly() {
        long sum = 0;
        for (int pass = 0; pass < passes; pass++) {
            sum += walkWithoutMatching(stream);
        }
        return sum;
    }

    private static long walkWithoutMatching(WorkloadStream stream) {
        IntObjectHashMap<int[]> perKey = new IntObjectHashMap<>(stream.workload().keys());
        int[] keys = stream.keys();
        BenchEvent[] events = stream.events();
        long sum = 0;
        for (int i = 0; i < events.length; i++) {
            int key = keys[i];
            int slot = perKey.indexOf(key);
            int[] seen;
            if (perKey.indexExists(slot)) {
                seen = perKey.indexGet(slot);
            } else {
                seen = new int[1];
                perKey.indexInsert(slot, key, seen);
            }
            seen[0] += events[i].type();
            sum += seen[0];
        }
        return sum;
    }
}
