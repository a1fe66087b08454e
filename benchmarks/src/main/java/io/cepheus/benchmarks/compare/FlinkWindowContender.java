package io.cepheus.benchmarks.compare;

import io.cepheus.benchmarks.workloads.RunResult;
import java.util.Iterator;
import java.util.Queue;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.streaming.api.functions.windowing.WindowFunction;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.windowing.assigners.WindowAssigner;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.streaming.runtime.operators.windowing.WindowOperator;
import org.apache.flink.streaming.runtime.operators.windowing.WindowOperatorBuilder;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Apache Flink's side of a window comparison: Flink's own {@link WindowOperator}, built by Flink's
 * {@link WindowOperatorBuilder} exactly as {@code keyedStream.window(assigner).aggregate(aggregate, windowFunction)}
 * builds it (the assigner's default trigger, no lateness, no evictor, the accumulator in an aggregating state),
 * driven on the calling thread by Flink's {@link KeyedOneInputStreamOperatorTestHarness} with the heap state
 * backend ({@link HashMapStateBackend}), keyed by the element's int key.
 *
 * <p>The aggregate is the same count and sum in a {@code long[2]} as Cepheus's; the window function (which gives
 * Flink the key and the window, as Cepheus's results handler gets them) folds each result into a
 * {@link WindowTally} and emits nothing, so the harness copies no output and the measurement is the operator's.
 * Elements, watermarks and the final {@code Long.MAX_VALUE} watermark as {@link WindowInput} says, one reused
 * {@link StreamRecord}.
 */
final class FlinkWindowContender implements Contender {

    private static final OutputTag<WindowEvent> LATE = new OutputTag<>("late", TypeInformation.of(WindowEvent.class));

    private final WindowInput input;
    private final WindowSpec spec;

    FlinkWindowContender(WindowInput input, WindowSpec spec) {
        this.input = input;
        this.spec = spec;
    }

    @Override
    public String engine() {
        return "Flink WindowOperator";
    }

    @Override
    public Trial prepare() throws Exception {
        WindowTally tally = new WindowTally();
        WindowAssigner<Object, TimeWindow> assigner = spec.flink();
        WindowOperatorBuilder<WindowEvent, Integer, TimeWindow> builder = new WindowOperatorBuilder<>(assigner,
                assigner.getDefaultTrigger(), new ExecutionConfig(), TypeInformation.of(WindowEvent.class),
                WindowEvent::key, Types.INT);
        builder.sideOutputLateData(LATE); // there should be none: checked after the run
        OneInputStreamOperator<WindowEvent, Void> operator = builder.aggregate(new CountAndSum(),
                new Tallying(tally), PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO);
        KeyedOneInputStreamOperatorTestHarness<Integer, WindowEvent, Void> harness =
                new KeyedOneInputStreamOperatorTestHarness<>(operator, WindowEvent::key, Types.INT);
        harness.setStateBackend(new HashMapStateBackend());
        harness.open();
        return new FlinkTrial(input, tally, harness);
    }

    /** Count and sum of the amounts in a {@code long[2]}, updated in place. */
    static final class CountAndSum implements AggregateFunction<WindowEvent, long[], long[]> {
        private static final long serialVersionUID = 1L;

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

    /** Folds each window's single aggregate into the tally; emits nothing. */
    static final class Tallying implements WindowFunction<long[], Void, Integer, TimeWindow> {
        private static final long serialVersionUID = 1L;
        private final WindowTally tally;

        Tallying(WindowTally tally) {
            this.tally = tally;
        }

        @Override
        public void apply(Integer key, TimeWindow window, Iterable<long[]> input, Collector<Void> out) {
            Iterator<long[]> values = input.iterator();
            long[] acc = values.next();
            tally.result(key, window.getStart(), window.getEnd(), acc[0], acc[1]);
        }
    }

    /** One run; owned by the harness thread. */
    private static final class FlinkTrial implements Trial {

        private final WindowInput input;
        private final WindowTally tally;
        private KeyedOneInputStreamOperatorTestHarness<Integer, WindowEvent, Void> harness;

        FlinkTrial(WindowInput input, WindowTally tally,
                KeyedOneInputStreamOperatorTestHarness<Integer, WindowEvent, Void> harness) {
            this.input = input;
            this.tally = tally;
            this.harness = harness;
        }

        @Override
        public RunResult feed() throws Exception {
            WindowEvent[] events = input.events();
            StreamRecord<WindowEvent> record = new StreamRecord<>(null);
            for (int i = 0; i < events.length; i++) {
                WindowEvent event = events[i];
                harness.processElement(record.replace(event, event.ts()));
                long watermark = input.watermarkAfter(i);
                if (watermark != Long.MIN_VALUE) {
                    tally.nextWatermark();
                    harness.processWatermark(watermark);
                }
            }
            tally.nextWatermark();
            harness.processWatermark(Long.MAX_VALUE);
            Queue<StreamRecord<WindowEvent>> late = harness.getSideOutput(LATE);
            if (late != null && !late.isEmpty()) {
                throw new IllegalStateException("Flink dropped " + late.size()
                        + " late elements, but every watermark trails the elements");
            }
            return tally.result();
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
