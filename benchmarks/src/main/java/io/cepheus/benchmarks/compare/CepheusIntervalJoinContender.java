package io.cepheus.benchmarks.compare;

import io.cepheus.benchmarks.workloads.RunResult;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import java.time.Duration;

/**
 * Cepheus's side of the interval-join comparison: a {@link CepEngine} with one shard and default settings,
 * {@code keyBy(JoinEvent::key).intervalJoin(Order.class, Payment.class).between(0, R)} (both bounds inclusive,
 * inner) with a join function that folds each pair into a {@link JoinTally} and emits nothing, run by
 * {@link CepTestHarness} on the measuring thread. Elements in {@link JoinInput}'s arrival order, each with its
 * timestamp; each watermark is followed by {@link CepTestHarness#runUntilIdle()}; the final
 * {@code Long.MAX_VALUE} watermark empties the buffers. A late element fails the run.
 */
final class CepheusIntervalJoinContender implements Contender {

    private final JoinInput input;

    CepheusIntervalJoinContender(JoinInput input) {
        this.input = input;
    }

    @Override
    public String engine() {
        return "Cepheus (engine, 1 shard)";
    }

    @Override
    public Trial prepare() {
        JoinTally tally = new JoinTally();
        long[] late = new long[1];
        CepEngine<JoinEvent> engine = CepEngine.<JoinEvent>builder().shards(1).build();
        engine.keyBy(JoinEvent::key)
                .intervalJoin(JoinEvent.Order.class, JoinEvent.Payment.class)
                .between(Duration.ZERO, Duration.ofMillis(JoinInput.R_MS))
                .<Void>process((order, payment, ctx, out) -> tally.pair(order.id(), payment.orderId()))
                .lateLeft((key, order, ts) -> late[0]++)
                .lateRight((key, payment, ts) -> late[0]++);
        Producer<JoinEvent> producer = engine.newProducer();
        return new EngineTrial(input, tally, late, producer, CepTestHarness.start(engine));
    }

    /** One run; owned by the harness thread, which also runs the engine's shard and its handlers. */
    private static final class EngineTrial implements Trial {

        private final JoinInput input;
        private final JoinTally tally;
        private final long[] late;
        private Producer<JoinEvent> producer;
        private CepTestHarness<JoinEvent> harness;

        EngineTrial(JoinInput input, JoinTally tally, long[] late, Producer<JoinEvent> producer,
                CepTestHarness<JoinEvent> harness) {
            this.input = input;
            this.tally = tally;
            this.late = late;
            this.producer = producer;
            this.harness = harness;
        }

        @Override
        public RunResult feed() {
            JoinEvent[] elements = input.elements();
            for (int i = 0; i < elements.length; i++) {
                JoinEvent element = elements[i];
                producer.send(element, element.ts());
                long watermark = input.watermarkAfter(i);
                if (watermark != Long.MIN_VALUE) {
                    producer.watermark(watermark);
                    harness.runUntilIdle();
                }
            }
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
