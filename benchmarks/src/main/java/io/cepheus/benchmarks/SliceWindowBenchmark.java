package io.cepheus.benchmarks;

import io.cepheus.runtime.OutputTag;
import io.cepheus.runtime.internal.shard.KeyDictionary;
import io.cepheus.runtime.internal.timer.TimerService;
import io.cepheus.runtime.internal.window.PassThrough;
import io.cepheus.runtime.internal.window.SliceWindowOperator;
import io.cepheus.runtime.internal.window.WindowOperator;
import io.cepheus.runtime.internal.window.WindowOutput;
import io.cepheus.runtime.internal.window.WindowSpec;
import io.cepheus.runtime.window.AccumulationMode;
import io.cepheus.runtime.window.AggregateFunction;
import io.cepheus.runtime.window.EventTimeTrigger;
import io.cepheus.runtime.window.SlidingEventTimeWindows;
import io.cepheus.runtime.window.TumblingEventTimeWindows;
import io.cepheus.runtime.window.Window;
import io.cepheus.runtime.window.WindowAssigner;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
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
 * The slice window operator alone (tumbling and sliding count + sum with the default trigger, the configurations
 * the engine runs on {@link SliceWindowOperator}): it isolates the operator's per-element slice update and its
 * per-firing work (the key calendar, combining slices into the window through the two-stacks queue, dropping
 * slices) from the engine around it (producer, inbox, watermark valve, shard dispatch), which {@link WindowBench}
 * includes. The stream is {@link WindowBench}'s shape: 1M events, one per ms of event time, keys at random, a
 * watermark every 1,000 events; results go to a counting sink. The score is events per second; the key count shows
 * how much of the cost is the cache footprint of the keys' slices (sliding 10 min / 10 s keeps 60 slices per key).
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar SliceWindowBenchmark}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
public class SliceWindowBenchmark {

    static final int EVENTS = 1_000_000;

    /** Window size / slide. */
    @Param({"tumbling-10s", "sliding-1min-10s", "sliding-10min-10s"})
    public String window;

    /** Distinct keys. */
    @Param({"100", "10000"})
    public int keys;

    private Integer[] keyOf;
    private Long[] amounts;
    private WindowAssigner<Long> assigner;

    /** Count and sum of the amounts. */
    static final class CountSum implements AggregateFunction<Long, long[], long[]> {
        @Override
        public long[] createAccumulator() {
            return new long[2];
        }

        @Override
        public long[] add(Long amount, long[] acc) {
            acc[0]++;
            acc[1] += amount;
            return acc;
        }

        @Override
        public long[] getResult(long[] acc) {
            return acc;
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            a[0] += b[0];
            a[1] += b[1];
            return a;
        }
    }

    /** Counts results and sums their sums, so no result can be optimised away. */
    static final class Sink implements WindowOutput<Long, long[]> {
        long results;
        long checksum;

        @Override
        public void result(Object key, Window w, long[] value, long timestamp) {
            results++;
            checksum += value[1];
        }

        @Override
        public void retract(Object key, Window w, long[] value, long timestamp) {
            throw new IllegalStateException("no retractions expected");
        }

        @Override
        public void late(Object key, Long element, long timestamp) {
            throw new IllegalStateException("the stream is in order: nothing is late");
        }

        @Override
        public <X> void sideOutput(OutputTag<X> tag, X value, long timestamp) {
            throw new IllegalStateException("no side outputs expected");
        }
    }

    /** Generates the stream (boxed up front: the engine hands over event objects, it does not box them). */
    @Setup(Level.Trial)
    public void generate() {
        SplittableRandom r = new SplittableRandom(42);
        keyOf = new Integer[EVENTS];
        amounts = new Long[EVENTS];
        Integer[] boxed = new Integer[keys];
        for (int k = 0; k < keys; k++) {
            boxed[k] = k;
        }
        for (int i = 0; i < EVENTS; i++) {
            keyOf[i] = boxed[r.nextInt(keys)];
            amounts[i] = (long) (1 + r.nextInt(100));
        }
        assigner = switch (window) {
            case "tumbling-10s" -> TumblingEventTimeWindows.of(Duration.ofSeconds(10));
            case "sliding-1min-10s" -> SlidingEventTimeWindows.of(Duration.ofMinutes(1), Duration.ofSeconds(10));
            case "sliding-10min-10s" -> SlidingEventTimeWindows.of(Duration.ofMinutes(10), Duration.ofSeconds(10));
            default -> throw new IllegalArgumentException("unknown window " + window);
        };
    }

    /**
     * One pass over the stream through a fresh operator, then the final watermark (every window fires).
     *
     * @return the sink, so the work cannot be optimised away
     */
    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public Sink slicePath() {
        WindowSpec<Long, long[], long[]> spec = new WindowSpec<>(assigner, EventTimeTrigger.create(), null, 0, null,
                cast(new CountSum()), new PassThrough<>(), AccumulationMode.ACCUMULATING, null);
        Sink sink = new Sink();
        KeyDictionary dictionary = new KeyDictionary();
        SliceWindowOperator<Long, long[]> op = new SliceWindowOperator<>(0, dictionary, new TimerService(),
                io.cepheus.runtime.time.Clock.system(), spec, sink, new AtomicLongArray(WindowOperator.METRICS));
        op.keyRelease(dictionary::release);
        for (int i = 0; i < EVENTS; i++) {
            op.processElement(keyOf[i], amounts[i], i);
            if (i % 1000 == 999) {
                op.beginWatermark(i);
                op.endWatermark();
            }
        }
        op.beginWatermark(Long.MAX_VALUE);
        op.endWatermark();
        return sink;
    }

    @SuppressWarnings("unchecked")
    private static <X> X cast(Object o) {
        return (X) o;
    }
}
