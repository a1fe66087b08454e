package io.cepheus.runtime.conformance;

import io.cepheus.nfa.NfaOptions;
import io.cepheus.nfa.conformance.CaseOutcome;
import io.cepheus.nfa.conformance.ConformanceCase;
import io.cepheus.nfa.conformance.Ev;
import io.cepheus.nfa.conformance.InputToken;
import io.cepheus.nfa.conformance.MatchFormat;
import io.cepheus.nfa.conformance.PatternParser;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.ManualClock;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one conformance case through a whole {@link CepEngine} (producer, inboxes, shard agents, operators)
 * driven by {@link CepTestHarness} on the caller's thread: events are sent with their timestamps, the case's
 * watermarks are sent as explicit watermarks, and the end watermark is the engine's flush on close.
 */
final class EngineConformanceDriver {

    private EngineConformanceDriver() {
    }

    static CaseOutcome run(ConformanceCase c, int shards) {
        List<String> out = new ArrayList<>();
        out.add("== " + c.name());
        try {
            Pattern<Ev> pattern;
            CepEngine<Ev> engine;
            try {
                pattern = PatternParser.toPattern(c.pattern(), c.withinMillis(), c.skip());
                engine = CepEngine.<Ev>builder().shards(shards).clock(new ManualClock(0))
                        .nfaOptions(NfaOptions.defaults().withProcessingTime(() -> 0L))
                        .flushOnClose(c.endWatermark().isPresent() && c.endWatermark().getAsLong() == Long.MAX_VALUE)
                        .build();
                engine.keyBy(e -> "key").pattern(pattern)
                        .select((key, match, ts) -> out.add("MATCH " + MatchFormat.format(match.asMap())))
                        .timeouts((key, partial, ts) -> out.add("TIMEOUT@" + ts + " " + MatchFormat.format(partial.asMap())))
                        .lateEvents((key, event, ts) -> out.add("LATE " + event.token()));
            } catch (RuntimeException e) {
                out.add("ERROR " + e.getClass().getSimpleName() + ": " + e.getMessage());
                return new CaseOutcome(c.name(), out, null);
            }
            Producer<Ev> in = engine.newProducer();
            CepTestHarness<Ev> harness = CepTestHarness.start(engine);
            for (InputToken token : c.input()) {
                if (token instanceof InputToken.Event e) {
                    in.send(e.event(), e.event().ts());
                } else if (token instanceof InputToken.Watermark w) {
                    in.watermark(w.time());
                }
            }
            if (c.endWatermark().isPresent() && c.endWatermark().getAsLong() != Long.MAX_VALUE) {
                in.watermark(c.endWatermark().getAsLong());
            }
            harness.runUntilIdle();
            harness.close();
        } catch (RuntimeException | StackOverflowError e) {
            out.add("CRASH " + e.getClass().getSimpleName() + ": " + e.getMessage());
            return new CaseOutcome(c.name(), out, e);
        }
        return new CaseOutcome(c.name(), out, null);
    }
}
