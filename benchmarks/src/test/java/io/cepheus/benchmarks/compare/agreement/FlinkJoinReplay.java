package io.cepheus.benchmarks.compare.agreement;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import org.apache.flink.api.common.functions.CoGroupFunction;
import org.apache.flink.api.common.functions.JoinFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.co.ProcessJoinFunction;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.operators.co.IntervalJoinOperator;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.api.windowing.assigners.EventTimeSessionWindows;
import org.apache.flink.streaming.api.windowing.assigners.ProcessingTimeSessionWindows;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.SlidingProcessingTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingProcessingTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.WindowAssigner;
import org.apache.flink.streaming.api.windowing.triggers.ContinuousEventTimeTrigger;
import org.apache.flink.streaming.api.windowing.triggers.ContinuousProcessingTimeTrigger;
import org.apache.flink.streaming.api.windowing.triggers.CountTrigger;
import org.apache.flink.streaming.api.windowing.triggers.PurgingTrigger;
import org.apache.flink.streaming.api.windowing.triggers.Trigger;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.apache.flink.util.TaggedUnion;

/**
 * Replays a {@link RandomJoinCase} through Apache Flink's own operators, driven by Flink's keyed test harnesses
 * with heap state: {@link IntervalJoinOperator} with both late outputs for an interval join; for a window join or
 * coGroup, the {@code WindowOperator} that {@code DataStream.join/coGroup(...).window(...).apply(...)} builds (taken
 * from the transformation; that API has no late output, so late elements are not compared there). Used on the
 * test's thread.
 */
final class FlinkJoinReplay {

    private static final KeySelector<String, String> KEY = RandomJoinCase::keyOf;
    private static final OutputTag<String> LATE_LEFT = new OutputTag<>("late-left", Types.STRING);
    private static final OutputTag<String> LATE_RIGHT = new OutputTag<>("late-right", Types.STRING);

    private FlinkJoinReplay() {
    }

    static JoinOutputs intervalJoin(RandomJoinCase c) throws Exception {
        JoinOutputs o = new JoinOutputs();
        IntervalJoinOperator<String, String, String, String> operator;
        try {
            operator = new IntervalJoinOperator<>(c.lower(), c.upper(), !c.lowerExclusive(), !c.upperExclusive(),
                    LATE_LEFT, LATE_RIGHT, StringSerializer.INSTANCE, StringSerializer.INSTANCE, new Pairs());
        } catch (IllegalArgumentException e) {
            o.refuse("bounds");
            return o;
        }
        KeyedTwoInputStreamOperatorTestHarness<String, String, String, String> harness =
                new KeyedTwoInputStreamOperatorTestHarness<>(operator, KEY, KEY, Types.STRING);
        harness.setStateBackend(new HashMapStateBackend());
        harness.open();
        try {
            long left = Long.MIN_VALUE;
            long right = Long.MIN_VALUE;
            for (int i = 0; i <= c.input().size(); i++) {
                if (i == c.input().size()) {
                    harness.processWatermark1(new Watermark(Long.MAX_VALUE));
                    harness.processWatermark2(new Watermark(Long.MAX_VALUE));
                } else {
                    RandomJoinCase.Item t = c.input().get(i);
                    if (!t.isWatermark()) {
                        if (t.side() == 'L') {
                            harness.processElement1(new StreamRecord<>(t.element(), t.ts()));
                        } else {
                            harness.processElement2(new StreamRecord<>(t.element(), t.ts()));
                        }
                    } else {
                        if (t.side() != 'R' && t.ts() > left) {
                            left = t.ts();
                            harness.processWatermark1(new Watermark(left));
                        }
                        if (t.side() != 'L' && t.ts() > right) {
                            right = t.ts();
                            harness.processWatermark2(new Watermark(right));
                        }
                    }
                }
                drainResults(harness.getOutput(), i, o, "PAIR ");
                drainLate(harness.getSideOutput(LATE_LEFT), i, o, "LATE L:");
                drainLate(harness.getSideOutput(LATE_RIGHT), i, o, "LATE R:");
            }
        } finally {
            harness.close();
        }
        return o;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static JoinOutputs windowJoin(RandomJoinCase c) throws Exception {
        JoinOutputs o = new JoinOutputs();
        OneInputTransformation<TaggedUnion<String, String>, String> transformation;
        try {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            DataStream<String> a = env.fromData(Types.STRING, "x");
            DataStream<String> b = env.fromData(Types.STRING, "y");
            WindowAssigner assigner = assigner(c);
            Trigger trigger = trigger(c);
            DataStream<String> joined;
            if (c.family().equals("wj")) {
                var windowed = a.join(b).where(KEY, Types.STRING).equalTo(KEY, Types.STRING).window(assigner)
                        .allowedLateness(Duration.ofMillis(c.lateness()));
                joined = (trigger != null ? windowed.trigger(trigger) : windowed).apply(new Joined(), Types.STRING);
            } else {
                var windowed = a.coGroup(b).where(KEY, Types.STRING).equalTo(KEY, Types.STRING).window(assigner)
                        .allowedLateness(Duration.ofMillis(c.lateness()));
                joined = (trigger != null ? windowed.trigger(trigger) : windowed).apply(new CoGrouped(), Types.STRING);
            }
            transformation = (OneInputTransformation) joined.getTransformation();
        } catch (IllegalArgumentException e) {
            o.refuse("window");
            return o;
        }
        OneInputStreamOperator<TaggedUnion<String, String>, String> operator = (OneInputStreamOperator)
                ((SimpleOperatorFactory) transformation.getOperatorFactory()).getOperator();
        KeyedOneInputStreamOperatorTestHarness<String, TaggedUnion<String, String>, String> harness =
                new KeyedOneInputStreamOperatorTestHarness<>(operator, transformation.getStateKeySelector(),
                        (TypeInformation) transformation.getStateKeyType());
        harness.setStateBackend(new HashMapStateBackend());
        harness.open();
        try {
            if (c.processingTime()) {
                feedInProcessingTime(c, harness, o);
                return o;
            }
            long left = Long.MIN_VALUE;
            long right = Long.MIN_VALUE;
            long watermark = Long.MIN_VALUE;
            for (int i = 0; i <= c.input().size(); i++) {
                if (i == c.input().size()) {
                    left = Long.MAX_VALUE;
                    right = Long.MAX_VALUE;
                } else {
                    RandomJoinCase.Item t = c.input().get(i);
                    if (!t.isWatermark()) {
                        harness.processElement(new StreamRecord<>(t.side() == 'L' ? TaggedUnion.one(t.element())
                                : TaggedUnion.two(t.element()), t.ts()));
                    } else {
                        left = t.side() != 'R' ? Math.max(left, t.ts()) : left;
                        right = t.side() != 'L' ? Math.max(right, t.ts()) : right;
                    }
                }
                long combined = Math.min(left, right); // the operator's input watermark: the minimum of both
                if (combined > watermark) {
                    watermark = combined;
                    harness.processWatermark(new Watermark(watermark));
                }
                drainResults(harness.getOutput(), i, o, c.family().equals("wj") ? "PAIR " : "");
            }
        } finally {
            harness.close();
        }
        return o;
    }

    /** Processing time: the clock passes every millisecond up to each item's arrival; watermarks only move it. */
    private static void feedInProcessingTime(RandomJoinCase c,
            KeyedOneInputStreamOperatorTestHarness<String, TaggedUnion<String, String>, String> harness,
            JoinOutputs o) throws Exception {
        long[] times = c.processingTimes();
        long now = 0;
        harness.setProcessingTime(0);
        for (int i = 0; i <= c.input().size(); i++) {
            while (now < times[i]) {
                harness.setProcessingTime(++now);
            }
            if (i < c.input().size() && !c.input().get(i).isWatermark()) {
                RandomJoinCase.Item t = c.input().get(i);
                harness.processElement(new StreamRecord<>(t.side() == 'L' ? TaggedUnion.one(t.element())
                        : TaggedUnion.two(t.element()), t.ts()));
                // a timer set for now fires at once, as Flink's system time service runs it
                harness.setProcessingTime(now);
            }
            drainResults(harness.getOutput(), i, o, c.family().equals("wj") ? "PAIR " : "");
        }
    }

    private static void drainResults(Queue<Object> output, int item, JoinOutputs o, String prefix) {
        Object x;
        while ((x = output.poll()) != null) {
            if (x instanceof StreamRecord<?> r) {
                o.add(item, prefix + JoinOutputs.pair((String) r.getValue()) + " @" + r.getTimestamp());
            }
        }
    }

    private static void drainLate(Queue<StreamRecord<String>> late, int item, JoinOutputs o, String prefix) {
        StreamRecord<String> x;
        while (late != null && (x = late.poll()) != null) {
            o.add(item, prefix + x.getValue());
        }
    }

    @SuppressWarnings("rawtypes")
    private static WindowAssigner assigner(RandomJoinCase c) {
        if (c.processingTime()) {
            return switch (c.assigner()) {
                case "tumbling" -> TumblingProcessingTimeWindows.of(Duration.ofMillis(c.size()),
                        Duration.ofMillis(c.offset()));
                case "sliding" -> SlidingProcessingTimeWindows.of(Duration.ofMillis(c.size()),
                        Duration.ofMillis(c.slide()), Duration.ofMillis(c.offset()));
                default -> ProcessingTimeSessionWindows.withGap(Duration.ofMillis(c.gap()));
            };
        }
        return switch (c.assigner()) {
            case "tumbling" -> TumblingEventTimeWindows.of(Duration.ofMillis(c.size()), Duration.ofMillis(c.offset()));
            case "sliding" -> SlidingEventTimeWindows.of(Duration.ofMillis(c.size()), Duration.ofMillis(c.slide()),
                    Duration.ofMillis(c.offset()));
            default -> EventTimeSessionWindows.withGap(Duration.ofMillis(c.gap()));
        };
    }

    @SuppressWarnings("rawtypes")
    private static Trigger trigger(RandomJoinCase c) {
        return switch (c.trigger()) {
            case "count" -> CountTrigger.of(c.triggerN());
            case "purgecount" -> PurgingTrigger.of(CountTrigger.of(c.triggerN()));
            case "cont" -> c.processingTime() ? ContinuousProcessingTimeTrigger.of(Duration.ofMillis(c.triggerN()))
                    : ContinuousEventTimeTrigger.of(Duration.ofMillis(c.triggerN()));
            default -> null;
        };
    }

    /** Interval join's function: the pair as text. */
    static final class Pairs extends ProcessJoinFunction<String, String, String> {
        @Override
        public void processElement(String l, String r, Context ctx, Collector<String> out) {
            out.collect(l + " " + r);
        }
    }

    /** Window join's function: the pair as text. */
    static final class Joined implements JoinFunction<String, String, String> {
        @Override
        public String join(String l, String r) {
            return l + " " + r;
        }
    }

    /** CoGroup's function: the key and both sides' elements, sorted. */
    static final class CoGrouped implements CoGroupFunction<String, String, String> {
        @Override
        public void coGroup(Iterable<String> lefts, Iterable<String> rights, Collector<String> out) {
            out.collect(coGroupText(lefts, rights));
        }
    }

    static String coGroupText(Iterable<? extends String> lefts, Iterable<? extends String> rights) {
        List<String> l = new ArrayList<>();
        List<String> r = new ArrayList<>();
        String key = "?";
        for (String s : lefts) {
            l.add(RandomJoinCase.withoutKey(s));
            key = RandomJoinCase.keyOf(s);
        }
        for (String s : rights) {
            r.add(RandomJoinCase.withoutKey(s));
            key = RandomJoinCase.keyOf(s);
        }
        Collections.sort(l);
        Collections.sort(r);
        return "CG " + key + " " + l + " " + r;
    }
}
