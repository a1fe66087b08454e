package io.cepheus.benchmarks;

import io.cepheus.runtime.internal.timer.KeyDueTimes;
import io.cepheus.runtime.internal.timer.KeyDueWheel;
import io.cepheus.runtime.internal.timer.TimerHandler;
import io.cepheus.runtime.internal.timer.TimerService;
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
 * The timer service alone: the runtime's internal {@code TimerService} (heap of event-time timers with a hash
 * index), driven the way the CEP operator drove it for windowed patterns before event-time expiry moved to lazy
 * {@code KeyDueTimes} entries (processing-time CEP, window triggers and the temporal join still use it).
 *
 * <p>Isolates timer bookkeeping from matching: per event, its key's pending expiry timer is deleted and a new
 * one registered at {@code ts + window} (the operator moves a key's expiry whenever its oldest partial match
 * changes), and every {@value #WATERMARK_EVERY} events the watermark advances to the last timestamp, firing
 * the timers of keys that went quiet for a whole window (the handler forgets the key's timer and sums; at these
 * densities few fire, as in W1-W4, where most expiry timers are moved before they are due). Keys are drawn
 * uniformly from {@code keys}, 1 ms apart, window 60 s as W2; so the heap holds up to {@code keys} timers and
 * the hash index is probed twice per event. One operation = one event (a delete and a register, plus the
 * amortised firing).
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar TimerServiceBenchmark -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class TimerServiceBenchmark {

    static final int WATERMARK_EVERY = 1_000;
    static final long WINDOW_MS = 60_000;
    static final int CYCLE = 1 << 16;
    static final long NAMESPACE = 0;

    /** Distinct keys (the shard's key ids are dense, 0 .. keys - 1). */
    @Param({"1000", "50000"})
    public int keys;

    private final int[] keyAt = new int[CYCLE];
    private long[] pendingAt;
    private TimerService timers;
    private TimerHandler onTimer;
    private KeyDueTimes lazy;
    private long fired;
    private long next;

    /** Draws the key sequence and creates the service. */
    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < CYCLE; i++) {
            keyAt[i] = random.nextInt(keys);
        }
        pendingAt = new long[keys];
        java.util.Arrays.fill(pendingAt, Long.MIN_VALUE);
        timers = new TimerService(keys);
        // sized as the CEP operator sizes it for a 60 s window: 128 ms slices, 2,048 buckets
        lazy = new KeyDueTimes(new KeyDueWheel(128, 2_048));
        lazy.ensureKeys(keys);
        onTimer = (key, namespace, timestamp) -> {
            pendingAt[key] = Long.MIN_VALUE;
            fired += timestamp;
        };
    }

    /** @return the sum of fired timestamps, so the work cannot be optimised away */
    @Benchmark
    @OperationsPerInvocation(WATERMARK_EVERY)
    public long moveExpiryTimers() {
        long ts = 0;
        for (int b = 0; b < WATERMARK_EVERY; b++) {
            long n = next++;
            ts = n;
            int key = keyAt[(int) (n & (CYCLE - 1))];
            if (pendingAt[key] != Long.MIN_VALUE) {
                timers.deleteEventTimeTimer(key, NAMESPACE, pendingAt[key]);
            }
            pendingAt[key] = ts + WINDOW_MS;
            timers.registerEventTimeTimer(key, NAMESPACE, pendingAt[key]);
        }
        timers.advanceWatermark(ts, onTimer);
        return fired;
    }

    /**
     * The same key sequence kept as the CEP operator keeps event-time expiry: per event the key's
     * real expiry is recorded and an entry is added only if the key has none at or before it ({@code KeyDueTimes});
     * at each watermark the entries it passed come out, early ones go back at the key's real expiry, and a key
     * really due is handed out in (time, key id) order and has nothing due afterwards (as a key whose partial
     * matches all timed out).
     *
     * @return the sum of the due keys' times, so the work cannot be optimised away
     */
    @Benchmark
    @OperationsPerInvocation(WATERMARK_EVERY)
    public long moveLazyExpiries() {
        long ts = 0;
        for (int b = 0; b < WATERMARK_EVERY; b++) {
            long n = next++;
            ts = n;
            int key = keyAt[(int) (n & (CYCLE - 1))];
            long due = ts + WINDOW_MS;
            lazy.next(key, due);
            lazy.armIfEarlier(key, due, ts - 1);
        }
        lazy.collectDue(ts);
        for (int key = lazy.pollDue(); key >= 0; key = lazy.pollDue()) {
            fired += lazy.polledTime();
            lazy.disarm(key);
        }
        return fired;
    }
}
