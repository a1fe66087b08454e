package io.cepheus.runtime.conformance;

import io.cepheus.nfa.CompiledPattern;
import io.cepheus.nfa.Match;
import io.cepheus.nfa.NfaCompiler;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.nfa.conformance.CaseOutcome;
import io.cepheus.nfa.conformance.ConformanceCase;
import io.cepheus.nfa.conformance.Ev;
import io.cepheus.nfa.conformance.InputToken;
import io.cepheus.nfa.conformance.MatchFormat;
import io.cepheus.nfa.conformance.PatternParser;
import io.cepheus.nfa.conformance.PatternSpec;
import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.runtime.internal.cep.CepOperator;
import io.cepheus.runtime.internal.shard.KeyDictionary;
import io.cepheus.runtime.internal.timer.TimerService;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one conformance case through the runtime's {@link CepOperator} (its event-time buffer, late-data
 * rule, watermark handling and expiry timers) instead of the NFA test driver: raw events and watermarks go in
 * exactly as the case lists them.
 */
final class OperatorConformanceDriver {

    private OperatorConformanceDriver() {
    }

    static CaseOutcome run(ConformanceCase c) {
        List<String> out = new ArrayList<>();
        out.add("== " + c.name());
        CompiledPattern<Ev> compiled;
        try {
            PatternSpec spec = PatternParser.parse(c.pattern());
            AfterMatchSkipStrategy skip = PatternParser.parseSkip(c.skip());
            try {
                compiled = NfaCompiler.compile(spec.build(c.withinMillis(), skip));
            } catch (RuntimeException e) {
                out.add("ERROR " + e.getClass().getSimpleName() + ": " + e.getMessage());
                return new CaseOutcome(c.name(), out, null);
            }
            CepOperator<Ev> operator = new CepOperator<>(1, compiled,
                    NfaOptions.defaults().withProcessingTime(() -> 0L), null, new KeyDictionary(),
                    new TimerService(), new CepOperator.Output<>() {
                        @Override
                        public void match(Object key, Match<Ev> match, long timestamp) {
                            out.add("MATCH " + MatchFormat.format(match.asMap()));
                        }

                        @Override
                        public void timeout(Object key, Match<Ev> partialMatch, long timeoutTimestamp) {
                            out.add("TIMEOUT@" + timeoutTimestamp + " " + MatchFormat.format(partialMatch.asMap()));
                        }

                        @Override
                        public void late(Object key, Ev event, long timestamp) {
                            out.add("LATE " + event.token());
                        }
                    });
            for (InputToken token : c.input()) {
                if (token instanceof InputToken.Event e) {
                    operator.processElement("key", e.event(), e.event().ts());
                } else if (token instanceof InputToken.Watermark w) {
                    operator.processWatermark(w.time());
                }
            }
            c.endWatermark().ifPresent(operator::processWatermark);
        } catch (RuntimeException | StackOverflowError e) {
            out.add("CRASH " + e.getClass().getSimpleName() + ": " + e.getMessage());
            return new CaseOutcome(c.name(), out, e);
        }
        return new CaseOutcome(c.name(), out, null);
    }
}
