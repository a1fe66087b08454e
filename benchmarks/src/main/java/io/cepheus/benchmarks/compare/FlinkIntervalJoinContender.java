package io.cepheus.benchmarks.compare;

import io.cepheus.benchmarks.workloads.RunResult;
import java.util.Queue;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.streaming.api.functions.co.ProcessJoinFunction;
import org.apache.flink.streaming.api.operators.co.IntervalJoinOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Apache Flink's side of the interval-join comparison: Flink's own {@link IntervalJoinOperator}, built as
 * {@code orders.keyBy(key).intervalJoin(payments.keyBy(key)).between(0, R).process(f)} builds it (both bounds
 * inclusive, the sides' serializers from their type information), driven on the calling thread by Flink's
 * {@link KeyedTwoInputStreamOperatorTestHarness} with the heap state backend ({@link HashMapStateBackend}), keyed
 * by the customer. Orders go to input 1, payments to input 2, in {@link JoinInput}'s arrival order; each watermark
 * goes to both inputs, as two sources advancing together would send it. The join function folds each pair into a
 * {@link JoinTally} and emits nothing. One reused {@link StreamRecord} per input.
 */
final class FlinkIntervalJoinContender implements Contender {

    private static final OutputTag<JoinEvent.Order> LATE_ORDERS =
            new OutputTag<>("late-orders", TypeInformation.of(JoinEvent.Order.class));
    private static final OutputTag<JoinEvent.Payment> LATE_PAYMENTS =
            new OutputTag<>("late-payments", TypeInformation.of(JoinEvent.Payment.class));

    private final JoinInput input;

    FlinkIntervalJoinContender(JoinInput input) {
        this.input = input;
    }

    @Override
    public String engine() {
        return "Flink IntervalJoinOperator";
    }

    @Override
    public Trial prepare() throws Exception {
        JoinTally tally = new JoinTally();
        SerializerConfigImpl config = new SerializerConfigImpl();
        IntervalJoinOperator<Integer, JoinEvent.Order, JoinEvent.Payment, Void> operator = new IntervalJoinOperator<>(
                0, JoinInput.R_MS, true, true, LATE_ORDERS, LATE_PAYMENTS,
                TypeInformation.of(JoinEvent.Order.class).createSerializer(config),
                TypeInformation.of(JoinEvent.Payment.class).createSerializer(config),
                new Tallying(tally));
        KeyedTwoInputStreamOperatorTestHarness<Integer, JoinEvent.Order, JoinEvent.Payment, Void> harness =
                new KeyedTwoInputStreamOperatorTestHarness<>(operator, JoinEvent.Order::key,
                        JoinEvent.Payment::key, Types.INT);
        harness.setStateBackend(new HashMapStateBackend());
        harness.open();
        return new FlinkTrial(input, tally, harness);
    }

    /** Folds each pair into the tally; emits nothing. */
    static final class Tallying extends ProcessJoinFunction<JoinEvent.Order, JoinEvent.Payment, Void> {
        private static final long serialVersionUID = 1L;
        private final JoinTally tally;

        Tallying(JoinTally tally) {
            this.tally = tally;
        }

        @Override
        public void processElement(JoinEvent.Order order, JoinEvent.Payment payment, Context ctx,
                Collector<Void> out) {
            tally.pair(order.id(), payment.orderId());
        }
    }

    /** One run; owned by the harness thread. */
    private static final class FlinkTrial implements Trial {

        private final JoinInput input;
        private final JoinTally tally;
        private KeyedTwoInputStreamOperatorTestHarness<Integer, JoinEvent.Order, JoinEvent.Payment, Void> harness;

        FlinkTrial(JoinInput input, JoinTally tally,
                KeyedTwoInputStreamOperatorTestHarness<Integer, JoinEvent.Order, JoinEvent.Payment, Void> harness) {
            this.input = input;
            this.tally = tally;
            this.harness = harness;
        }

        @Override
        public RunResult feed() throws Exception {
            JoinEvent[] elements = input.elements();
            StreamRecord<JoinEvent.Order> order = new StreamRecord<>(null);
            StreamRecord<JoinEvent.Payment> payment = new StreamRecord<>(null);
            for (int i = 0; i < elements.length; i++) {
                JoinEvent element = elements[i];
                if (element instanceof JoinEvent.Order o) {
                    harness.processElement1(order.replace(o, o.ts()));
                } else {
                    JoinEvent.Payment p = (JoinEvent.Payment) element;
                    harness.processElement2(payment.replace(p, p.ts()));
                }
                long watermark = input.watermarkAfter(i);
                if (watermark != Long.MIN_VALUE) {
                    harness.processWatermark1(new Watermark(watermark));
                    harness.processWatermark2(new Watermark(watermark));
                }
            }
            harness.processWatermark1(Watermark.MAX_WATERMARK);
            harness.processWatermark2(Watermark.MAX_WATERMARK);
            long late = size(harness.getSideOutput(LATE_ORDERS)) + size(harness.getSideOutput(LATE_PAYMENTS));
            if (late != 0) {
                throw new IllegalStateException("Flink dropped " + late
                        + " late elements, but every watermark trails the elements");
            }
            return tally.result();
        }

        private static long size(Queue<?> queue) {
            return queue == null ? 0 : queue.size();
        }

        @Override
        public void close() throws Exception {
            if (harness != null) {
                harness.close();
                harness = null;
            }
        }
    }
}
