package io.cepheus.benchmarks.compare;

import io.cepheus.benchmarks.workloads.BenchEvent;
import io.cepheus.benchmarks.workloads.RunResult;
import java.util.Queue;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.cep.nfa.compiler.NFACompiler;
import org.apache.flink.cep.operator.CepOperator;
import org.apache.flink.cep.pattern.Pattern;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;

/**
 * Apache Flink's side of a CEP comparison: Flink's own {@link CepOperator}, built the way
 * {@code PatternStreamBuilder} builds it for {@code CEP.pattern(keyedStream, pattern).process(function)} in event
 * time, driven on the calling thread by Flink's {@link KeyedOneInputStreamOperatorTestHarness} with the heap
 * state backend ({@link HashMapStateBackend}), keyed by the event's int key.
 *
 * <p>Event time as WORKLOADS.md suggests: each event with its timestamp, a watermark {@code ts - 1} after every
 * 1,000 events, and a final {@code Long.MAX_VALUE} watermark that flushes every key (the operator sorts each
 * key's buffered events and runs its NFA when the watermark passes them; windows expire on watermarks).
 * Timeouts are handled exactly when the workload counts them ({@link FlinkCountingFunction#create}); the NFA is
 * compiled with the same flag, as {@code PatternStreamBuilder} does. One {@link StreamRecord} is reused for every
 * event, as Flink's network input does, so the harness adds no allocation per event of its own.
 */
final class FlinkCepContender implements Contender {

    private static final int WATERMARK_INTERVAL = 1_000;

    /** Where the operator sends events behind the watermark; the harness collects them. */
    private static final OutputTag<BenchEvent> LATE = new OutputTag<>("late", TypeInformation.of(BenchEvent.class));

    private final CepInput input;
    private final Pattern<BenchEvent, BenchEvent> pattern;
    private final TypeSerializer<BenchEvent> eventSerializer;

    FlinkCepContender(CepInput input) {
        this.input = input;
        this.pattern = FlinkCepPatterns.pattern(input.workload());
        this.eventSerializer = TypeInformation.of(BenchEvent.class).createSerializer(new SerializerConfigImpl());
    }

    @Override
    public String engine() {
        return "Flink CepOperator";
    }

    @Override
    public Trial prepare() throws Exception {
        FlinkCountingFunction function = FlinkCountingFunction.create(input.workload().countsTimeouts());
        boolean timeoutHandling = function instanceof FlinkCountingFunction.WithTimeouts;
        CepOperator<BenchEvent, Integer, Void> operator = new CepOperator<>(
                eventSerializer,
                false, // event time
                NFACompiler.compileFactory(pattern, timeoutHandling),
                null, // no comparator: equal timestamps in arrival order
                pattern.getAfterMatchSkipStrategy(),
                function,
                LATE); // there should be no late data (watermarks trail the events): checked after the run
        KeyedOneInputStreamOperatorTestHarness<Integer, BenchEvent, Void> harness =
                new KeyedOneInputStreamOperatorTestHarness<>(operator, BenchEvent::key, Types.INT);
        harness.setStateBackend(new HashMapStateBackend());
        harness.open();
        return new FlinkTrial(input, harness, function);
    }

    /** One run; owned by the harness thread. */
    private static final class FlinkTrial implements Trial {

        private final CepInput input;
        private final FlinkCountingFunction function;
        private KeyedOneInputStreamOperatorTestHarness<Integer, BenchEvent, Void> harness;

        FlinkTrial(CepInput input, KeyedOneInputStreamOperatorTestHarness<Integer, BenchEvent, Void> harness,
                FlinkCountingFunction function) {
            this.input = input;
            this.harness = harness;
            this.function = function;
        }

        @Override
        public RunResult feed() throws Exception {
            long[] timestamps = input.timestamps();
            BenchEvent[] events = input.events();
            int length = input.length();
            StreamRecord<BenchEvent> record = new StreamRecord<>(null);
            for (int i = 0; i < length; i++) {
                harness.processElement(record.replace(events[i], timestamps[i]));
                if ((i + 1) % WATERMARK_INTERVAL == 0) {
                    harness.processWatermark(timestamps[i] - 1);
                }
            }
            harness.processWatermark(Long.MAX_VALUE);
            Queue<StreamRecord<BenchEvent>> late = harness.getSideOutput(LATE);
            if (late != null && !late.isEmpty()) {
                throw new IllegalStateException(input.workload() + ": Flink dropped " + late.size()
                        + " late events, but every watermark trails the events");
            }
            return function.result();
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
