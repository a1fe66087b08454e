package io.cepheus.benchmarks.compare;

import io.cepheus.benchmarks.workloads.BenchEvent;
import io.cepheus.benchmarks.workloads.MatchChecksum;
import io.cepheus.benchmarks.workloads.RunResult;
import io.cepheus.benchmarks.workloads.Workloads;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.PatternStream;
import io.cepheus.runtime.Producer;

/**
 * Cepheus's side of a CEP comparison through the whole engine: a {@link CepEngine} with one shard and default
 * settings, the workload's pattern on {@code keyBy(BenchEvent::key)}, run by {@link CepTestHarness} on the
 * measuring thread, so the engine's real per-event path (inbox, key dictionary, event-time buffering, expiry
 * timers, releasing a key's state once it is empty) is timed on one thread, as Flink's {@code CepOperator} under
 * its test harness is, and {@code ThreadMXBean} counts all of its allocation.
 *
 * <p>Event time exactly as the Flink side: each event sent with its timestamp ({@code producer.send(event, ts)}),
 * a watermark {@code ts - 1} after every {@value #WATERMARK_INTERVAL} events followed by
 * {@link CepTestHarness#runUntilIdle()} (so at most that many records wait in the 65,536-record inbox: it never
 * fills), and a final {@code Long.MAX_VALUE} watermark that flushes every key. Handlers count on this thread; a
 * late event fails the run.
 */
final class CepheusEngineContender implements Contender {

    static final int WATERMARK_INTERVAL = 1_000;

    private final CepInput input;
    private final Pattern<BenchEvent> pattern;

    CepheusEngineContender(CepInput input) {
        this.input = input;
        this.pattern = Workloads.pattern(input.workload());
    }

    @Override
    public String engine() {
        return "Cepheus (engine, 1 shard)";
    }

    @Override
    public Trial prepare() {
        EngineTrial trial = new EngineTrial(input);
        CepEngine<BenchEvent> engine = CepEngine.<BenchEvent>builder().shards(1).build();
        PatternStream<BenchEvent> stream = engine.keyBy(BenchEvent::key).pattern(pattern);
        stream.select((key, match, ts) -> trial.match(match.firstTimestamp(), match.lastTimestamp()));
        if (input.workload().countsTimeouts()) {
            stream.timeouts((key, partialMatch, ts) -> trial.timeouts++);
        }
        stream.lateEvents((key, event, ts) -> trial.late++);
        trial.producer = engine.newProducer();
        trial.harness = CepTestHarness.start(engine);
        return trial;
    }

    /** One run; owned by the harness thread, which also runs the engine's shard and its handlers. */
    private static final class EngineTrial implements Trial {

        private final CepInput input;
        private Producer<BenchEvent> producer;
        private CepTestHarness<BenchEvent> harness;
        private long matches;
        private long timeouts;
        private long checksum;
        private long late;

        EngineTrial(CepInput input) {
            this.input = input;
        }

        void match(long firstTs, long lastTs) {
            matches++;
            checksum += MatchChecksum.mix(firstTs, lastTs);
        }

        @Override
        public RunResult feed() {
            long[] timestamps = input.timestamps();
            BenchEvent[] events = input.events();
            int length = input.length();
            for (int i = 0; i < length; i++) {
                producer.send(events[i], timestamps[i]);
                if ((i + 1) % WATERMARK_INTERVAL == 0) {
                    producer.watermark(timestamps[i] - 1);
                    harness.runUntilIdle();
                }
            }
            producer.watermark(Long.MAX_VALUE);
            harness.runUntilIdle();
            if (late != 0) {
                throw new IllegalStateException(input.workload() + ": the engine dropped " + late
                        + " late events, but every watermark trails the events");
            }
            return new RunResult(matches, timeouts, checksum);
        }

        @Override
        public void close() {
            if (harness != null) {
                harness.close();
                harness = null;
                producer = null;
            }
        }
    }
}
