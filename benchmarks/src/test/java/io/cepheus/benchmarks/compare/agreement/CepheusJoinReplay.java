package io.cepheus.benchmarks.compare.agreement;

import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.join.IntervalJoin;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.window.ContinuousEventTimeTrigger;
import io.cepheus.runtime.window.ContinuousProcessingTimeTrigger;
import io.cepheus.runtime.window.CountTrigger;
import io.cepheus.runtime.window.EventTimeSessionWindows;
import io.cepheus.runtime.window.ProcessingTimeSessionWindows;
import io.cepheus.runtime.window.PurgingTrigger;
import io.cepheus.runtime.window.SlidingEventTimeWindows;
import io.cepheus.runtime.window.SlidingProcessingTimeWindows;
import io.cepheus.runtime.window.Trigger;
import io.cepheus.runtime.window.TumblingEventTimeWindows;
import io.cepheus.runtime.window.TumblingProcessingTimeWindows;
import io.cepheus.runtime.window.WindowAssigner;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Replays a {@link RandomJoinCase} through a Cepheus engine: one keyed stream of both sides' elements (a side
 * selector picks each side), one producer per side, {@link CepTestHarness} draining after every input item; the
 * case's shard count. Outputs in {@link FlinkJoinReplay}'s form. Used on the test's thread.
 */
final class CepheusJoinReplay {

    private static final Function<String, String> LEFT = e -> e.charAt(1) == 'L' ? e : null;
    private static final Function<String, String> RIGHT = e -> e.charAt(1) == 'R' ? e : null;

    private CepheusJoinReplay() {
    }

    static JoinOutputs intervalJoin(RandomJoinCase c) {
        return intervalJoin(c, -1);
    }

    /**
     * @param cut the input item before which the engine is snapshotted and a fresh one restored from the snapshot
     *            takes over (its outputs should be those of an uninterrupted run), or -1 for none
     */
    static JoinOutputs intervalJoin(RandomJoinCase c, int cut) {
        JoinOutputs o = new JoinOutputs();
        int[] item = {0};
        Supplier<CepEngine<String>> engines = () -> {
            CepEngine<String> engine = builder(c, cut).build();
            IntervalJoin<String, String, String> join = engine.keyBy(RandomJoinCase::keyOf).intervalJoin(LEFT, RIGHT);
            if (cut >= 0) {
                join.snapshotCodecs(STRINGS, STRINGS);
            }
            join.between(Duration.ofMillis(c.lower()), Duration.ofMillis(c.upper()));
            if (c.lowerExclusive()) {
                join.lowerBoundExclusive();
            }
            if (c.upperExclusive()) {
                join.upperBoundExclusive();
            }
            join.<String>process((l, r, ctx, out) -> {
                if (ctx.leftTimestamp() != RandomJoinCase.timeOf(l) || ctx.rightTimestamp() != RandomJoinCase.timeOf(r)
                        || ctx.timestamp() != Math.max(ctx.leftTimestamp(), ctx.rightTimestamp())) {
                    o.add(item[0], "WRONG CONTEXT " + l + " " + r + ": " + ctx.leftTimestamp() + " "
                            + ctx.rightTimestamp() + " " + ctx.timestamp());
                }
                out.collect(l + " " + r);
            })
                    .results((k, joined, ts) -> o.add(item[0], "PAIR " + JoinOutputs.pair(joined) + " @" + ts))
                    .lateLeft((k, e, ts) -> o.add(item[0], "LATE L:" + e))
                    .lateRight((k, e, ts) -> o.add(item[0], "LATE R:" + e));
            return engine;
        };
        CepEngine<String> engine;
        try {
            engine = engines.get();
        } catch (IllegalArgumentException e) {
            o.refuse("bounds");
            return o;
        }
        feed(c, engine, engines, cut, item, null);
        return o;
    }

    static JoinOutputs windowJoin(RandomJoinCase c) {
        return windowJoin(c, -1);
    }

    /** @param cut as for {@link #intervalJoin(RandomJoinCase, int)} */
    static JoinOutputs windowJoin(RandomJoinCase c, int cut) {
        JoinOutputs o = new JoinOutputs();
        int[] item = {0};
        ManualClock clock = new ManualClock(0);
        Supplier<CepEngine<String>> engines = () -> {
            CepEngine<String> engine = builder(c, cut).clock(clock).build();
            Trigger<String> trigger = trigger(c);
            if (c.family().equals("wj")) {
                var windowed = engine.keyBy(RandomJoinCase::keyOf).join(LEFT, RIGHT).window(assigner(c));
                if (trigger != null) {
                    windowed.trigger(trigger);
                }
                windowed.allowedLateness(Duration.ofMillis(c.lateness()))
                        .sideOutputLateData((k, e, ts) -> o.add(item[0], "LATE " + e))
                        .apply((String l, String r) -> l + " " + r)
                        .results((k, w, joined, ts) -> o.add(item[0], "PAIR " + JoinOutputs.pair(joined) + " @" + ts));
            } else {
                var windowed = engine.keyBy(RandomJoinCase::keyOf).coGroup(LEFT, RIGHT).window(assigner(c));
                if (trigger != null) {
                    windowed.trigger(trigger);
                }
                windowed.allowedLateness(Duration.ofMillis(c.lateness()))
                        .sideOutputLateData((k, e, ts) -> o.add(item[0], "LATE " + e))
                        .<String>apply((lefts, rights, out) -> out.collect(FlinkJoinReplay.coGroupText(lefts, rights)))
                        .results((k, w, text, ts) -> o.add(item[0], text + " @" + ts));
            }
            return engine;
        };
        CepEngine<String> engine;
        try {
            engine = engines.get();
        } catch (IllegalArgumentException e) {
            o.refuse("window");
            return o;
        }
        feed(c, engine, engines, cut, item, c.processingTime() ? clock : null);
        return o;
    }

    /** @return the case's engine builder, with snapshot codecs if it is to be cut */
    private static CepEngine.Builder<String> builder(RandomJoinCase c, int cut) {
        CepEngine.Builder<String> builder = CepEngine.<String>builder().shards(c.shards()).inboxCapacity(4096);
        return cut >= 0 ? builder.snapshots(STRINGS, KEYS) : builder;
    }

    /**
     * Feeds the case, one producer per side, draining after every item. In processing time ({@code clock} not
     * null) the clock passes every millisecond up to each item's arrival and watermarks only move it. Before item
     * {@code cut} the engine is snapshotted and a fresh one from {@code engines}, restored from it, takes over.
     */
    private static void feed(RandomJoinCase c, CepEngine<String> engine, Supplier<CepEngine<String>> engines, int cut,
            int[] item, ManualClock clock) {
        Producer<String> left = engine.newProducer();
        Producer<String> right = engine.newProducer();
        CepTestHarness<String> harness = CepTestHarness.start(engine);
        long[] times = clock == null ? null : c.processingTimes();
        try {
            for (int i = 0; i <= c.input().size(); i++) {
                item[0] = i;
                if (i == cut) {
                    byte[] snapshot = ReplaySnapshots.snapshot(harness, STRINGS, KEYS);
                    CepEngine<String> restored = engines.get();
                    left = restored.newProducer();
                    right = restored.newProducer();
                    harness = ReplaySnapshots.restore(restored, snapshot, STRINGS, KEYS);
                }
                if (clock != null) {
                    while (clock.millis() < times[i]) {
                        clock.advance(1);
                        harness.runUntilIdle();
                    }
                    if (i < c.input().size() && !c.input().get(i).isWatermark()) {
                        RandomJoinCase.Item t = c.input().get(i);
                        (t.side() == 'L' ? left : right).send(t.element(), t.ts());
                    }
                } else if (i == c.input().size()) {
                    left.watermark(Long.MAX_VALUE);
                    right.watermark(Long.MAX_VALUE);
                } else {
                    RandomJoinCase.Item t = c.input().get(i);
                    if (!t.isWatermark()) {
                        (t.side() == 'L' ? left : right).send(t.element(), t.ts());
                    } else {
                        if (t.side() != 'R') {
                            left.watermark(t.ts());
                        }
                        if (t.side() != 'L') {
                            right.watermark(t.ts());
                        }
                    }
                }
                harness.runUntilIdle();
            }
        } finally {
            harness.close();
        }
    }

    /** Writes the elements (strings), and the keys, in snapshots. */
    private static final EventCodec<String> STRINGS = new EventCodec<>() {
        @Override
        public void write(String s, DataOutput out) throws IOException {
            out.writeUTF(s);
        }

        @Override
        public String read(DataInput in) throws IOException {
            return in.readUTF();
        }
    };

    private static final EventCodec<Object> KEYS = new EventCodec<>() {
        @Override
        public void write(Object key, DataOutput out) throws IOException {
            out.writeUTF((String) key);
        }

        @Override
        public Object read(DataInput in) throws IOException {
            return in.readUTF();
        }
    };

    private static WindowAssigner<String> assigner(RandomJoinCase c) {
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

    private static Trigger<String> trigger(RandomJoinCase c) {
        return switch (c.trigger()) {
            case "count" -> CountTrigger.of(c.triggerN());
            case "purgecount" -> PurgingTrigger.of(CountTrigger.of(c.triggerN()));
            case "cont" -> c.processingTime() ? ContinuousProcessingTimeTrigger.of(Duration.ofMillis(c.triggerN()))
                    : ContinuousEventTimeTrigger.of(Duration.ofMillis(c.triggerN()));
            default -> null;
        };
    }
}
