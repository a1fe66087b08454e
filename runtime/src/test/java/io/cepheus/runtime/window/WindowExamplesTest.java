package io.cepheus.runtime.window;

import static io.cepheus.runtime.window.WindowTestKit.engine;
import static io.cepheus.runtime.window.WindowTestKit.summing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.RecordCodec;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Collector;
import io.cepheus.runtime.OutputTag;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import io.cepheus.runtime.window.WindowTestKit.Ev;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The behaviours Flink's window documentation describes, through the real engine on the caller's thread. */
class WindowExamplesTest {

    private static long at(String hhmmss) {
        return LocalTime.parse(hhmmss).toSecondOfDay() * 1000L;
    }

    private static String sum(List<Ev> l) {
        return Long.toString(l.stream().mapToLong(Ev::value).sum());
    }

    @Test
    void theLifecycleOfATumblingWindowWithOneMinuteOfLateness() {
        CepEngine<Ev> engine = engine(new ManualClock());
        List<String> out = new ArrayList<>();
        List<String> late = new ArrayList<>();
        WindowResults<Ev> results = engine.keyBy(Ev::key)
                .window(TumblingEventTimeWindows.of(Duration.ofMinutes(5)))
                .allowedLateness(Duration.ofMinutes(1))
                .sideOutputLateData((k, e, ts) -> late.add(e.value() + "@" + ts))
                .reduce(summing())
                .results((k, w, r, ts) -> out.add(w + " " + r.value() + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        assertEquals(0, results.metrics().windows());

        in.send(new Ev("a", 1, at("12:01:00")));
        h.runUntilIdle();
        assertEquals(1, results.metrics().windows(), "created by its first element");
        assertEquals(1, results.metrics().accumulators(), "one accumulator, not the elements");
        assertEquals(0, results.metrics().bufferedElements());

        in.send(new Ev("a", 3, at("12:03:00")));
        in.watermark(at("12:05:00") - 1);
        h.runUntilIdle();
        assertEquals(List.of("[43200000,43500000) 4 @43499999"), out, "fires when the watermark reaches 12:05");
        assertEquals(1, results.metrics().windows(), "kept for the allowed lateness");

        in.send(new Ev("a", 2, at("12:02:00")));
        h.runUntilIdle();
        assertEquals(2, out.size(), "a late element within lateness re-fires at once");
        assertEquals("[43200000,43500000) 6 @43499999", out.get(1));

        in.watermark(at("12:06:00") - 1);
        h.runUntilIdle();
        WindowMetrics m = results.metrics();
        assertEquals(0, m.windows(), "removed when the watermark passes 12:06");
        assertEquals(0, m.accumulators());
        assertEquals(0, m.timers());
        assertEquals(0, m.keys());
        assertEquals(0, engine.metrics().shards().get(0).keys(), "the key is released");

        in.send(new Ev("a", 4, at("12:04:00")));
        h.runUntilIdle();
        assertEquals(List.of("4@" + at("12:04:00")), late, "beyond lateness: side output");
        assertEquals(1, results.metrics().lateElements());
        assertEquals(2, out.size());
        h.close();
    }

    @Test
    void aLateElementMergesTwoSessionsAndRetractsTheirResults() {
        CepEngine<Ev> engine = engine(new ManualClock());
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).window(EventTimeSessionWindows.withGap(Duration.ofSeconds(3)))
                .allowedLateness(Duration.ofSeconds(10))
                .accumulationMode(AccumulationMode.ACCUMULATING_AND_RETRACTING)
                .reduce(summing())
                .results((k, w, r, ts) -> out.add("+" + w + " " + r.value()))
                .retractions((k, w, r, ts) -> out.add("-" + w + " " + r.value()));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 1000));
        in.send(new Ev("a", 2, 7000));
        in.watermark(12_000);
        h.runUntilIdle();
        assertEquals(List.of("+[1000,4000) 1", "+[7000,10000) 2"), out);
        out.clear();
        in.send(new Ev("a", 3, 4000)); // touches both sessions
        h.runUntilIdle();
        assertEquals(List.of("-[1000,4000) 1", "-[7000,10000) 2", "+[1000,10000) 6"), out);
        out.clear();
        in.send(new Ev("a", 4, 3000)); // re-fires the merged session
        h.runUntilIdle();
        assertEquals(List.of("-[1000,10000) 6", "+[1000,10000) 10"), out);
        h.close();
    }

    /**
     * Conformance case 08-session-late-bridge (Flink's output) with a sum instead of the list, so that it runs on
     * the session fast path: a late element within lateness merges two fired sessions and fires the cover at once,
     * another re-fires it, the cover goes at 9999 + lateness, a later element then opens a new session over the
     * dead one, and an element past cleanup is late.
     */
    @Test
    void theLateBridgeConformanceCaseOnTheSessionFastPath() {
        CepEngine<Ev> engine = engine(new ManualClock());
        List<String> out = new ArrayList<>();
        WindowResults<Ev> results = engine.keyBy(Ev::key)
                .window(EventTimeSessionWindows.withGap(Duration.ofMillis(3000)))
                .allowedLateness(Duration.ofMillis(10_000))
                .sideOutputLateData((k, e, ts) -> out.add("LATE " + k + e.value() + "@" + ts))
                .reduce(summing())
                .results((k, w, r, ts) -> out.add("WIN " + k + " " + w + " " + r.value() + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 1000));
        in.send(new Ev("a", 2, 7000));
        in.watermark(12_000);
        in.send(new Ev("a", 3, 4000));
        in.watermark(13_000);
        in.send(new Ev("a", 4, 3000));
        in.watermark(19_999);
        h.runUntilIdle();
        assertEquals(0, results.metrics().windows(), "the merged session went at 9999 + lateness");
        in.send(new Ev("a", 5, 9000));
        in.send(new Ev("a", 6, 1000));
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(List.of("WIN a [1000,4000) 1 @3999", "WIN a [7000,10000) 2 @9999", "WIN a [1000,10000) 6 @9999",
                "WIN a [1000,10000) 10 @9999", "WIN a [9000,12000) 5 @11999", "LATE a6@1000"), out);
        assertEquals(0, results.metrics().windows());
        assertEquals(0, results.metrics().timers());
        h.close();
    }

    @Test
    void continuousEventTimeTriggerFiresEarlyThenAtTheEnd() {
        CepEngine<Ev> engine = engine(new ManualClock());
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).window(TumblingEventTimeWindows.of(Duration.ofSeconds(10)))
                .trigger(ContinuousEventTimeTrigger.of(Duration.ofSeconds(2)))
                .reduce(summing())
                .results((k, w, r, ts) -> out.add(r.value() + "@" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 100));
        in.watermark(2000);
        h.runUntilIdle();
        assertEquals(List.of("1@9999"), out, "early firing at 2 s, with the window's max timestamp");
        in.send(new Ev("a", 2, 3000));
        in.watermark(5000);
        h.runUntilIdle();
        assertEquals(List.of("1@9999", "3@9999"), out);
        in.watermark(9999);
        h.runUntilIdle();
        assertEquals(List.of("1@9999", "3@9999", "3@9999", "3@9999", "3@9999"), out, "6 s, 8 s, then the end");
        h.close();
    }

    @Test
    void countWindowsOnAGlobalWindow() {
        CepEngine<Ev> engine = engine(new ManualClock());
        List<String> out = new ArrayList<>();
        WindowResults<String> results = engine.keyBy(Ev::key).window(GlobalWindows.create())
                .trigger(PurgingTrigger.of(CountTrigger.of(3)))
                .<String>process((k, ctx, els, o) -> {
                    List<Ev> l = new ArrayList<>();
                    els.forEach(l::add);
                    o.collect(ctx.window() + " " + sum(l));
                })
                .results((k, w, r, ts) -> out.add(k + " " + r + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        for (int i = 1; i <= 7; i++) {
            in.send(new Ev("a", i, i));
        }
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(List.of("a global 6 @" + Long.MAX_VALUE, "a global 15 @" + Long.MAX_VALUE), out,
                "every 3 elements; the 7th waits (the default global trigger never fires)");
        assertEquals(1, results.metrics().bufferedElements(), "a global window keeps its leftovers");
        h.close();
    }

    sealed interface Shop permits Order, Payment {
        String id();
    }

    record Order(String id, long ts) implements Shop {
    }

    record Payment(String id, long ts) implements Shop {
    }

    /** An engine of orders and payments keyed by order id, watermarks sent explicitly. */
    private static CepEngine<Shop> shopEngine() {
        return CepEngine.<Shop>builder().shards(1).flushOnClose(false)
                .watermarks(WatermarkStrategy.<Shop>noWatermarks().withTimestampAssigner((e, r) ->
                        e instanceof Order o ? o.ts() : ((Payment) e).ts())).build();
    }

    /**
     * Feeds the documented boundary data through one producer per input: o1 at 10:00:58 paid at 10:01:03 (another
     * minute), o2 at 10:00:10 paid at 10:00:50 (the same minute); then the end of time on both inputs.
     */
    private static CepTestHarness<Shop> feedBoundaryOrders(CepEngine<Shop> engine) {
        Producer<Shop> orders = engine.newProducer();
        Producer<Shop> payments = engine.newProducer();
        CepTestHarness<Shop> h = CepTestHarness.start(engine);
        orders.send(new Order("o1", at("10:00:58")));
        payments.send(new Payment("o1", at("10:01:03")));
        orders.send(new Order("o2", at("10:00:10")));
        payments.send(new Payment("o2", at("10:00:50")));
        orders.watermark(Long.MAX_VALUE);
        payments.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        return h;
    }

    @Test
    void windowJoinDoesNotJoinAcrossTheMinuteBoundary() {
        CepEngine<Shop> engine = shopEngine();
        List<String> pairs = new ArrayList<>();
        engine.keyBy(Shop::id).join(Order.class, Payment.class)
                .window(TumblingEventTimeWindows.of(Duration.ofMinutes(1)))
                .apply((o, p) -> o.id() + " " + o.ts() + "/" + p.ts())
                .results((k, w, r, ts) -> pairs.add(r));
        CepTestHarness<Shop> h = feedBoundaryOrders(engine);
        assertEquals(List.of("o2 " + at("10:00:10") + "/" + at("10:00:50")), pairs,
                "10:00:58 and 10:01:03 are in different 1-minute windows");
        h.close();
    }

    @Test
    void anIntervalJoinOfZeroToFiveMinutesJoinsWhatTheMinuteWindowsSplit() {
        CepEngine<Shop> engine = shopEngine();
        List<String> pairs = new ArrayList<>();
        engine.keyBy(Shop::id).intervalJoin(Order.class, Payment.class)
                .between(Duration.ZERO, Duration.ofMinutes(5))
                .<String>process((o, p, ctx, out) -> out.collect(o.id() + " " + o.ts() + "/" + p.ts()))
                .results((k, r, ts) -> pairs.add(r));
        CepTestHarness<Shop> h = feedBoundaryOrders(engine);
        assertEquals(List.of("o1 " + at("10:00:58") + "/" + at("10:01:03"),
                "o2 " + at("10:00:10") + "/" + at("10:00:50")), pairs.stream().sorted().toList(),
                "the same data as the window join above: the interval join also pairs 10:00:58 with 10:01:03");
        h.close();
    }

    @Test
    void coGroupGivesALeftOuterJoin() {
        CepEngine<Shop> engine = shopEngine();
        List<String> unpaid = new ArrayList<>();
        engine.keyBy(Shop::id).coGroup(Order.class, Payment.class)
                .window(TumblingEventTimeWindows.of(Duration.ofMinutes(1)))
                .<String>apply((os, ps, out) -> {
                    if (!ps.iterator().hasNext()) {
                        os.forEach(o -> out.collect(o.id()));
                    }
                })
                .results((k, w, r, ts) -> unpaid.add(r));
        Producer<Shop> in = engine.newProducer();
        CepTestHarness<Shop> h = CepTestHarness.start(engine);
        in.send(new Order("o1", 1000));
        in.send(new Order("o2", 2000));
        in.send(new Payment("o2", 3000));
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(List.of("o1"), unpaid);
        h.close();
    }

    @Test
    void processingTimeWindowsFollowTheClock() {
        ManualClock clock = new ManualClock(10_000);
        CepEngine<Ev> engine = engine(clock);
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).window(TumblingProcessingTimeWindows.of(Duration.ofSeconds(5)))
                .reduce(summing()).results((k, w, r, ts) -> out.add(w + " " + r.value()));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 0)); // event time is irrelevant
        in.send(new Ev("a", 2, 999_999));
        h.runUntilIdle();
        clock.set(14_999);
        h.runUntilIdle();
        assertEquals(List.of("[10000,15000) 3"), out);
        clock.set(16_000);
        in.send(new Ev("a", 5, 0));
        h.runUntilIdle();
        clock.set(20_000);
        h.runUntilIdle();
        assertEquals(List.of("[10000,15000) 3", "[15000,20000) 5"), out);
        assertEquals(0, engine.metrics().shards().get(0).keys());
        h.close();
    }

    @Test
    void perWindowStateIsRejectedWithAMergingAssignerAsInFlink() {
        CepEngine<Ev> engine = engine(new ManualClock());
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).window(EventTimeSessionWindows.withGap(Duration.ofSeconds(1)))
                .process(new ProcessWindowFunction<Ev, String>() {
                    @Override
                    public void process(Object key, Context ctx, Iterable<Ev> elements, Collector<String> o) {
                        o.collect(ctx.window() + " " + ctx.globalState().get("seen"));
                        ctx.windowState().put("firings", 1);
                    }
                })
                .results((k, w, r, ts) -> out.add(r));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 100));
        in.watermark(5_000);
        RuntimeException e = assertThrows(RuntimeException.class, h::runUntilIdle);
        Throwable cause = e;
        while (!(cause instanceof UnsupportedOperationException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        assertTrue(cause instanceof UnsupportedOperationException, e.toString());
        assertTrue(cause.getMessage().contains("per-window state is not allowed with a merging window assigner"),
                cause.getMessage());
        assertEquals(List.of("[100,1100) null"), out, "the function ran up to the call");
    }

    @Test
    void processWindowFunctionHasWindowStateGlobalStateAndSideOutputs() {
        CepEngine<Ev> engine = engine(new ManualClock());
        OutputTag<String> audit = OutputTag.of("audit", String.class);
        List<String> out = new ArrayList<>();
        List<String> side = new ArrayList<>();
        engine.keyBy(Ev::key).window(TumblingEventTimeWindows.of(Duration.ofSeconds(1)))
                .trigger(CountTrigger.of(1))
                .aggregate(new AggregateFunction<Ev, long[], Long>() {
                    @Override
                    public long[] createAccumulator() {
                        return new long[1];
                    }

                    @Override
                    public long[] add(Ev v, long[] acc) {
                        acc[0] += v.value();
                        return acc;
                    }

                    @Override
                    public Long getResult(long[] acc) {
                        return acc[0];
                    }

                    @Override
                    public long[] merge(long[] a, long[] b) {
                        a[0] += b[0];
                        return a;
                    }
                }, new ProcessWindowFunction<Long, String>() {
                    @Override
                    public void process(Object key, Context ctx, Iterable<Long> sums, Collector<String> o) {
                        Integer firings = ctx.windowState().get("firings");
                        ctx.windowState().put("firings", firings == null ? 1 : firings + 1);
                        Integer windows = ctx.globalState().get("windows");
                        if (firings == null) {
                            ctx.globalState().put("windows", windows == null ? 1 : windows + 1);
                        }
                        o.collect(ctx.window() + " sum " + sums.iterator().next() + " firing "
                                + ctx.windowState().get("firings") + " window# " + ctx.globalState().get("windows"));
                        ctx.output(audit, "wm " + ctx.currentWatermark());
                    }

                    @Override
                    public void clear(Context ctx) {
                        side.add("clear " + ctx.window());
                        ctx.globalState().remove("windows");
                    }
                })
                .sideOutput(audit, (v, ts) -> side.add(v + " @" + ts))
                .results((k, w, r, ts) -> out.add(r));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 100));
        in.send(new Ev("a", 2, 200));
        in.send(new Ev("a", 3, 1100));
        in.watermark(5000);
        h.runUntilIdle();
        assertEquals(List.of("[0,1000) sum 1 firing 1 window# 1", "[0,1000) sum 3 firing 2 window# 1",
                "[1000,2000) sum 3 firing 1 window# 2"), out);
        assertEquals(List.of("wm -9223372036854775808 @999", "wm -9223372036854775808 @999",
                "wm -9223372036854775808 @1999", "clear [0,1000)", "clear [1000,2000)"), side);
        assertEquals(0, engine.metrics().shards().get(0).keys(), "global state removed in clear: key released");
        h.close();
    }

    @Test
    void deltaEvictorAndDynamicSessionGaps() {
        CepEngine<Ev> engine = engine(new ManualClock());
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).window(EventTimeSessionWindows.<Ev>withDynamicGap(e -> e.value() * 1000))
                .evictor(DeltaEvictor.of(5.0, (Ev a, Ev b) -> Math.abs(a.value() - b.value())))
                .<String>process((k, ctx, els, o) -> {
                    List<Long> v = new ArrayList<>();
                    els.forEach(e -> v.add(e.value()));
                    o.collect(ctx.window() + " " + v);
                })
                .results((k, w, r, ts) -> out.add(r));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 9, 0));      // [0, 9000)
        in.send(new Ev("a", 2, 8000));   // [8000, 10000): merges
        in.send(new Ev("a", 1, 20000));  // [20000, 21000)
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(List.of("[0,10000) [2]", "[20000,21000) [1]"), out, "9 is 7 away from the newest element 2");
        h.close();
    }

    @Test
    void misconfigurationsAreRejectedClearly() {
        CepEngine<Ev> engine = engine(new ManualClock());
        var keyed = engine.keyBy(Ev::key);
        assertThrows(IllegalArgumentException.class, () -> TumblingEventTimeWindows.of(Duration.ZERO));
        assertThrows(IllegalArgumentException.class,
                () -> keyed.window(TumblingEventTimeWindows.of(Duration.ofSeconds(1)))
                        .allowedLateness(Duration.ofMillis(-1)));
        Trigger<Ev> notMerging = new Trigger<>() {
            @Override
            public TriggerResult onElement(Ev e, long ts, Window w, TriggerContext ctx) {
                return TriggerResult.FIRE;
            }

            @Override
            public TriggerResult onEventTime(long time, Window w, TriggerContext ctx) {
                return TriggerResult.CONTINUE;
            }

            @Override
            public TriggerResult onProcessingTime(long time, Window w, TriggerContext ctx) {
                return TriggerResult.CONTINUE;
            }

            @Override
            public void clear(Window w, TriggerContext ctx) {
            }
        };
        Exception e = assertThrows(UnsupportedOperationException.class, () -> keyed
                .window(EventTimeSessionWindows.withGap(Duration.ofSeconds(1))).trigger(notMerging)
                .reduce((a, b) -> a));
        assertTrue(e.getMessage().contains("merging"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> keyed
                .window(TumblingEventTimeWindows.of(Duration.ofSeconds(1)))
                .trigger(PurgingTrigger.of(EventTimeTrigger.create()))
                .accumulationMode(AccumulationMode.ACCUMULATING_AND_RETRACTING).reduce((a, b) -> a));

        RecordCodec<Ev> codec = RecordCodec.<Ev>builder().string(Ev::key).int64(Ev::value).int64(Ev::ts)
                .build(f -> new Ev(f.string(), f.int64(), f.int64()));
        CepEngine<Ev> snapshotting = CepEngine.<Ev>builder().shards(1).snapshots(codec, new io.cepheus.nfa.EventCodec<Object>() {
            @Override
            public void write(Object key, java.io.DataOutput o) throws java.io.IOException {
                o.writeUTF((String) key);
            }

            @Override
            public Object read(java.io.DataInput i) throws java.io.IOException {
                return i.readUTF();
            }
        }).build();
        // windows with reduce, or aggregate and a codec, and triggers that list their states take part in snapshots
        io.cepheus.runtime.KeyedStream<Ev> byKey = snapshotting.keyBy(Ev::key);
        byKey.window(TumblingEventTimeWindows.of(Duration.ofSeconds(1))).reduce((a, b) -> a);
        byKey.window(EventTimeSessionWindows.withGap(Duration.ofSeconds(1))).reduce((a, b) -> a);
        byKey.window(GlobalWindows.create()).trigger(CountTrigger.of(2)).reduce((a, b) -> a);
        byKey.window(TumblingEventTimeWindows.of(Duration.ofSeconds(1)))
                .reduce((a, b) -> a, (key, ctx, values, out) -> out.collect(values.iterator().next()));
        Exception retracting = assertThrows(IllegalStateException.class, () -> byKey
                .window(EventTimeSessionWindows.withGap(Duration.ofSeconds(1)))
                .accumulationMode(AccumulationMode.ACCUMULATING_AND_RETRACTING)
                .aggregate(new Count(), new io.cepheus.nfa.EventCodec<long[]>() {
                    @Override
                    public void write(long[] acc, java.io.DataOutput o) throws java.io.IOException {
                        o.writeLong(acc[0]);
                    }

                    @Override
                    public long[] read(java.io.DataInput i) throws java.io.IOException {
                        return new long[] {i.readLong()};
                    }
                }));
        assertTrue(retracting.getMessage().contains("accumulating-and-retracting"), retracting.getMessage());
        Exception noCodec = assertThrows(IllegalStateException.class, () -> byKey
                .window(TumblingEventTimeWindows.of(Duration.ofSeconds(1))).aggregate(new Count()));
        assertTrue(noCodec.getMessage().contains("aggregate(function, accumulatorCodec)"), noCodec.getMessage());
        Exception retractedResults = assertThrows(IllegalStateException.class, () -> byKey
                .window(TumblingEventTimeWindows.of(Duration.ofSeconds(1))).trigger(CountTrigger.of(2))
                .accumulationMode(AccumulationMode.ACCUMULATING_AND_RETRACTING)
                .reduce((a, b) -> a, new ProcessWindowFunction<Ev, String>() {
                    @Override
                    public void process(Object key, Context ctx, Iterable<Ev> elements, Collector<String> out) {
                    }
                }));
        assertTrue(retractedResults.getMessage().contains("unless its results are elements"),
                retractedResults.getMessage());
    }

    /** Counts elements: an aggregate with a mutable accumulator. */
    static final class Count implements AggregateFunction<Ev, long[], Long> {
        @Override
        public long[] createAccumulator() {
            return new long[1];
        }

        @Override
        public long[] add(Ev value, long[] acc) {
            acc[0]++;
            return acc;
        }

        @Override
        public Long getResult(long[] acc) {
            return acc[0];
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            a[0] += b[0];
            return a;
        }
    }

    @Test
    void aThrowingReduceSendsTheElementToTheDeadLetters() {
        CepEngine<Ev> engine = engine(new ManualClock());
        List<String> dead = new ArrayList<>();
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).window(TumblingEventTimeWindows.of(Duration.ofSeconds(1)))
                .deadLetters((k, e, ts, err) -> dead.add(e.value() + " " + err.getMessage()))
                .reduce((a, b) -> {
                    if (b.value() < 0) {
                        throw new IllegalArgumentException("negative");
                    }
                    return new Ev(a.key(), a.value() + b.value(), a.ts());
                })
                .results((k, w, r, ts) -> out.add(Long.toString(r.value())));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 10));
        in.send(new Ev("a", -5, 20));
        in.send(new Ev("a", 2, 30));
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(List.of("-5 negative"), dead);
        assertEquals(List.of("3"), out);
        assertEquals(1, engine.metrics().shards().get(0).deadLetters());
        h.close();
    }

    /** Sums values; throws on a negative one (a user function failing on bad input). */
    private static final class SumRejectingNegatives implements AggregateFunction<Ev, long[], Long> {
        @Override
        public long[] createAccumulator() {
            return new long[1];
        }

        @Override
        public long[] add(Ev e, long[] acc) {
            if (e.value() < 0) {
                throw new IllegalArgumentException("negative");
            }
            acc[0] += e.value();
            return acc;
        }

        @Override
        public Long getResult(long[] acc) {
            return acc[0];
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            a[0] += b[0];
            return a;
        }
    }

    /**
     * The general operator (a forwarding trigger keeps tumbling windows off the slices): an aggregate that throws on a
     * window's first element leaves an empty window, which is removed at its cleanup time like any other, and its key
     * released; the window that took other elements fires as usual.
     */
    @Test
    void aWindowWhoseFirstElementThrewIsStillCleanedUp() {
        CepEngine<Ev> engine = engine(new ManualClock());
        List<String> dead = new ArrayList<>();
        List<String> out = new ArrayList<>();
        WindowResults<Long> results = engine.keyBy(Ev::key).window(TumblingEventTimeWindows.of(Duration.ofSeconds(1)))
                .trigger(ForwardingTrigger.of(EventTimeTrigger.create()))
                .allowedLateness(Duration.ofSeconds(1))
                .deadLetters((k, e, ts, err) -> dead.add(k + " " + e.value() + " " + err.getMessage()))
                .aggregate(new SumRejectingNegatives())
                .results((k, w, r, ts) -> out.add(k + " " + r + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("a", 1, 10));
        in.send(new Ev("b", -1, 20));
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(List.of("b -1 negative"), dead);
        assertEquals(List.of("a 1 @999"), out);
        assertEquals(0, results.metrics().windows(), "the window left empty by the throw is removed too");
        assertEquals(0, engine.metrics().shards().get(0).keys(), "and both keys are released");
        h.close();
    }

    /**
     * Sessions with a plain aggregate take the fast path (SessionWindowOperator). A throwing aggregate: the element
     * that would open a session leaves nothing behind (the key is released); one that would extend a session has
     * already widened it when the function throws (as the general operator merges before adding), so the session
     * fires at the wider end without the element. (The general operator, for the first case, keeps the empty window
     * until its cleanup time; the fast path removes it at once.)
     */
    @Test
    void aThrowingAggregateOnSessionsSendsTheElementToTheDeadLetters() {
        CepEngine<Ev> engine = engine(new ManualClock());
        List<String> dead = new ArrayList<>();
        List<String> out = new ArrayList<>();
        WindowResults<Long> results = engine.keyBy(Ev::key)
                .window(EventTimeSessionWindows.withGap(Duration.ofMillis(100)))
                .deadLetters((k, e, ts, err) -> dead.add(k + " " + e.value() + " " + err.getMessage()))
                .aggregate(new SumRejectingNegatives())
                .results((k, w, r, ts) -> out.add(k + " " + w + " " + r + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("b", -1, 10));
        h.runUntilIdle();
        assertEquals(0, results.metrics().windows(), "no session for a failed first element");
        assertEquals(0, engine.metrics().shards().get(0).keys(), "and the key is released");
        in.send(new Ev("a", 1, 10));
        in.send(new Ev("a", -5, 50));
        in.send(new Ev("a", 2, 20));
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(List.of("b -1 negative", "a -5 negative"), dead);
        assertEquals(List.of("a [10,150) 3 @149"), out);
        assertEquals(2, engine.metrics().shards().get(0).deadLetters());
        assertEquals(0, results.metrics().windows());
        assertEquals(0, engine.metrics().shards().get(0).keys());
        h.close();
    }

    @Test
    void shortLivedSessionKeysLeaveNoState() {
        CepEngine<Ev> engine = engine(new ManualClock());
        WindowResults<Ev> sessions = engine.keyBy(Ev::key)
                .window(EventTimeSessionWindows.withGap(Duration.ofSeconds(5)))
                .allowedLateness(Duration.ofSeconds(2))
                .reduce(summing());
        long[] results = new long[2];
        sessions.results((k, w, r, ts) -> {
            results[0]++;
            results[1] += r.value();
        });
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        for (int i = 0; i < 50_000; i++) {
            in.send(new Ev("k" + i, 1, i * 10L));
            in.send(new Ev("k" + i, 2, i * 10L + 4_000)); // extends the key's session
            if (i % 1000 == 999) {
                in.watermark(i * 10L);
                h.runUntilIdle();
            }
        }
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(50_000, results[0], "one session per key");
        assertEquals(50_000 * 3, results[1]);
        WindowMetrics m = sessions.metrics();
        assertEquals(0, m.windows());
        assertEquals(0, m.accumulators());
        assertEquals(0, m.timers());
        assertEquals(0, m.keys());
        assertEquals(0, engine.metrics().shards().get(0).keys());
        h.close();
    }

    @Test
    void shortLivedKeysLeaveNoState() {
        CepEngine<Ev> engine = engine(new ManualClock());
        WindowResults<Ev> sliding = engine.keyBy(Ev::key)
                .window(SlidingEventTimeWindows.of(Duration.ofSeconds(10), Duration.ofSeconds(1)))
                .reduce(summing());
        long[] results = new long[1];
        sliding.results((k, w, r, ts) -> results[0]++);
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        for (int i = 0; i < 50_000; i++) {
            in.send(new Ev("k" + i, 1, i * 10L));
            if (i % 1000 == 999) {
                in.watermark(i * 10L);
                h.runUntilIdle();
            }
        }
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(50_000L * 10, results[0], "each element in 10 windows");
        WindowMetrics m = sliding.metrics();
        assertEquals(0, m.windows());
        assertEquals(0, m.accumulators());
        assertEquals(0, m.timers());
        assertEquals(0, engine.metrics().shards().get(0).keys());
        h.close();
    }
}
