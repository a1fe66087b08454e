package io.cepheus.benchmarks;

import io.cepheus.nfa.internal.SharedBuffer;
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
 * The NFA's shared buffer alone ({@link SharedBuffer}, public in the NFA's internal package for this benchmark).
 *
 * <p>Isolates the storage of partial matches from conditions, transitions and per-key state: {@code runs} runs
 * of length {@value #LENGTH} are kept alive; per event, the event is stored once and one run (round robin)
 * either moves on by one entry (adopting its reference on the old last entry, as a run stepping forward does),
 * or, when complete, is extracted (the chain walked back to its first entry, reading each time, as building a
 * {@code Match} does) and released (reference counts drop along the chain until an entry another run shares),
 * and replaced by a new run: every other time a fork that shares the next run's prefix, as
 * {@code followedByAny} branches do, else a fresh one. Steady state holds about {@code runs * LENGTH} entries;
 * nothing is allocated once the arrays have grown. One operation = one event.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar SharedBufferBenchmark -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SharedBufferBenchmark {

    static final int LENGTH = 5;
    static final int BATCH = 1_024;

    /** Partial matches alive at once (one key's worth, or a shard's worth of small keys). */
    @Param({"16", "4096"})
    public int runs;

    private final Object event = new Object();
    private SharedBuffer buffer;
    private int[] head;
    private int[] length;
    private long seq;
    private long checksum;

    /** Creates the buffer with every run empty. */
    @Setup(Level.Trial)
    public void setUp() {
        buffer = new SharedBuffer();
        head = new int[runs];
        length = new int[runs];
        java.util.Arrays.fill(head, SharedBuffer.NONE);
    }

    /** @return a checksum over the extracted runs, so the work cannot be optimised away */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long storeExtendExtractRelease() {
        for (int b = 0; b < BATCH; b++) {
            long n = seq++;
            int slot = buffer.addEvent(event, n * 10, n);
            int run = (int) (n % runs);
            int entry;
            if (length[run] == 0) {
                entry = buffer.put(slot, 0, SharedBuffer.NONE);
                length[run] = 1;
            } else if (length[run] < LENGTH) {
                entry = buffer.put(slot, length[run], head[run], true);
                length[run]++;
            } else {
                checksum += extract(head[run]);
                buffer.release(head[run]);
                int from = (run + 1) % runs;
                if ((n & 1) == 0 && length[from] > 0 && length[from] < LENGTH) {
                    // a fork: shares the other run's entries, taking a new reference on its last one
                    entry = buffer.put(slot, length[from], head[from]);
                    length[run] = length[from] + 1;
                } else {
                    entry = buffer.put(slot, 0, SharedBuffer.NONE);
                    length[run] = 1;
                }
            }
            buffer.lock(entry);
            head[run] = entry;
        }
        return checksum;
    }

    /** Walks a run back to its first entry, as match extraction does. */
    private long extract(int last) {
        long sum = 0;
        for (int e = last; e != SharedBuffer.NONE; e = buffer.prev(e)) {
            sum += buffer.time(e) ^ buffer.stage(e);
        }
        return sum;
    }
}
