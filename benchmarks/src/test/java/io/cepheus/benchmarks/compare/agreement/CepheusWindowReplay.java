package io.cepheus.benchmarks.compare.agreement;

import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.window.AccumulationMode;
import io.cepheus.runtime.window.ContinuousEventTimeTrigger;
import io.cepheus.runtime.window.ContinuousProcessingTimeTrigger;
import io.cepheus.runtime.window.CountEvictor;
import io.cepheus.runtime.window.CountTrigger;
import io.cepheus.runtime.window.DeltaEvictor;
import io.cepheus.runtime.window.EventTimeSessionWindows;
import io.cepheus.runtime.window.EventTimeTrigger;
import io.cepheus.runtime.window.GlobalWindows;
import io.cepheus.runtime.window.ProcessingTimeSessionWindows;
import io.cepheus.runtime.window.ProcessingTimeTrigger;
import io.cepheus.runtime.window.PurgingTrigger;
import io.cepheus.runtime.window.SlidingEventTimeWindows;
import io.cepheus.runtime.window.SlidingProcessingTimeWindows;
import io.cepheus.runtime.window.TimeEvictor;
import io.cepheus.runtime.window.TimeWindow;
import io.cepheus.runtime.window.Trigger;
import io.cepheus.runtime.window.TumblingEventTimeWindows;
import io.cepheus.runtime.window.TumblingProcessingTimeWindows;
import io.cepheus.runtime.window.Window;
import io.cepheus.runtime.window.WindowAssigner;
import io.cepheus.runtime.window.WindowedStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Replays a {@link RandomWindowCase} through a Cepheus engine (one or two shards, {@link CepTestHarness} draining after
 * every input item; in processing time a manual clock passing every millisecond up to each item's arrival), in the
 * same output form as {@link FlinkWindowReplay}. Used on the test's thread.
 */
final class CepheusWindowReplay {

    private CepheusWindowReplay() {
    }

    /** @return per input item, the outputs it caused; a last group {@code ERROR ...} if the engine failed */
    static List<List<String>> run(RandomWindowCase c) {
        return run(c, -1);
    }

    /**
     * Interrupted: after the first {@code cut} input items the engine (with snapshot codecs) is snapshotted, and a
     * fresh engine restored from the snapshot, on the same clock, takes the rest.
     *
     * @return per input item, the outputs it caused, which should be those of an uninterrupted run
     */
    static List<List<String>> runRestoredAt(RandomWindowCase c, int cut) {
        return run(c, cut);
    }

    private static List<List<String>> run(RandomWindowCase c, int cut) {
        List<List<String>> groups = new ArrayList<>();
        List<String> out = new ArrayList<>();
        ManualClock clock = new ManualClock(0);
        CepEngine<WindowElement> engine = engine(c, clock, out, cut >= 0);
        Producer<WindowElement> producer = engine.newProducer();
        CepTestHarness<WindowElement> harness = CepTestHarness.start(engine);
        try {
            long[] times = c.processingTimes();
            for (int i = 0; i < c.input().size(); i++) {
                if (i == cut) {
                    byte[] snapshot = ReplaySnapshots.snapshot(harness, ELEMENTS, ReplaySnapshots.INT_KEYS);
                    engine = engine(c, clock, out, true);
                    producer = engine.newProducer();
                    harness = ReplaySnapshots.restore(engine, snapshot, ELEMENTS, ReplaySnapshots.INT_KEYS);
                }
                Object item = c.input().get(i);
                if (c.processingTime()) {
                    while (clock.millis() < times[i]) { // every millisecond, as a real clock passes them
                        clock.advance(1);
                        harness.runUntilIdle();
                    }
                    if (item instanceof WindowElement e) {
                        producer.send(e, e.ts());
                    }
                } else if (item instanceof WindowElement e) {
                    producer.send(e, e.ts());
                } else {
                    producer.watermark((Long) item);
                }
                harness.runUntilIdle();
                groups.add(new ArrayList<>(out));
                out.clear();
            }
            engine.failure().ifPresent(f -> groups.add(List.of("ERROR " + f)));
        } catch (RuntimeException ex) {
            groups.add(List.of("ERROR " + ex));
        } finally {
            harness.close();
        }
        return groups;
    }

    private static CepEngine<WindowElement> engine(RandomWindowCase c, ManualClock clock, List<String> out,
            boolean snapshots) {
        // one shard, or two for a third of the seeds: keys then live on different shards, each with its own
        // watermark and timers
        CepEngine.Builder<WindowElement> builder = CepEngine.<WindowElement>builder().shards(c.seed() % 3 == 0 ? 2 : 1)
                .flushOnClose(false).clock(clock);
        if (snapshots) {
            builder.snapshots(ELEMENTS, ReplaySnapshots.INT_KEYS);
        }
        CepEngine<WindowElement> engine = builder.build();
        WindowedStream<WindowElement> windowed = engine.keyBy(WindowElement::key).window(assigner(c));
        Trigger<WindowElement> trigger = switch (c.trigger()) {
            case "count" -> CountTrigger.of(c.triggerN());
            case "cont" -> c.processingTime() ? ContinuousProcessingTimeTrigger.of(Duration.ofMillis(c.triggerN()))
                    : ContinuousEventTimeTrigger.of(Duration.ofMillis(c.triggerN()));
            default -> null;
        };
        if (c.purging().equals("trigger")) {
            trigger = PurgingTrigger.of(trigger != null ? trigger
                    : c.processingTime() ? ProcessingTimeTrigger.create() : EventTimeTrigger.create());
        } else if (c.purging().equals("mode")) {
            windowed.accumulationMode(AccumulationMode.DISCARDING);
        }
        if (trigger != null) {
            windowed.trigger(trigger);
        }
        if (c.lateness() > 0) {
            windowed.allowedLateness(Duration.ofMillis(c.lateness()));
        }
        windowed.sideOutputLateData((k, e, ts) -> out.add(FlinkWindowReplay.late(e)));
        switch (c.evictor()) {
            case "count" -> windowed.evictor(CountEvictor.of(c.evictorN(), c.evictAfter()));
            case "time" -> windowed.evictor(TimeEvictor.of(Duration.ofMillis(c.evictorN()), c.evictAfter()));
            case "delta" -> windowed.evictor(DeltaEvictor.of((double) c.evictorN(),
                    (WindowElement x, WindowElement y) -> Math.abs(x.value() - y.value()), c.evictAfter()));
            default -> {
            }
        }
        switch (c.function()) {
            case "sum" -> windowed.reduce((a, b) -> new WindowElement(a.key(), a.value() + b.value(), a.ts(), a.id()))
                    .results((k, w, v, ts) -> out.add(label(k, w, FlinkWindowReplay.result(v, false), ts)));
            case "concat" -> windowed.reduce((a, b) -> new WindowElement(a.key(), 0, a.ts(), a.id() + "." + b.id()))
                    .results((k, w, v, ts) -> out.add(label(k, w, FlinkWindowReplay.result(v, true), ts)));
            case "agg" -> windowed.aggregate(new CountSum(), COUNT_SUMS)
                    .results((k, w, v, ts) -> out.add(label(k, w, v, ts)));
            default -> windowed.<String>process((key, ctx, elements, o) -> o.collect("WIN k" + key + " "
                    + window(ctx.window()) + " " + FlinkWindowReplay.sortedValues(elements)))
                    .results((k, w, v, ts) -> out.add(v + " @" + ts));
        }
        return engine;
    }

    /** Writes the elements (and the reduced values, which are elements) in snapshots. */
    private static final EventCodec<WindowElement> ELEMENTS = new EventCodec<>() {
        @Override
        public void write(WindowElement e, DataOutput out) throws IOException {
            out.writeInt(e.key());
            out.writeLong(e.value());
            out.writeLong(e.ts());
            out.writeUTF(e.id());
        }

        @Override
        public WindowElement read(DataInput in) throws IOException {
            return new WindowElement(in.readInt(), in.readLong(), in.readLong(), in.readUTF());
        }
    };

    /** {@link CountSum}'s accumulators: count and sum. */
    private static final EventCodec<long[]> COUNT_SUMS = new EventCodec<>() {
        @Override
        public void write(long[] acc, DataOutput out) throws IOException {
            out.writeLong(acc[0]);
            out.writeLong(acc[1]);
        }

        @Override
        public long[] read(DataInput in) throws IOException {
            return new long[] {in.readLong(), in.readLong()};
        }
    };

    private static String label(Object key, Window w, String result, long ts) {
        return "WIN k" + key + " " + window(w) + " " + result + " @" + ts;
    }

    private static String window(Window w) {
        return w instanceof TimeWindow t ? "[" + t.start() + "," + t.end() + ")" : "global";
    }

    private static WindowAssigner<WindowElement> assigner(RandomWindowCase c) {
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
                case "dynsession" -> ProcessingTimeSessionWindows.withDynamicGap(c::dynamicGap);
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
            case "dynsession" -> EventTimeSessionWindows.withDynamicGap(c::dynamicGap);
            default -> GlobalWindows.create();
        };
    }
}
