package io.cepheus.benchmarks.compare;

import io.cepheus.benchmarks.workloads.RunResult;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.window.AggregateFunction;
import io.cepheus.runtime.window.TimeWindow;

/**
 * Cepheus's side of a window comparison: a {@link CepEngine} with one shard and default settings,
 * {@code keyBy(WindowEvent::key).window(assigner).aggregate(count and sum)}, run by {@link CepTestHarness} on the
 * measuring thread. Each element is sent with its timestamp, each watermark of {@link WindowInput} is followed by
 * {@link CepTestHarness#runUntilIdle()} (so the inbox holds at most 1,001 records), the final
 * {@code Long.MAX_VALUE} watermark fires what is left. Results are folded into a {@link WindowTally} by the
 * results handler; a late element fails the run.
 */
final class CepheusWindowContender implements Contender {

    private final WindowInput input;
    private final WindowSpec spec;

    CepheusWindowContender(WindowInput input, WindowSpec spec) {
        this.input = input;
        this.spec = spec;
    }

    @Override
    public String engine() {
        return "Cepheus (engine, 1 shard)";
    }

    @Override
    public Trial prepare() {
        WindowTally tally = new WindowTally();
        long[] late = new long[1];
        CepEngine<WindowEvent> engine = CepEngine.<WindowEvent>builder().shards(1).build();
        engine.keyBy(WindowEvent::key)
                .window(spec.cepheus())
                .sideOutputLateData((key, event, ts) -> late[0]++)
                .aggregate(new CountAndSum())
                .results((key, window, acc, ts) -> {
                    TimeWindow w = (TimeWindow) window;
                    tally.result((Integer) key, w.start(), w.end(), acc[0], acc[1]);
                });
        Producer<WindowEvent> producer = engine.newProducer();
        return new EngineTrial(input, tally, late, producer, CepTestHarness.start(engine));
    }

    /** Count and sum of the amounts in a {@code long[2]}, updated in place. */
    static final class CountAndSum implements AggregateFunction<WindowEvent, long[], long[]> {
        @Override
        public long[] createAccumulator() {
            return new long[2];
        }

        @Override
        public long[] add(WindowEvent value, long[] acc) {
            acc[0]++;
            acc[1] += value.amount();
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

    /** One run; owned by the harness thread, which also runs the engine's shard and its handlers. */
    private static final class EngineTrial implements Trial {

        private final WindowInput input;
        private final WindowTally tally;
        private final long[] late;
        private Producer<WindowEvent> producer;
        private CepTestHarness<WindowEvent> harness;

        EngineTrial(WindowInput input, WindowTally tally, long[] late, Producer<WindowEvent> producer,
                CepTestHarness<WindowEvent> harness) {
            this.input = input;
            this.tally = tally;
            this.late = late;
            this.producer = producer;
            this.harness = harness;
        }

        @Override
        public RunResult feed() {
            WindowEvent[] events = input.events();
            for (int i = 0; i < events.length; i++) {
                WindowEvent event = events[i];
                producer.send(event, event.ts());
                long watermark = input.watermarkAfter(i);
                if (watermark != Long.MIN_VALUE) {
                    tally.nextWatermark();
                    producer.watermark(watermark);
                    harness.runUntilIdle();
                }
            }
            tally.nextWatermark();
            producer.watermark(Long.MAX_VALUE);
            harness.runUntilIdle();
            if (late[0] != 0) {
                throw new IllegalStateException("the engine dropped " + late[0]
                        + " late elements, but every watermark trails the elements");
            }
            return tally.result();
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
