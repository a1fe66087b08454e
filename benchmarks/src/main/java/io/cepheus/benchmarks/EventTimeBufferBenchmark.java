package io.cepheus.benchmarks;

import io.cepheus.runtime.internal.cep.EventTimeBuffer;
import java.util.SplittableRandom;
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
 * The reorder buffer alone: the runtime's internal {@code EventTimeBuffer}, which holds a shard's events until
 * the watermark passes them and releases them in (timestamp, arrival) order.
 *
 * <p>Isolates buffering and ordered release from matching: per event one {@code add}, and every
 * {@value #WATERMARK_EVERY} events a {@code releaseUpTo} with a bounded-out-of-orderness watermark (the largest
 * timestamp seen minus {@value #BOUND_MS} ms), releasing into a handler that only sums. With
 * {@code outOfOrderPercent = 0} every event takes the in-order FIFO run (the W1-W4 case); above it, that share
 * of events arrives up to {@value #BOUND_MS} ms late and goes through the binary heap, and releases merge the
 * two. 1,024 keys (the per-key counts are updated on add and release). One operation = one event added and,
 * amortised, released.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar EventTimeBufferBenchmark -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class EventTimeBufferBenchmark {

    static final int WATERMARK_EVERY = 1_000;
    static final long BOUND_MS = 5_000;
    static final int CYCLE = 1 << 16;
    static final int KEYS = 1_024;

    /** Share of events (in percent) that arrive out of timestamp order. */
    @Param({"0", "10"})
    public int outOfOrderPercent;

    private final long[] delay = new long[CYCLE];
    private final Object event = new Object();
    private EventTimeBuffer<Object> buffer;
    private EventTimeBuffer.Release<Object> release;
    private long released;
    private long next;
    private long maxSeen = Long.MIN_VALUE;

    /** Draws each position's lateness and creates the buffer. */
    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < CYCLE; i++) {
            delay[i] = random.nextInt(100) < outOfOrderPercent ? 1 + random.nextInt((int) BOUND_MS) : 0;
        }
        buffer = new EventTimeBuffer<>(null);
        release = (key, e, ts) -> released += ts;
    }

    /** @return the sum of released timestamps, so the work cannot be optimised away */
    @Benchmark
    @OperationsPerInvocation(WATERMARK_EVERY)
    public long addAndRelease() {
        for (int b = 0; b < WATERMARK_EVERY; b++) {
            long n = next++;
            // 10 ms apart, some arriving late (at most BOUND_MS, so never behind the watermark)
            long ts = n * 10 - delay[(int) (n & (CYCLE - 1))];
            maxSeen = Math.max(maxSeen, ts);
            buffer.add((int) (n & (KEYS - 1)), event, ts);
        }
        buffer.releaseUpTo(maxSeen - BOUND_MS, release);
        return released;
    }
}
