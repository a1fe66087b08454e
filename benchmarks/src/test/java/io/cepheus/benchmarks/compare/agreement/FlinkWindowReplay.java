package io.cepheus.benchmarks.compare.agreement;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Queue;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.functions.ReduceFunction;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.functions.windowing.delta.DeltaFunction;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.windowing.assigners.DynamicEventTimeSessionWindows;
import org.apache.flink.streaming.api.windowing.assigners.EventTimeSessionWindows;
import org.apache.flink.streaming.api.windowing.assigners.GlobalWindows;
import org.apache.flink.streaming.api.windowing.assigners.ProcessingTimeSessionWindows;
import org.apache.flink.streaming.api.windowing.assigners.SessionWindowTimeGapExtractor;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.SlidingProcessingTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingProcessingTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.WindowAssigner;
import org.apache.flink.streaming.api.windowing.evictors.CountEvictor;
import org.apache.flink.streaming.api.windowing.evictors.DeltaEvictor;
import org.apache.flink.streaming.api.windowing.evictors.TimeEvictor;
import org.apache.flink.streaming.api.windowing.triggers.ContinuousEventTimeTrigger;
import org.apache.flink.streaming.api.windowing.triggers.ContinuousProcessingTimeTrigger;
import org.apache.flink.streaming.api.windowing.triggers.CountTrigger;
import org.apache.flink.streaming.api.windowing.triggers.PurgingTrigger;
import org.apache.flink.streaming.api.windowing.triggers.Trigger;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.streaming.api.windowing.windows.Window;
import org.apache.flink.streaming.runtime.operators.windowing.WindowOperatorBuilder;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Replays a {@link RandomWindowCase} through Apache Flink's own {@code WindowOperator}, built by Flink's
 * {@link WindowOperatorBuilder} as {@code keyBy(...).window(...)} builds it, driven by the keyed operator test
 * harness with heap state; in processing time its clock passes every millisecond up to each item's arrival.
 * Returns, for each input item, what the operator emitted in response to it (and to the clock reaching it): window
 * results as {@code WIN k1 [0,10) result @9}, late elements as {@code LATE k1 4@3#7}. Used on the test's thread.
 */
final class FlinkWindowReplay {

    private static final OutputTag<WindowElement> LATE = new OutputTag<>("late",
            TypeInformation.of(WindowElement.class));

    private FlinkWindowReplay() {
    }

    /** @return per input item, the outputs it caused; a last group {@code ERROR ...} if Flink threw */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static List<List<String>> run(RandomWindowCase c) {
        List<List<String>> groups = new ArrayList<>();
        KeyedOneInputStreamOperatorTestHarness<Integer, WindowElement, String> harness = null;
        try {
            WindowAssigner assigner = assigner(c);
            Trigger trigger = switch (c.trigger()) {
                case "count" -> CountTrigger.of(c.triggerN());
                case "cont" -> c.processingTime()
                        ? ContinuousProcessingTimeTrigger.of(Duration.ofMillis(c.triggerN()))
                        : ContinuousEventTimeTrigger.of(Duration.ofMillis(c.triggerN()));
                default -> assigner.getDefaultTrigger();
            };
            if (!c.purging().equals("none")) {
                trigger = PurgingTrigger.of(trigger);
            }
            WindowOperatorBuilder builder = new WindowOperatorBuilder(assigner, trigger, new ExecutionConfig(),
                    TypeInformation.of(WindowElement.class), (KeySelector<WindowElement, Integer>) WindowElement::key,
                    Types.INT);
            if (c.lateness() > 0) {
                builder.allowedLateness(Duration.ofMillis(c.lateness()));
            }
            builder.sideOutputLateData(LATE);
            switch (c.evictor()) {
                case "count" -> builder.evictor(CountEvictor.of(c.evictorN(), c.evictAfter()));
                case "time" -> builder.evictor(TimeEvictor.of(Duration.ofMillis(c.evictorN()), c.evictAfter()));
                case "delta" -> builder.evictor(DeltaEvictor.of((double) c.evictorN(),
                        (DeltaFunction<WindowElement>) (x, y) -> Math.abs(x.value() - y.value()), c.evictAfter()));
                default -> {
                }
            }
            OneInputStreamOperator<WindowElement, String> operator = switch (c.function()) {
                case "sum" -> builder.reduce(new Sum(), new Labelled<>(false));
                case "concat" -> builder.reduce(new Concat(), new Labelled<>(true));
                case "agg" -> builder.aggregate(new CountSum(), new Labelled<>(false),
                        PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO);
                default -> builder.process(new SortedValues<>());
            };
            harness = new KeyedOneInputStreamOperatorTestHarness<>(operator, WindowElement::key, Types.INT);
            harness.setStateBackend(new HashMapStateBackend());
            harness.open();
            long[] times = c.processingTimes();
            long now = 0;
            harness.setProcessingTime(0);
            for (int i = 0; i < c.input().size(); i++) {
                Object item = c.input().get(i);
                if (c.processingTime()) {
                    while (now < times[i]) {
                        harness.setProcessingTime(++now); // every millisecond, as a real clock passes them
                    }
                    if (item instanceof WindowElement e) {
                        harness.processElement(new StreamRecord<>(e, e.ts()));
                        // a timer set for the current time (a window ending now) fires at once, as Flink's
                        // system time service runs it; the harness's service waits for the next time it is set
                        harness.setProcessingTime(now);
                    }
                } else if (item instanceof WindowElement e) {
                    harness.processElement(new StreamRecord<>(e, e.ts()));
                } else {
                    harness.processWatermark((Long) item);
                }
                List<String> group = new ArrayList<>();
                Object o;
                while ((o = harness.getOutput().poll()) != null) {
                    if (o instanceof StreamRecord<?> r) {
                        group.add(r.getValue() + " @" + r.getTimestamp());
                    }
                }
                Queue<StreamRecord<WindowElement>> late = harness.getSideOutput(LATE);
                StreamRecord<WindowElement> r;
                while (late != null && (r = late.poll()) != null) {
                    group.add(late(r.getValue()));
                }
                groups.add(group);
            }
        } catch (Exception ex) {
            groups.add(List.of("ERROR " + ex));
        } finally {
            if (harness != null) {
                try {
                    harness.close();
                } catch (Exception ignored) {
                    // the outputs are collected; closing only releases the harness
                }
            }
        }
        return groups;
    }

    static String late(WindowElement e) {
        return "LATE k" + e.key() + " " + e.value() + "@" + e.ts() + "#" + e.id();
    }

    static String window(Object w) {
        if (w instanceof TimeWindow t) {
            return "[" + t.getStart() + "," + t.getEnd() + ")";
        }
        return "global";
    }

    @SuppressWarnings("rawtypes")
    private static WindowAssigner assigner(RandomWindowCase c) {
        Duration size = Duration.ofMillis(c.size());
        if (c.processingTime()) {
            return switch (c.assigner()) {
                case "tumbling" -> c.hasOffset()
                        ? TumblingProcessingTimeWindows.of(size, Duration.ofMillis(c.offset()))
                        : TumblingProcessingTimeWindows.of(size);
                case "sliding" -> c.hasOffset() ? SlidingProcessingTimeWindows.of(size, Duration.ofMillis(c.slide()),
                        Duration.ofMillis(c.offset())) : SlidingProcessingTimeWindows.of(size,
                        Duration.ofMillis(c.slide()));
                case "session" -> ProcessingTimeSessionWindows.withGap(size);
                case "dynsession" -> ProcessingTimeSessionWindows.withDynamicGap(
                        (SessionWindowTimeGapExtractor<WindowElement>) c::dynamicGap);
                default -> GlobalWindows.create();
            };
        }
        return switch (c.assigner()) {
            case "tumbling" -> c.hasOffset() ? TumblingEventTimeWindows.of(size, Duration.ofMillis(c.offset()))
                    : TumblingEventTimeWindows.of(size);
            case "sliding" -> c.hasOffset()
                    ? SlidingEventTimeWindows.of(size, Duration.ofMillis(c.slide()), Duration.ofMillis(c.offset()))
                    : SlidingEventTimeWindows.of(size, Duration.ofMillis(c.slide()));
            case "session" -> EventTimeSessionWindows.withGap(size);
            case "dynsession" -> DynamicEventTimeSessionWindows.withDynamicGap(
                    (SessionWindowTimeGapExtractor<WindowElement>) c::dynamicGap);
            default -> GlobalWindows.create();
        };
    }

    /** Sum of values, as a reduce. */
    static final class Sum implements ReduceFunction<WindowElement> {
        @Override
        public WindowElement reduce(WindowElement a, WindowElement b) {
            return new WindowElement(a.key(), a.value() + b.value(), a.ts(), a.id());
        }
    }

    /** Concatenation of ids, as a reduce: shows which elements were combined, in which order. */
    static final class Concat implements ReduceFunction<WindowElement> {
        @Override
        public WindowElement reduce(WindowElement a, WindowElement b) {
            return new WindowElement(a.key(), 0, a.ts(), a.id() + "." + b.id());
        }
    }

    /** The window function after a reduce or aggregate: labels the one value with its key and window. */
    static final class Labelled<V, W extends Window> extends ProcessWindowFunction<V, String, Integer, W> {

        private static final long serialVersionUID = 1L;
        private final boolean ids;

        Labelled(boolean ids) {
            this.ids = ids;
        }

        @Override
        public void process(Integer key, Context ctx, Iterable<V> values, Collector<String> out) {
            Iterator<V> it = values.iterator();
            out.collect("WIN k" + key + " " + window(ctx.window()) + " " + result(it.next(), ids));
        }
    }

    /** @return a reduced element as its ids (concatenation) or its value (sum); another result as it is */
    static String result(Object v, boolean ids) {
        if (v instanceof WindowElement e) {
            return ids ? e.id() : Long.toString(e.value());
        }
        return String.valueOf(v);
    }

    /** A process function over all elements: their values, sorted. */
    static final class SortedValues<W extends Window> extends ProcessWindowFunction<WindowElement, String, Integer, W> {

        private static final long serialVersionUID = 1L;

        @Override
        public void process(Integer key, Context ctx, Iterable<WindowElement> elements, Collector<String> out) {
            out.collect("WIN k" + key + " " + window(ctx.window()) + " " + sortedValues(elements));
        }
    }

    static List<Long> sortedValues(Iterable<WindowElement> elements) {
        List<Long> values = new ArrayList<>();
        elements.forEach(e -> values.add(e.value()));
        Collections.sort(values);
        return values;
    }
}
