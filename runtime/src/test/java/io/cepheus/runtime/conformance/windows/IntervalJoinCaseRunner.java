package io.cepheus.runtime.conformance.windows;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.join.IntervalJoin;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs {@code kind: intervaljoin} cases through the real engine: one producer per join input (so the join's
 * time is the minimum of the inputs' watermarks), two shards, the {@code bounds} setting mapped onto
 * {@code between(...)} and the exclusive-bound switches; pairs and late elements are written as the expected
 * files write them.
 */
final class IntervalJoinCaseRunner implements CaseRunner {

    /** One element of either input, as the case writes it. */
    private record Ev(char side, String key, long value) {
    }

    @Override
    public List<List<String>> run(WindowCase c) {
        List<List<String>> groups = new ArrayList<>();
        List<String> current = new ArrayList<>();
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).inboxCapacity(1024).build();
        try {
            String[] bounds = c.setting("bounds").orElseThrow(() ->
                    new IllegalArgumentException("interval join case without bounds")).trim().split("\\s+");
            IntervalJoin<Ev, Ev, Ev> join = engine.keyBy(Ev::key)
                    .intervalJoin(e -> e.side() == 'L' ? e : null, e -> e.side() == 'R' ? e : null);
            join.between(Duration.ofMillis(Long.parseLong(bounds[0])), Duration.ofMillis(Long.parseLong(bounds[1])));
            for (int i = 2; i < bounds.length; i++) {
                switch (bounds[i]) {
                    case "lowerExclusive" -> join.lowerBoundExclusive();
                    case "upperExclusive" -> join.upperBoundExclusive();
                    default -> throw new IllegalStateException("unknown bounds flag " + bounds[i]);
                }
            }
            join.<String>process((l, r, ctx, out) -> out.collect("PAIR " + ctx.key() + " " + l.value() + "@"
                            + ctx.leftTimestamp() + " " + r.value() + "@" + ctx.rightTimestamp() + " @"
                            + ctx.timestamp()))
                    .results((key, line, ts) -> current.add(line))
                    .lateLeft((key, e, ts) -> current.add("LATE L:" + key + e.value() + "@" + ts))
                    .lateRight((key, e, ts) -> current.add("LATE R:" + key + e.value() + "@" + ts));
        } catch (IllegalArgumentException e) {
            return List.of(List.of("ERROR " + e.getClass().getSimpleName() + ": " + e.getMessage()));
        }
        Producer<Ev> left = engine.newProducer();
        Producer<Ev> right = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        for (WindowCase.Token token : c.tokens()) {
            if (token instanceof WindowCase.Element e) {
                (e.side() == 'L' ? left : right).send(new Ev(e.side(), e.key(), e.value()), e.ts());
            } else {
                WindowCase.Watermark w = (WindowCase.Watermark) token;
                if (w.side() != 'R') {
                    left.watermark(w.ts());
                }
                if (w.side() != 'L') {
                    right.watermark(w.ts());
                }
            }
            harness.runUntilIdle();
            groups.add(new ArrayList<>(current));
            current.clear();
        }
        long end = c.endWatermark();
        if (end != Long.MIN_VALUE) {
            left.watermark(end);
            right.watermark(end);
        }
        harness.runUntilIdle();
        groups.add(new ArrayList<>(current));
        harness.close();
        return groups;
    }
}
