package io.cepheus.runtime.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.cepheus.nfa.testing.PropertySeeds;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The default merge rule asked through {@link MergingWindowAssigner#mergeWindows} (a user-written session assigner
 * that does not override it) against the built-in session assigners, which the general operator merges in place
 * without asking: on random out-of-order streams with random watermarks (event time) or clock moves (processing
 * time), static and dynamic gaps, allowed lateness, the three accumulation modes and merging triggers (the default,
 * a count trigger, a continuous one), the emitted lines (results, retractions, late elements; contents listed in
 * order) and the counters must be equal after every input, and nothing may be left at the end. Both run on the
 * general operator (a process function keeps the built-in sessions off the session fast path).
 */
class DefaultMergeRulePropertyTest {

    private static final long SEED = PropertySeeds.seed(0xDEFA17L);

    /** An element; {@code gap} is its session gap under dynamic gaps. */
    record Ev(String key, long value, long ts, long gap) {
    }

    /** Sessions as a user would write them; {@code mergeWindows} is the interface's default. */
    record UserSessions(boolean eventTime, long gap, boolean dynamic) implements MergingWindowAssigner<Ev> {
        @Override
        public void assignWindows(Ev element, long timestamp, Context context, WindowSink windows) {
            long t = eventTime ? timestamp : context.currentProcessingTime();
            windows.add(t, t + (dynamic ? element.gap() : gap));
        }

        @Override
        public Trigger<Ev> defaultTrigger() {
            return eventTime ? EventTimeTrigger.create() : ProcessingTimeTrigger.create();
        }

        @Override
        public boolean isEventTime() {
            return eventTime;
        }
    }

    /** One random configuration. */
    record Config(boolean eventTime, long gap, boolean dynamic, long lateness, String trigger, AccumulationMode mode) {
    }

    /** A clock move (processing time) among the elements and watermarks. */
    record Tick(long to) {
    }

    @Test
    void theDefaultRuleAskedMergesAsTheBuiltInSessions() {
        System.out.println("DefaultMergeRulePropertyTest seed " + SEED);
        PropertySeeds.reportingSeed(SEED, "runtime", "DefaultMergeRulePropertyTest", () ->
                qt().withFixedSeed(SEED).withExamples(300).forAll(longs().all())
                        .checkAssert(DefaultMergeRulePropertyTest::check));
    }

    private static void check(long caseSeed) {
        Random r = new Random(caseSeed);
        boolean eventTime = r.nextInt(3) > 0;
        String trigger = List.of("default", "default", "count", "continuous").get(r.nextInt(4));
        AccumulationMode mode = AccumulationMode.values()[r.nextInt(3)];
        Config c = new Config(eventTime, 1 + r.nextInt(r.nextBoolean() ? 50 : 1500), r.nextInt(3) == 0,
                eventTime ? List.of(0L, 0L, 1L, 200L, 3000L).get(r.nextInt(5)) : 0, trigger, mode);
        List<Object> tokens = randomTokens(r, c);
        String context = "case seed " + caseSeed + ", " + c + "\ntokens " + tokens;
        Run builtIn = run(c, tokens, false);
        Run asked = run(c, tokens, true);
        for (int i = 0; i < builtIn.lines().size(); i++) {
            String at = "after token " + i + " (" + (i < tokens.size() ? tokens.get(i) : "the end") + "); ";
            assertEquals(builtIn.lines().get(i), asked.lines().get(i), at + context);
            assertEquals(builtIn.counters().get(i), asked.counters().get(i),
                    at + "counters [windows, buffered, accumulators, keys, firings, results, retractions, late, timers]; "
                            + context);
        }
        List<Long> end = asked.counters().get(asked.counters().size() - 1);
        assertEquals(0L, end.get(0), "windows left at the end; " + context);
        assertEquals(0L, end.get(8), "timers left at the end; " + context);
    }

    private static List<Object> randomTokens(Random r, Config c) {
        List<Object> tokens = new ArrayList<>();
        long time = r.nextInt(3) == 0 ? -5_000 : 0;
        long wm = Long.MIN_VALUE;
        long clock = 1_000_000;
        long disorder = 1 + r.nextInt((int) Math.min(4 * c.gap() + 10, 6000));
        int keys = 1 + r.nextInt(4);
        int n = 5 + r.nextInt(r.nextInt(5) == 0 ? 300 : 60);
        for (int i = 0; i < n; i++) {
            int kind = r.nextInt(4);
            if (kind == 0 && c.eventTime()) {
                long w = time - r.nextInt((int) disorder + 1);
                if (w > wm) {
                    wm = w;
                    tokens.add(w);
                }
            } else if (kind == 0) {
                clock += r.nextInt((int) Math.min(2 * c.gap() + 2, 4000));
                tokens.add(new Tick(clock));
            } else {
                time += r.nextInt(Math.max(1, (int) Math.min(2 * c.gap() + 2, 4000)));
                long ts = time - r.nextInt((int) disorder);
                String key = String.valueOf((char) ('a' + r.nextInt(keys)));
                tokens.add(new Ev(key, 1 + r.nextInt(9), ts, 1 + r.nextInt((int) (2 * c.gap()))));
            }
        }
        tokens.add(c.eventTime() ? (Object) Long.MAX_VALUE : new Tick(clock + 1_000_000_000L));
        return tokens;
    }

    record Run(List<List<String>> lines, List<List<Long>> counters) {
    }

    private static Run run(Config c, List<Object> tokens, boolean asked) {
        ManualClock clock = new ManualClock(1_000_000);
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).flushOnClose(false).clock(clock)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, t) -> e.ts())).build();
        WindowAssigner<Ev> assigner;
        if (asked) {
            assigner = new UserSessions(c.eventTime(), c.gap(), c.dynamic());
        } else if (c.eventTime()) {
            assigner = c.dynamic() ? EventTimeSessionWindows.withDynamicGap(Ev::gap)
                    : EventTimeSessionWindows.withGap(Duration.ofMillis(c.gap()));
        } else {
            assigner = c.dynamic() ? ProcessingTimeSessionWindows.withDynamicGap(Ev::gap)
                    : ProcessingTimeSessionWindows.withGap(Duration.ofMillis(c.gap()));
        }
        List<String> out = new ArrayList<>();
        WindowedStream<Ev> w = engine.keyBy(Ev::key).window(assigner).accumulationMode(c.mode())
                .allowedLateness(Duration.ofMillis(c.lateness()))
                .sideOutputLateData((k, e, ts) -> out.add("LATE " + k + " " + e.value() + "@" + ts));
        Duration interval = Duration.ofMillis(1 + c.gap() / 3);
        switch (c.trigger()) {
            case "count" -> w.trigger(CountTrigger.of(2));
            case "continuous" -> w.trigger(c.eventTime() ? ContinuousEventTimeTrigger.of(interval)
                    : ContinuousProcessingTimeTrigger.of(interval));
            default -> {
            }
        }
        WindowResults<String> results = w.<String>process((key, ctx, elements, o) -> {
            StringBuilder b = new StringBuilder();
            elements.forEach(e -> b.append(e.value()));
            o.collect(b.toString());
        });
        results.results((k, win, v, ts) -> out.add("WIN " + k + " " + win + " " + v + " @" + ts));
        results.retractions((k, win, v, ts) -> out.add("RETRACT " + k + " " + win + " " + v + " @" + ts));
        Producer<Ev> p = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        List<List<String>> lines = new ArrayList<>();
        List<List<Long>> counters = new ArrayList<>();
        for (Object t : tokens) {
            if (t instanceof Ev e) {
                p.send(e);
            } else if (t instanceof Tick tick) {
                clock.set(tick.to());
            } else {
                p.watermark((Long) t);
            }
            h.runUntilIdle();
            lines.add(new ArrayList<>(out));
            out.clear();
            WindowMetrics m = results.metrics();
            counters.add(List.of(m.windows(), m.bufferedElements(), m.accumulators(), m.keys(), m.firings(),
                    m.results(), m.retractions(), m.lateElements(), m.timers()));
        }
        h.close();
        return new Run(lines, counters);
    }
}
