package io.cepheus.benchmarks;

import io.cepheus.runtime.internal.join.TimeOrderedBuffer;
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
 * The interval join's per-key buffers alone ({@link TimeOrderedBuffer}, public in the runtime's internal join
 * package for this benchmark), used as {@code IntervalJoinOperator} uses them for {@code orders ⋈ payments},
 * {@code payment.ts ∈ [order.ts, order.ts + 5 min]}.
 *
 * <p>Isolates buffering and probing from key lookup, due-time scheduling and output: per element of a key, the
 * prefix of both of the key's buffers that the watermark has passed is dropped (the operator does this at the key's
 * due time; the work per element is the same, amortised), the other side's buffer is probed with its two binary
 * searches and every partner in range is marked matched and counted, and the element is appended to its own side.
 * Elements 50 ms apart of event time, 55% orders and 45% payments on keys drawn at random; the watermark follows the
 * elements. With 16 keys each buffer holds a few hundred orders (long probes over a hot buffer), with 10,000 keys a
 * key has one or two elements at most and its buffers are cold (the shape of {@code IntervalJoinBench}). One
 * operation = one element.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar JoinBufferBenchmark -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class JoinBufferBenchmark {

    static final int BATCH = 1_024;
    static final int CYCLE = 1 << 16;
    static final long STEP_MS = 50;
    static final long UPPER_MS = 5 * 60_000;

    /** Keys the elements are spread over. */
    @Param({"16", "10000"})
    public int keys;

    private final int[] keyAt = new int[CYCLE];
    private final boolean[] paymentAt = new boolean[CYCLE];
    private final Object element = new Object();
    private TimeOrderedBuffer[] orders;
    private TimeOrderedBuffer[] payments;
    private long next;
    private long pairs;

    /** Draws each position's key and side, and creates every key's two buffers. */
    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < CYCLE; i++) {
            keyAt[i] = random.nextInt(keys);
            paymentAt[i] = random.nextInt(100) < 45;
        }
        orders = new TimeOrderedBuffer[keys];
        payments = new TimeOrderedBuffer[keys];
        for (int k = 0; k < keys; k++) {
            orders[k] = new TimeOrderedBuffer();
            payments[k] = new TimeOrderedBuffer();
        }
    }

    /** @return the pairs found so far, so the work cannot be optimised away */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long addProbeAndDrop() {
        for (int b = 0; b < BATCH; b++) {
            long n = next++;
            int at = (int) (n & (CYCLE - 1));
            long ts = n * STEP_MS;
            long watermark = ts - 1;
            TimeOrderedBuffer left = orders[keyAt[at]];
            TimeOrderedBuffer right = payments[keyAt[at]];
            // drop what the watermark passed: an order once W > ts + upper, a payment once W > ts (lower = 0)
            while (!left.isEmpty() && watermark > left.earliest() + UPPER_MS) {
                left.removeFirst();
            }
            while (!right.isEmpty() && watermark > right.earliest()) {
                right.removeFirst();
            }
            if (paymentAt[at]) {
                for (int p = left.firstAtOrAfter(ts - UPPER_MS), end = left.firstAfter(ts); p < end; p++) {
                    left.markMatched(p);
                    pairs++;
                }
                right.add(ts, element, false);
            } else {
                for (int p = right.firstAtOrAfter(ts), end = right.firstAfter(ts + UPPER_MS); p < end; p++) {
                    right.markMatched(p);
                    pairs++;
                }
                left.add(ts, element, false);
            }
        }
        return pairs;
    }
}
