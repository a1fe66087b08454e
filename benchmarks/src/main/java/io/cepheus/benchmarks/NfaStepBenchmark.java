package io.cepheus.benchmarks;

import io.cepheus.benchmarks.workloads.BenchEvent;
import io.cepheus.benchmarks.workloads.CountingSink;
import io.cepheus.benchmarks.workloads.Workload;
import io.cepheus.benchmarks.workloads.WorkloadGenerator;
import io.cepheus.benchmarks.workloads.WorkloadStream;
import io.cepheus.benchmarks.workloads.Workloads;
import io.cepheus.nfa.NfaCompiler;
import io.cepheus.nfa.NfaMatcher;
import io.cepheus.nfa.NfaState;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The NFA step alone: {@code NfaMatcher.process} for one event on a key whose state is hot in cache.
 *
 * <p>Isolates the per-event work of the matcher (advancing the key's time and expiring old runs, evaluating
 * the conditions once, extending and forking runs in the shared buffer, emitting matches) from what
 * {@link NfaWorkloadBenchmark} adds on top: the per-key hash lookup and, with 10,000-50,000 keys, the cache
 * misses of fetching a cold key state (see README, "memory-bound"). Only {@value #KEYS} keys, so every state
 * stays in cache; the time between events is scaled by {@code keys / KEYS} so each key still sees the same
 * number of events per window, and so holds as many partial matches, as in the full workload. The types come
 * from the workload's own generated stream (its first {@value #CYCLE} events, cycled); timestamps keep
 * increasing across cycles. Steady state: the run starts from a fresh matcher per trial and JMH's warm-up
 * fills the windows.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar NfaStepBenchmark -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class NfaStepBenchmark {

    static final int KEYS = 16;
    static final int CYCLE = 1 << 16;
    static final int BATCH = 1_024;

    /** The workload whose pattern and type distribution to use. */
    @Param({"W1", "W2", "W3", "W4"})
    public Workload workload;

    private BenchEvent[] events;
    private NfaMatcher<BenchEvent> matcher;
    private NfaState[] states;
    private CountingSink sink;
    private long stepMs;
    private long next;

    /** Takes the workload's types, compiles its pattern and creates the key states. */
    @Setup(Level.Trial)
    public void setUp() {
        WorkloadStream stream = WorkloadGenerator.generate(workload);
        events = new BenchEvent[CYCLE];
        System.arraycopy(stream.events(), 0, events, 0, CYCLE);
        matcher = NfaCompiler.compile(Workloads.pattern(workload)).newMatcher();
        states = new NfaState[KEYS];
        for (int k = 0; k < KEYS; k++) {
            states[k] = matcher.newState(k);
        }
        sink = new CountingSink(workload.countsTimeouts());
        stepMs = Math.max(1, workload.stepMs() * workload.keys() / KEYS);
    }

    /**
     * @return the sink, so the work cannot be optimised away
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public CountingSink step() {
        for (int b = 0; b < BATCH; b++) {
            long n = next++;
            int at = (int) (n & (CYCLE - 1));
            // the stream's own key, folded onto the few hot keys
            matcher.process(states[events[at].key() & (KEYS - 1)], events[at], WorkloadGenerator.FIRST_TIMESTAMP
                    + n * stepMs, sink);
        }
        return sink;
    }
}
