package io.cepheus.benchmarks;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.WatermarkStrategy;
import io.cepheus.runtime.window.AggregateFunction;
import io.cepheus.runtime.window.EventTimeSessionWindows;
import io.cepheus.runtime.window.SlidingEventTimeWindows;
import io.cepheus.runtime.window.TumblingEventTimeWindows;
import io.cepheus.runtime.window.WindowAssigner;
import io.cepheus.runtime.window.WindowResults;
import io.cepheus.runtime.window.WindowedStream;
import java.time.Duration;
import java.util.function.Function;

/**
 * Keyed window aggregation through the engine, single shard, on the caller's thread: 1M events over 10k keys
 * (one event per ms of event time, keys drawn at random, in order, a watermark every 1,000 events), count + sum per
 * window, for tumbling 10 s, sliding 10 min / 10 s (60 windows per element) and sessions (gap 30 s). Prints
 * events/s (median of the measured runs), results emitted and the sliding / tumbling ratio.
 *
 * <p>Then the same ratio by key count (1,000, 3,000 and 10,000 keys; the same million events, keys drawn from fewer
 * values), each measured as alternating tumbling / sliding runs in this JVM and reported as the median over those
 * pairs of sliding's time over tumbling's, so a change in the machine's state during the run moves both sides of a
 * pair alike. It shows where the sliding windows' state (60 slices per key, ~2.7 KB) leaves the cache: the work
 * per element stays the same at every key count, the cost of reaching a key's slices does not.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar io.cepheus.benchmarks.WindowBench [runs]}
 */
public final class WindowBench {

    static final int EVENTS = 1_000_000;
    static final int KEYS = 10_000;

    /** An event: key id, amount, event time. */
    record Ev(int key, long amount, long ts) {
    }

    /** Count and sum in one mutable accumulator. */
    static final class CountSum implements AggregateFunction<Ev, long[], long[]> {
        @Override
        public long[] createAccumulator() {
            return new long[2];
        }

        @Override
        public long[] add(Ev e, long[] acc) {
            acc[0]++;
            acc[1] += e.amount();
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

    private WindowBench() {
    }

    static Ev[] stream() {
        return stream(KEYS);
    }

    /** @return the benchmark's million events, keys drawn at random from {@code keys} values */
    static Ev[] stream(int keys) {
        Ev[] events = new Ev[EVENTS];
        java.util.SplittableRandom r = new java.util.SplittableRandom(42);
        for (int i = 0; i < EVENTS; i++) {
            events[i] = new Ev(r.nextInt(keys), 1 + r.nextInt(100), i);
        }
        return events;
    }

    /** @return {nanoseconds, results, checksum} of one run */
    static long[] run(Ev[] events, Function<WindowedStream<Ev>, WindowResults<long[]>> configure,
            WindowAssigner<Ev> assigner) {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).inboxCapacity(4096).flushOnClose(false)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, t) -> e.ts())).build();
        long[] tally = new long[2];
        configure.apply(engine.keyBy(Ev::key).window(assigner))
                .results((k, w, acc, ts) -> {
                    tally[0]++;
                    tally[1] += acc[1];
                });
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        long start = StopwatchClock.nanos();
        for (int i = 0; i < events.length; i++) {
            in.send(events[i]);
            if (i % 1000 == 999) {
                in.watermark(events[i].ts());
                h.runUntilIdle();
            }
        }
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        long nanos = StopwatchClock.nanos() - start;
        h.close();
        return new long[] {nanos, tally[0], tally[1]};
    }

    /** @param args number of measured runs per variant (default 5, after 2 warm-ups) */
    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Ev[] events = stream();
        double tumbling = measure("tumbling 10 s", events, runs,
                TumblingEventTimeWindows.of(Duration.ofSeconds(10)));
        double sliding = measure("sliding 10 min / 10 s", events, runs,
                SlidingEventTimeWindows.of(Duration.ofMinutes(10), Duration.ofSeconds(10)));
        measure("sliding 1 min / 10 s", events, runs,
                SlidingEventTimeWindows.of(Duration.ofMinutes(1), Duration.ofSeconds(10)));
        measure("session gap 30 s", events, runs, EventTimeSessionWindows.withGap(Duration.ofSeconds(30)));
        // one configuration after the other in this JVM: the first one's profile shapes the code the second runs,
        // so this ratio reads high; the alternating pairs below are the comparison
        System.out.printf("sliding 10 min / 10 s vs tumbling 10 s: %.2fx slower (separate medians, one after the"
                + " other; the 10,000-key pairs below compare them alternately)%n", tumbling / sliding);
        for (int keys : new int[] {1_000, 3_000, KEYS}) {
            slidingOverTumbling(keys, runs);
        }
    }

    /** Prints the median over alternating pairs of sliding 10 min / 10 s's time over tumbling 10 s's. */
    private static void slidingOverTumbling(int keys, int runs) {
        Ev[] events = stream(keys);
        WindowAssigner<Ev> tumbling = TumblingEventTimeWindows.of(Duration.ofSeconds(10));
        WindowAssigner<Ev> sliding = SlidingEventTimeWindows.of(Duration.ofMinutes(10), Duration.ofSeconds(10));
        double[] ratios = new double[runs];
        double[] tumblingRates = new double[runs];
        double[] slidingRates = new double[runs];
        for (int i = -1; i < runs; i++) {
            long tumblingNanos = run(events, s -> s.aggregate(new CountSum()), tumbling)[0];
            long slidingNanos = run(events, s -> s.aggregate(new CountSum()), sliding)[0];
            if (i >= 0) {
                ratios[i] = (double) slidingNanos / tumblingNanos;
                tumblingRates[i] = events.length / (tumblingNanos / 1e9);
                slidingRates[i] = events.length / (slidingNanos / 1e9);
            }
        }
        System.out.printf("%,6d keys: sliding 10 min / 10 s %.2fx tumbling 10 s's time per element (median of %d"
                + " alternating pairs; tumbling %,.0f, sliding %,.0f events/s)%n", keys, median(ratios), runs,
                median(tumblingRates), median(slidingRates));
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double measure(String name, Ev[] events, int runs, WindowAssigner<Ev> assigner) {
        double[] rates = new double[runs];
        long[] last = null;
        for (int i = -2; i < runs; i++) {
            last = run(events, s -> s.aggregate(new CountSum()), assigner);
            if (i >= 0) {
                rates[i] = events.length / (last[0] / 1e9);
            }
        }
        java.util.Arrays.sort(rates);
        double median = rates[runs / 2];
        System.out.printf("%-24s %,12.0f events/s (median of %d; %,d results, checksum %d)%n", name, median, runs,
                last[1], last[2]);
        return median;
    }
}
