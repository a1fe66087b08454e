package io.cepheus.runtime.conformance.windows;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.WatermarkStrategy;
import io.cepheus.runtime.window.AggregateFunction;
import io.cepheus.runtime.window.ContinuousEventTimeTrigger;
import io.cepheus.runtime.window.CountEvictor;
import io.cepheus.runtime.window.CountTrigger;
import io.cepheus.runtime.window.EventTimeSessionWindows;
import io.cepheus.runtime.window.EventTimeTrigger;
import io.cepheus.runtime.window.Evictor;
import io.cepheus.runtime.window.GlobalWindows;
import io.cepheus.runtime.window.PurgingTrigger;
import io.cepheus.runtime.window.SlidingEventTimeWindows;
import io.cepheus.runtime.window.TimeEvictor;
import io.cepheus.runtime.window.Trigger;
import io.cepheus.runtime.window.TumblingEventTimeWindows;
import io.cepheus.runtime.window.Window;
import io.cepheus.runtime.window.WindowAssigner;
import io.cepheus.runtime.window.WindowResults;
import io.cepheus.runtime.window.WindowedStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.function.Consumer;

/**
 * Runs {@code kind: window} cases: one producer, the case's assigner / trigger / evictor / lateness / function on
 * one shard; also the shared parsing and feeding used by {@link WindowJoinCaseRunner}.
 */
public final class WindowCaseRunner implements CaseRunner {

    /** One case element as the engine's event: side ('L', 'R' or ' '), key, value, event time. */
    public record Ev(char side, String key, long value, long ts) {
    }

    @Override
    public List<List<String>> run(WindowCase c) {
        List<String> out = new ArrayList<>();
        CepEngine<Ev> engine;
        List<Producer<Ev>> producers = new ArrayList<>();
        try {
            engine = newEngine();
            WindowedStream<Ev> windows = configure(engine.keyBy(Ev::key).window(assigner(c)), c);
            windows.sideOutputLateData((k, e, ts) -> out.add("LATE " + e.key() + e.value() + "@" + e.ts()));
            String function = c.setting("function").orElse("list").trim();
            register(windows, function, out);
            producers.add(engine.newProducer());
        } catch (RuntimeException e) {
            return List.of(List.of("ERROR " + e.getClass().getSimpleName() + ": " + e.getMessage()));
        }
        return feed(c, engine, producers, producers, out);
    }

    static CepEngine<Ev> newEngine() {
        return CepEngine.<Ev>builder().shards(1).flushOnClose(false)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, r) -> e.ts()))
                .build();
    }

    private static void register(WindowedStream<Ev> windows, String function, List<String> out) {
        switch (function) {
            case "sum" -> print(windows.reduce((a, b) -> new Ev(a.side(), a.key(), a.value() + b.value(), a.ts())),
                    out, Ev::value);
            case "max" -> print(windows.reduce((a, b) -> b.value() > a.value() ? b : a), out, Ev::value);
            case "min" -> print(windows.reduce((a, b) -> b.value() < a.value() ? b : a), out, Ev::value);
            case "count" -> print(windows.aggregate(new AggregateFunction<Ev, long[], Long>() {
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
            }), out, v -> v);
            case "list" -> print(windows.<String>process((key, ctx, elements, o) -> {
                StringJoiner j = new StringJoiner(",", "[", "]");
                for (Ev e : elements) {
                    j.add(Long.toString(e.value()));
                }
                o.collect(j.toString());
            }), out, v -> v);
            default -> throw new IllegalArgumentException("unknown function '" + function + "'");
        }
    }

    private static <R> void print(WindowResults<R> results, List<String> out,
            java.util.function.Function<R, Object> value) {
        results.results((key, window, r, ts) -> out.add("WIN " + key + " " + windowText(window) + " "
                + value.apply(r) + " @" + ts));
    }

    static String windowText(Window w) {
        return w.toString();
    }

    /** Applies the case's trigger, evictor and lateness. */
    static WindowedStream<Ev> configure(WindowedStream<Ev> windows, WindowCase c) {
        c.setting("trigger").map(String::trim).filter(t -> !t.equals("default"))
                .ifPresent(t -> windows.trigger(trigger(t)));
        c.setting("evictor").map(String::trim).filter(t -> !t.equals("none"))
                .ifPresent(t -> windows.evictor(evictor(t)));
        c.setting("lateness").map(String::trim)
                .ifPresent(l -> windows.allowedLateness(Duration.ofMillis(Long.parseLong(l))));
        return windows;
    }

    static WindowAssigner<Ev> assigner(WindowCase c) {
        String[] p = c.setting("assigner").orElseThrow(() -> new IllegalArgumentException("no assigner"))
                .trim().split("\\s+");
        return switch (p[0]) {
            case "tumbling" -> p.length > 2
                    ? TumblingEventTimeWindows.of(ms(p[1]), ms(p[3]))
                    : TumblingEventTimeWindows.of(ms(p[1]));
            case "sliding" -> p.length > 3
                    ? SlidingEventTimeWindows.of(ms(p[1]), ms(p[2]), ms(p[4]))
                    : SlidingEventTimeWindows.of(ms(p[1]), ms(p[2]));
            case "session" -> EventTimeSessionWindows.withGap(ms(p[1]));
            case "global" -> GlobalWindows.create();
            default -> throw new IllegalArgumentException("unknown assigner " + p[0]);
        };
    }

    private static Duration ms(String s) {
        return Duration.ofMillis(Long.parseLong(s));
    }

    static Trigger<Ev> trigger(String t) {
        if (t.startsWith("purging(") && t.endsWith(")")) {
            return PurgingTrigger.of(trigger(t.substring("purging(".length(), t.length() - 1).trim()));
        }
        String[] p = t.split("\\s+");
        return switch (p[0]) {
            case "eventTime" -> EventTimeTrigger.create();
            case "count" -> CountTrigger.of(Long.parseLong(p[1]));
            case "continuousEventTime" -> ContinuousEventTimeTrigger.of(ms(p[1]));
            default -> throw new IllegalArgumentException("unknown trigger " + t);
        };
    }

    static Evictor<Ev> evictor(String t) {
        String[] p = t.split("\\s+");
        boolean after = p.length > 2 && p[2].equals("after");
        return switch (p[0]) {
            case "count" -> CountEvictor.of(Long.parseLong(p[1]), after);
            case "time" -> TimeEvictor.of(ms(p[1]), after);
            default -> throw new IllegalArgumentException("unknown evictor " + t);
        };
    }

    /**
     * Feeds the tokens ({@code left} / {@code right} producers: the same one for window cases), running the
     * engine after each, and collects the lines of each token; then the end watermark.
     */
    static List<List<String>> feed(WindowCase c, CepEngine<Ev> engine, List<Producer<Ev>> left,
            List<Producer<Ev>> right, List<String> out) {
        List<List<String>> groups = new ArrayList<>();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        Consumer<Runnable> step = r -> {
            r.run();
            h.runUntilIdle();
            groups.add(new ArrayList<>(out));
            out.clear();
        };
        for (WindowCase.Token t : c.tokens()) {
            if (t instanceof WindowCase.Element e) {
                Producer<Ev> p = e.side() == 'R' ? right.get(0) : left.get(0);
                step.accept(() -> p.send(new Ev(e.side(), e.key(), e.value(), e.ts())));
            } else {
                WindowCase.Watermark w = (WindowCase.Watermark) t;
                step.accept(() -> {
                    if (w.side() != 'R') {
                        left.get(0).watermark(w.ts());
                    }
                    if (w.side() != 'L' && right.get(0) != left.get(0)) {
                        right.get(0).watermark(w.ts());
                    }
                });
            }
        }
        long end = c.endWatermark();
        step.accept(() -> {
            if (end != Long.MIN_VALUE) {
                left.get(0).watermark(end);
                if (right.get(0) != left.get(0)) {
                    right.get(0).watermark(end);
                }
            }
        });
        h.close();
        return groups;
    }
}
