package io.cepheus.benchmarks.compare.agreement;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.cep.EventComparator;
import org.apache.flink.cep.functions.PatternProcessFunction;
import org.apache.flink.cep.functions.TimedOutPartialMatchHandler;
import org.apache.flink.cep.nfa.NFA;
import org.apache.flink.cep.nfa.NFAState;
import org.apache.flink.cep.nfa.aftermatch.AfterMatchSkipStrategy;
import org.apache.flink.cep.nfa.compiler.NFACompiler;
import org.apache.flink.cep.nfa.sharedbuffer.SharedBufferAccessor;
import org.apache.flink.cep.operator.CepOperator;
import org.apache.flink.cep.pattern.Pattern;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Replays a {@link RandomCepCase} through Apache Flink's own {@link CepOperator}, one operator per pattern, each
 * built as {@code CEP.pattern(keyedStream, pattern).process(function)} builds it in event time, driven by Flink's
 * keyed operator test harness with heap state: every event with its timestamp, every watermark in its place.
 *
 * <p>Each output notes which NFA time advance produced it: the NFA is Flink's compiled one, re-created as a
 * subclass that counts its {@code advanceTime} calls (same states, windows and timeout handling), so timeouts can be
 * grouped per advance, the unit in which Cepheus reports a timed-out partial match once.
 *
 * <p>{@link #run(RandomCepCase, boolean) With a timer at every watermark}, the operator also registers, for each
 * key it touches, a timer just after the current watermark, so every key is advanced at every later watermark.
 * That is the model of Cepheus's documented difference for {@code PREVIOUS_AND_CURRENT} gaps (a gap closes when
 * the watermark passes it, even for a key that receives nothing more; Flink 2.3 sets no timer for it).
 *
 * <p>Used on the test's thread only.
 */
final class FlinkCepReplay {

    /** Outputs beyond this many make a case too big to compare (and to print). */
    static final int MAX_OUTPUTS = 20_000;

    private static final OutputTag<AgreementEvent> LATE = new OutputTag<>("late",
            TypeInformation.of(AgreementEvent.class));

    private FlinkCepReplay() {
    }

    /** Flink failed on a case (it throws on some patterns Cepheus runs); the test counts and skips those. */
    static final class FlinkFailed extends Exception {

        private static final long serialVersionUID = 1L;

        FlinkFailed(Throwable cause) {
            super(cause);
        }
    }

    /** A case produced more than {@link #MAX_OUTPUTS} outputs. */
    static final class TooManyOutputs extends RuntimeException {

        private static final long serialVersionUID = 1L;

        TooManyOutputs() {
            super("more than " + MAX_OUTPUTS + " outputs");
        }
    }

    /**
     * @param c                    the case
     * @param timerAtEveryWatermark whether every touched key is also advanced at every later watermark
     * @return the outputs of all patterns, late events included
     * @throws FlinkFailed if Flink threw
     */
    static List<CepOutput> run(RandomCepCase c, boolean timerAtEveryWatermark) throws FlinkFailed {
        List<CepOutput> outputs = new ArrayList<>();
        TypeSerializer<AgreementEvent> serializer = TypeInformation.of(AgreementEvent.class)
                .createSerializer(new SerializerConfigImpl());
        for (int p = 0; p < c.patterns().size(); p++) {
            try {
                runPattern(c, p, serializer, timerAtEveryWatermark, outputs);
            } catch (TooManyOutputs e) {
                throw e;
            } catch (Exception e) {
                throw new FlinkFailed(e);
            }
        }
        return outputs;
    }

    /**
     * Processing time: Flink's operator in processing time, its clock moved to each item's
     * {@link RandomCepCase#processingTimes() processing time} before the item (a watermark item only moves the
     * clock).
     *
     * @return the outputs of all patterns
     * @throws FlinkFailed if Flink threw
     */
    static List<CepOutput> runInProcessingTime(RandomCepCase c, boolean timerEveryMillisecond) throws FlinkFailed {
        List<CepOutput> outputs = new ArrayList<>();
        TypeSerializer<AgreementEvent> serializer = TypeInformation.of(AgreementEvent.class)
                .createSerializer(new SerializerConfigImpl());
        long[] times = c.processingTimes();
        for (int p = 0; p < c.patterns().size(); p++) {
            RandomPattern spec = c.patterns().get(p);
            Pattern<AgreementEvent, AgreementEvent> pattern = spec.flink();
            long[] advances = new long[1];
            Recorder function = c.timeouts() ? new RecorderWithTimeouts(p, advances, outputs)
                    : new Recorder(p, advances, outputs);
            CountingNfaFactory factory = new CountingNfaFactory(pattern, c.timeouts(), advances);
            EventComparator<AgreementEvent> byValue = spec.byValue() ? new ByValue() : null;
            CepOperator<AgreementEvent, Integer, Void> operator = timerEveryMillisecond
                    ? new TimerEveryMillisecond(serializer, factory, byValue, pattern.getAfterMatchSkipStrategy(),
                            function)
                    : new CepOperator<>(serializer, true, factory, byValue, pattern.getAfterMatchSkipStrategy(),
                            function, null);
            try {
                KeyedOneInputStreamOperatorTestHarness<Integer, AgreementEvent, Void> harness =
                        new KeyedOneInputStreamOperatorTestHarness<>(operator, AgreementEvent::key, Types.INT);
                try {
                    harness.setStateBackend(new HashMapStateBackend());
                    harness.open();
                    harness.setProcessingTime(0);
                    long now = 0;
                    for (int i = 0; i < c.input().size(); i++) {
                        while (now < times[i]) {
                            harness.setProcessingTime(++now); // every millisecond, as a real clock passes them
                        }
                        RandomCepCase.Item item = c.input().get(i);
                        if (!item.isWatermark()) {
                            harness.processElement(new StreamRecord<>(item.event(), item.event().ts()));
                            if (timerEveryMillisecond) {
                                harness.setProcessingTime(now); // fires the model's timer at the event's own time
                            }
                        }
                    }
                } finally {
                    harness.close();
                }
            } catch (TooManyOutputs e) {
                throw e;
            } catch (Exception e) {
                throw new FlinkFailed(e);
            }
        }
        return outputs;
    }

    private static void runPattern(RandomCepCase c, int p, TypeSerializer<AgreementEvent> serializer,
            boolean timerAtEveryWatermark, List<CepOutput> outputs) throws Exception {
        RandomPattern spec = c.patterns().get(p);
        Pattern<AgreementEvent, AgreementEvent> pattern = spec.flink();
        long[] advances = new long[1];
        CountingNfaFactory factory = new CountingNfaFactory(pattern, c.timeouts(), advances);
        Recorder function = c.timeouts() ? new RecorderWithTimeouts(p, advances, outputs)
                : new Recorder(p, advances, outputs);
        EventComparator<AgreementEvent> byValue = spec.byValue() ? new ByValue() : null;
        CepOperator<AgreementEvent, Integer, Void> operator = timerAtEveryWatermark
                ? new TimerAtEveryWatermark(serializer, factory, byValue, pattern.getAfterMatchSkipStrategy(), function)
                : new CepOperator<>(serializer, false, factory, byValue, pattern.getAfterMatchSkipStrategy(), function,
                        LATE);
        KeyedOneInputStreamOperatorTestHarness<Integer, AgreementEvent, Void> harness =
                new KeyedOneInputStreamOperatorTestHarness<>(operator, AgreementEvent::key, Types.INT);
        try {
            harness.setStateBackend(new HashMapStateBackend());
            harness.open();
            for (RandomCepCase.Item item : c.input()) {
                if (item.isWatermark()) {
                    harness.processWatermark(item.watermark());
                } else {
                    harness.processElement(new StreamRecord<>(item.event(), item.event().ts()));
                }
            }
            Queue<StreamRecord<AgreementEvent>> late = harness.getSideOutput(LATE);
            if (late != null) {
                for (StreamRecord<AgreementEvent> r : late) {
                    outputs.add(new CepOutput(p, r.getValue().key(), CepOutput.Kind.LATE,
                            Integer.toString(r.getValue().id()), r.getTimestamp(), 0));
                }
            }
        } finally {
            harness.close();
        }
    }

    /** Equal timestamps ordered by value, as the Cepheus side's tie-breaker. */
    static final class ByValue implements EventComparator<AgreementEvent> {

        private static final long serialVersionUID = 1L;

        @Override
        public int compare(AgreementEvent a, AgreementEvent b) {
            return Integer.compare(a.value(), b.value());
        }
    }

    /** Records matches, with the number of the NFA time advance they came in. */
    static class Recorder extends PatternProcessFunction<AgreementEvent, Void> {

        private static final long serialVersionUID = 1L;
        private final int pattern;
        private final transient long[] advances;
        private final transient List<CepOutput> outputs;

        Recorder(int pattern, long[] advances, List<CepOutput> outputs) {
            this.pattern = pattern;
            this.advances = advances;
            this.outputs = outputs;
        }

        @Override
        public void processMatch(Map<String, List<AgreementEvent>> match, Context ctx, Collector<Void> out) {
            record(CepOutput.Kind.MATCH, match, ctx.timestamp());
        }

        final void record(CepOutput.Kind kind, Map<String, List<AgreementEvent>> match, long ts) {
            outputs.add(new CepOutput(pattern, CepOutput.keyOf(match), kind, CepOutput.body(match), ts,
                    advances[0]));
            if (outputs.size() > MAX_OUTPUTS) {
                throw new TooManyOutputs();
            }
        }
    }

    /** Also records timed-out partial matches (Flink extracts them only for such a function). */
    static final class RecorderWithTimeouts extends Recorder implements TimedOutPartialMatchHandler<AgreementEvent> {

        private static final long serialVersionUID = 1L;

        RecorderWithTimeouts(int pattern, long[] advances, List<CepOutput> outputs) {
            super(pattern, advances, outputs);
        }

        @Override
        public void processTimedOutMatch(Map<String, List<AgreementEvent>> match, Context ctx) {
            record(CepOutput.Kind.TIMEOUT, match, ctx.timestamp());
        }
    }

    /**
     * Flink's compiled NFA, re-created as {@link AdvanceCountingNfa} with the same states, window and per-state
     * windows (the gaps of {@code PREVIOUS_AND_CURRENT} stages and of {@code times(n, window)} states, which the NFA
     * keeps in a private map: read here by reflection, once per NFA made).
     */
    static final class CountingNfaFactory implements NFACompiler.NFAFactory<AgreementEvent> {

        private static final long serialVersionUID = 1L;
        private final Pattern<AgreementEvent, AgreementEvent> pattern;
        private final boolean timeouts;
        private final transient long[] advances;

        CountingNfaFactory(Pattern<AgreementEvent, AgreementEvent> pattern, boolean timeouts,
                long[] advances) {
            this.pattern = pattern;
            this.timeouts = timeouts;
            this.advances = advances;
        }

        @Override
        public NFA<AgreementEvent> createNFA() {
            NFA<AgreementEvent> compiled = NFACompiler.compileFactory(pattern, timeouts).createNFA();
            return new AdvanceCountingNfa(compiled.getStates(), windowTimesOf(compiled), compiled.getWindowTime(),
                    timeouts, advances);
        }

        @SuppressWarnings("unchecked")
        private static Map<String, Long> windowTimesOf(NFA<AgreementEvent> nfa) {
            try {
                java.lang.reflect.Field f = NFA.class.getDeclaredField("windowTimes");
                f.setAccessible(true);
                return (Map<String, Long>) f.get(nfa);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("Flink's NFA no longer has its windowTimes map", e);
            }
        }
    }

    /** Flink's NFA, counting its time advances. */
    static final class AdvanceCountingNfa extends NFA<AgreementEvent> {

        private final long[] advances;

        AdvanceCountingNfa(Collection<org.apache.flink.cep.nfa.State<AgreementEvent>> states, Map<String, Long> gaps,
                long windowTime, boolean timeouts, long[] advances) {
            super(states, gaps, windowTime, timeouts);
            this.advances = advances;
        }

        @Override
        public Tuple2<Collection<Map<String, List<AgreementEvent>>>,
                Collection<Tuple2<Map<String, List<AgreementEvent>>, Long>>> advanceTime(
                SharedBufferAccessor<AgreementEvent> buffer, NFAState state, long time, AfterMatchSkipStrategy skip)
                throws Exception {
            advances[0]++;
            return super.advanceTime(buffer, state, time, skip);
        }
    }

    /**
     * Flink's operator in processing time plus, for every key it touches, a timer at every following millisecond
     * (and one at an event's own time, which the replay fires right after the event), so each key is advanced as
     * soon as the clock reaches a window's end or a gap's: the model of Cepheus's documented difference (Flink's
     * own processing-time timers are 1 ms after the window's end, and it sets none for a gap).
     */
    static final class TimerEveryMillisecond extends CepOperator<AgreementEvent, Integer, Void> {

        private static final long serialVersionUID = 1L;
        private transient InternalTimerService<VoidNamespace> timers;
        /**
         * With a comparator Flink matches a millisecond's arrivals at its timer: one at their own time would be too
         * early.
         */
        private final boolean sorting;

        TimerEveryMillisecond(TypeSerializer<AgreementEvent> serializer, NFACompiler.NFAFactory<AgreementEvent> nfa,
                EventComparator<AgreementEvent> comparator, AfterMatchSkipStrategy skip, Recorder function) {
            super(serializer, true, nfa, comparator, skip, function, null);
            this.sorting = comparator != null;
        }

        @Override
        public void open() throws Exception {
            super.open();
            timers = getInternalTimerService("watermark-callbacks", VoidNamespaceSerializer.INSTANCE, this);
        }

        @Override
        public void processElement(StreamRecord<AgreementEvent> element) throws Exception {
            super.processElement(element);
            if (!sorting) { // also at the event's own time: it can move a partial match into a gap already closed
                timers.registerProcessingTimeTimer(VoidNamespace.INSTANCE, timers.currentProcessingTime());
            }
            timers.registerProcessingTimeTimer(VoidNamespace.INSTANCE, timers.currentProcessingTime() + 1);
        }

        @Override
        public void onProcessingTime(InternalTimer<Integer, VoidNamespace> timer) throws Exception {
            super.onProcessingTime(timer);
            timers.registerProcessingTimeTimer(VoidNamespace.INSTANCE, timers.currentProcessingTime() + 1);
        }
    }

    /** Flink's operator plus, for every key it touches, a timer just after the current watermark. */
    static final class TimerAtEveryWatermark extends CepOperator<AgreementEvent, Integer, Void> {

        private static final long serialVersionUID = 1L;
        private transient InternalTimerService<VoidNamespace> watermarkTimers;

        TimerAtEveryWatermark(TypeSerializer<AgreementEvent> serializer, NFACompiler.NFAFactory<AgreementEvent> nfa,
                EventComparator<AgreementEvent> comparator, AfterMatchSkipStrategy skip, Recorder function) {
            super(serializer, false, nfa, comparator, skip, function, LATE);
        }

        @Override
        public void open() throws Exception {
            super.open();
            // the operator's own timer service (same name): a timer at a time it also set fires once
            watermarkTimers = getInternalTimerService("watermark-callbacks", VoidNamespaceSerializer.INSTANCE, this);
        }

        @Override
        public void processElement(StreamRecord<AgreementEvent> element) throws Exception {
            super.processElement(element);
            registerAfterWatermark();
        }

        @Override
        public void onEventTime(InternalTimer<Integer, VoidNamespace> timer) throws Exception {
            super.onEventTime(timer);
            registerAfterWatermark();
        }

        private void registerAfterWatermark() {
            long watermark = watermarkTimers.currentWatermark();
            if (watermark < Long.MAX_VALUE) {
                watermarkTimers.registerEventTimeTimer(VoidNamespace.INSTANCE, watermark + 1);
            }
        }
    }
}
