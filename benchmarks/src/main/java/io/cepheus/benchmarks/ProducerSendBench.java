package io.cepheus.benchmarks;

import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.lang.management.ManagementFactory;

/**
 * Nanoseconds of thread CPU time per send of a producer with a watermark generator ({@code forMonotonousTimestamps}),
 * with a harness shard that matches nothing: the cost of the send path itself. {@code java -cp benchmarks.jar
 * io.cepheus.benchmarks.ProducerSendBench ROUNDS} prints the best of the second half of the rounds; run two builds
 * alternately to compare them.
 */
public final class ProducerSendBench {
    /** An event: a key and a time. */
    public record Ev(int key, long ts) {
    }

    private ProducerSendBench() {
    }

    /** @param args the number of rounds */
    public static void main(String[] args) {
        int n = 2_000_000;
        Ev[] events = new Ev[n];
        for (int i = 0; i < n; i++) {
            events[i] = new Ev(i % 1000, i);
        }
        var bean = ManagementFactory.getThreadMXBean();
        int rounds = Integer.parseInt(args[0]);
        double best = Double.MAX_VALUE;
        for (int round = 0; round < rounds; round++) {
            CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).clock(new ManualClock(0)).inboxCapacity(4096)
                    .watermarks(WatermarkStrategy.<Ev>forMonotonousTimestamps().withTimestampAssigner((e, t) -> e.ts()))
                    .build();
            engine.keyBy(Ev::key).pattern(Pattern.<Ev>begin("a").where(e -> e.key() < 0)).select((k, m, t) -> { });
            Producer<Ev> p = engine.newProducer();
            CepTestHarness<Ev> h = CepTestHarness.start(engine);
            long t0 = bean.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                p.send(events[i]);
                if ((i + 1) % 1000 == 0) {
                    h.runUntilIdle();
                }
            }
            h.runUntilIdle();
            long t1 = bean.getCurrentThreadCpuTime();
            h.close();
            double ns = (t1 - t0) / (double) n;
            if (round >= rounds / 2) {
                best = Math.min(best, ns);
            }
        }
        System.out.printf("%.1f%n", best);
    }
}
