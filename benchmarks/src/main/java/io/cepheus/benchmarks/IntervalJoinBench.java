package io.cepheus.benchmarks;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.join.IntervalJoinMetrics;
import io.cepheus.runtime.join.IntervalJoinStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Interval join throughput: 1M orders and ~0.9M payments over 10k keys, joined with
 * {@code payment.ts ∈ [order.ts, order.ts + 5 min]} on one shard, end to end through a started engine (the
 * shard on its own thread, one producer per input, each sending its watermark every 256 events).
 *
 * <p>Data (seeded, generated before timing): an order every 100 ms of event time on a random key of 10k; 90%
 * get a payment after an exponential delay of mean 1 minute, 5% of those 10–40 minutes later (the shape of the
 * order–payment study). Both streams are fed interleaved by event time. Reports events/s (wall time from the
 * first send to the end of {@code close()}, which includes the final flush), pairs (checked against the count
 * computed from the data), and the peak number of elements held per side.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar io.cepheus.benchmarks.IntervalJoinBench [runs]}.
 */
public final class IntervalJoinBench {

    private static final int ORDERS = 1_000_000;
    private static final int KEYS = 10_000;
    private static final long R = Duration.ofMinutes(5).toMillis();

    /** An order or a payment; {@code payment} tells them apart. */
    record Event(int key, long ts, boolean payment) {
    }

    private IntervalJoinBench() {
    }

    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Event[] events = generate(42);
        long expectedPairs = expectedPairs(events);
        long payments = Arrays.stream(events).filter(Event::payment).count();
        System.out.printf(Locale.ROOT, "interval join: %,d orders, %,d payments, %,d keys, R = 5 min, 1 shard;"
                + " expected pairs %,d%n", ORDERS, payments, KEYS, expectedPairs);
        for (int run = 1; run <= runs; run++) {
            runOnce(run, events, expectedPairs);
        }
    }

    private static void runOnce(int run, Event[] events, long expectedPairs) {
        CepEngine<Event> engine = CepEngine.<Event>builder().shards(1).build();
        IntervalJoinStream<Event, Event, Event, Event> join = engine.keyBy(Event::key)
                .intervalJoin(e -> e.payment() ? null : e, e -> e.payment() ? e : null)
                .between(Duration.ZERO, Duration.ofMillis(R))
                .<Event>process((order, payment, ctx, out) -> { });
        Producer<Event> orders = engine.newProducer();
        Producer<Event> payments = engine.newProducer();
        engine.start();
        long start = StopwatchClock.nanos();
        int sinceWatermark = 0;
        for (Event e : events) {
            Producer<Event> p = e.payment() ? payments : orders;
            p.send(e, e.ts());
            if (++sinceWatermark == 256) {
                sinceWatermark = 0;
                orders.watermark(e.ts() - 1);
                payments.watermark(e.ts() - 1);
            }
        }
        orders.close();
        payments.close();
        engine.close();
        long nanos = StopwatchClock.nanos() - start;
        IntervalJoinMetrics m = join.metrics();
        if (m.pairs() != expectedPairs || m.buffered() != 0) {
            throw new IllegalStateException("wrong result: " + m + ", expected pairs " + expectedPairs);
        }
        System.out.printf(Locale.ROOT, "run %d: %.2f M events/s (%,d ms); pairs %,d; peak held orders %,d,"
                        + " payments %,d; unmatched orders %,d%n", run, events.length / (nanos / 1e3),
                nanos / 1_000_000, m.pairs(), m.peakBufferedLeft(), m.peakBufferedRight(), m.unmatchedLeft());
    }

    static Event[] generate(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        Event[] out = new Event[ORDERS * 2];
        int n = 0;
        for (int i = 0; i < ORDERS; i++) {
            long ts = 1_767_225_600_000L + i * 100L;
            int key = rnd.nextInt(KEYS);
            out[n++] = new Event(key, ts, false);
            if (rnd.nextInt(10) < 9) {
                long delay = rnd.nextInt(20) == 0 ? 600_000 + rnd.nextLong(1_800_000)
                        : (long) (-60_000 * Math.log(1 - rnd.nextDouble()));
                out[n++] = new Event(key, ts + delay, true);
            }
        }
        Event[] events = Arrays.copyOf(out, n);
        Arrays.sort(events, (a, b) -> a.ts() != b.ts() ? Long.compare(a.ts(), b.ts())
                : Boolean.compare(a.payment(), b.payment()));
        return events;
    }

    /** Pairs by a per-key sweep over the sorted data (independent of the engine). */
    static long expectedPairs(Event[] events) {
        long pairs = 0;
        long[][] orderTimes = new long[KEYS][];
        int[] counts = new int[KEYS];
        for (Event e : events) {
            if (!e.payment()) {
                if (orderTimes[e.key()] == null) {
                    orderTimes[e.key()] = new long[8];
                } else if (counts[e.key()] == orderTimes[e.key()].length) {
                    orderTimes[e.key()] = Arrays.copyOf(orderTimes[e.key()], counts[e.key()] * 2);
                }
                orderTimes[e.key()][counts[e.key()]++] = e.ts();
            }
        }
        for (Event e : events) {
            if (e.payment()) {
                long[] ts = orderTimes[e.key()];
                for (int i = 0; i < counts[e.key()]; i++) {
                    if (ts[i] <= e.ts() && e.ts() <= ts[i] + R) {
                        pairs++;
                    }
                }
            }
        }
        return pairs;
    }
}
