package io.cepheus.examples.windows;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.Collector;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.WatermarkStrategy;
import io.cepheus.runtime.window.AggregateFunction;
import io.cepheus.runtime.window.EventTimeSessionWindows;
import io.cepheus.runtime.window.ProcessWindowFunction;
import io.cepheus.runtime.window.SlidingEventTimeWindows;
import io.cepheus.runtime.window.TimeWindow;
import io.cepheus.runtime.window.TumblingEventTimeWindows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Payments aggregated by user three ways, as in Flink's window documentation: the largest payment per 1-minute
 * tumbling window (reduce), sum and average over 5-minute windows sliding by 1 minute (aggregate), and per
 * 10-minute session the start, end, count and total (process function). Run it with
 * {@code java -cp ... io.cepheus.examples.windows.PaymentWindows}; it prints one line per result.
 */
public final class PaymentWindows {

    /** A payment. @param user who paid @param amount how much @param ts when (epoch ms) */
    public record Payment(String user, double amount, long ts) {
    }

    /** The sample payments of the example. */
    public static final List<Payment> PAYMENTS = List.of(
            new Payment("u1", 10.0, 1_000_000), new Payment("u1", 7.5, 1_010_000),
            new Payment("u2", 3.0, 1_050_000));

    private PaymentWindows() {
    }

    /** Sum and count, for the average. */
    static final class SumCount implements AggregateFunction<Payment, double[], String> {
        @Override
        public double[] createAccumulator() {
            return new double[2];
        }

        @Override
        public double[] add(Payment p, double[] acc) {
            acc[0] += p.amount();
            acc[1]++;
            return acc;
        }

        @Override
        public String getResult(double[] acc) {
            return String.format(Locale.ROOT, "sum=%.2f avg=%.2f", acc[0], acc[0] / acc[1]);
        }

        @Override
        public double[] merge(double[] a, double[] b) {
            a[0] += b[0];
            a[1] += b[1];
            return a;
        }
    }

    /** One line per session: user, start, end, count, total. */
    static final class SessionSummary implements ProcessWindowFunction<Payment, String> {
        @Override
        public void process(Object user, Context ctx, Iterable<Payment> payments, Collector<String> out) {
            int count = 0;
            double total = 0;
            for (Payment p : payments) {
                count++;
                total += p.amount();
            }
            TimeWindow w = (TimeWindow) ctx.window();
            out.collect(String.format(Locale.ROOT, "(%s, %d, %d, %d, %.2f)", user, w.start(), w.end(), count, total));
        }
    }

    /** A result line with what it is ordered by. */
    private record Line(String kind, String user, long timestamp, String text) {
    }

    /**
     * Runs the three aggregations over {@code payments} on one engine (three window operators sharing the
     * stream), flushing at the end of input.
     *
     * @param payments the input, in any order
     * @return the result lines by aggregation, then user, then time (each line ends with the result's timestamp)
     */
    public static List<String> run(List<Payment> payments) {
        CepEngine<Payment> engine = CepEngine.<Payment>builder().shards(1)
                .watermarks(WatermarkStrategy.<Payment>forBoundedOutOfOrderness(Duration.ofSeconds(5))
                        .withTimestampAssigner((p, r) -> p.ts()))
                .build();
        List<Line> lines = Collections.synchronizedList(new ArrayList<>());
        var byUser = engine.keyBy(Payment::user);
        byUser.window(TumblingEventTimeWindows.of(Duration.ofMinutes(1)))
                .reduce((a, b) -> b.amount() > a.amount() ? b : a)
                .results((user, w, p, ts) -> lines.add(new Line("largest", (String) user, ts,
                        "largest " + user + " " + w + " " + p.amount() + " @" + ts)));
        byUser.window(SlidingEventTimeWindows.of(Duration.ofMinutes(5), Duration.ofMinutes(1)))
                .aggregate(new SumCount())
                .results((user, w, s, ts) -> lines.add(new Line("sliding", (String) user, ts,
                        "sliding " + user + " " + w + " " + s + " @" + ts)));
        byUser.window(EventTimeSessionWindows.withGap(Duration.ofMinutes(10)))
                .process(new SessionSummary())
                .results((user, w, s, ts) -> lines.add(new Line("session", (String) user, ts,
                        "session " + s + " @" + ts)));
        Producer<Payment> in = engine.newProducer();
        engine.start();
        payments.forEach(in::send);
        engine.close();
        List<Line> sorted = new ArrayList<>(lines);
        sorted.sort(Comparator.comparing(Line::kind).thenComparing(Line::user).thenComparingLong(Line::timestamp));
        return sorted.stream().map(Line::text).toList();
    }

    /** @param args unused */
    public static void main(String[] args) {
        run(PAYMENTS).forEach(System.out::println);
    }
}
