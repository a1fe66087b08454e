package io.cepheus.nfa.conformance;

import io.cepheus.nfa.CompiledPattern;
import io.cepheus.nfa.Match;
import io.cepheus.nfa.MatchSink;
import io.cepheus.nfa.NfaCompiler;
import io.cepheus.nfa.NfaMatcher;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.nfa.NfaState;
import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Pattern;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one conformance case the way Flink's {@code CepOperator} runs one key in event time: events are
 * buffered until a watermark passes them ({@link EventTimeFeeder}), then fed to one {@link NfaMatcher} with
 * one {@link NfaState}, followed by {@code advanceTime(watermark)}. Prints {@code MATCH}, {@code TIMEOUT@ts}
 * and {@code LATE} lines, or a single {@code ERROR} line when the pattern is rejected at build or compile
 * time.
 */
public final class SingleKeyDriver {

    private SingleKeyDriver() {
    }

    /**
     * @param c the case
     * @return the output lines, starting with {@code == <name>}; never throws for a fault of the engine or
     *     the case, which is reported as a {@code CRASH} line and {@link CaseOutcome#crash()} instead
     */
    public static CaseOutcome run(ConformanceCase c) {
        PatternSpec spec;
        AfterMatchSkipStrategy skip;
        try {
            spec = PatternParser.parse(c.pattern());
            skip = PatternParser.parseSkip(c.skip());
        } catch (RuntimeException e) {
            List<String> out = new ArrayList<>();
            out.add("== " + c.name());
            return crashed(c.name(), out, e);
        }
        return run(c.name(), () -> spec.build(c.withinMillis(), skip), c.input(), c.endWatermark());
    }

    /**
     * Runs a case whose pattern is made another way (a rule, for example).
     *
     * @param name         the case name
     * @param pattern      makes the pattern; what it throws is the case's {@code ERROR} line (the pattern is refused)
     * @param input        events and watermarks in input order
     * @param endWatermark the watermark applied after the last token, if any
     * @return the output lines, as {@link #run(ConformanceCase)}
     */
    public static CaseOutcome run(String name, java.util.function.Supplier<Pattern<Ev>> pattern,
            List<InputToken> input, java.util.OptionalLong endWatermark) {
        List<String> out = new ArrayList<>();
        out.add("== " + name);
        CompiledPattern<Ev> compiled;
        try {
            compiled = NfaCompiler.compile(pattern.get());
        } catch (RuntimeException e) {
            // the engine rejects the pattern: that is the case's expected output, not a fault
            out.add("ERROR " + e.getClass().getSimpleName() + ": " + e.getMessage());
            return new CaseOutcome(name, out, null);
        }
        try {
            feed(input, endWatermark, compiled, out);
        } catch (RuntimeException | StackOverflowError e) {
            return crashed(name, out, e);
        }
        return new CaseOutcome(name, out, null);
    }

    private static void feed(List<InputToken> input, java.util.OptionalLong endWatermark,
            CompiledPattern<Ev> compiled, List<String> out) {
        // a fixed processing-time clock: no case condition reads it, and tests must not read wall-clock time
        NfaMatcher<Ev> matcher = compiled.newMatcher(NfaOptions.defaults().withProcessingTime(() -> 0L));
        NfaState state = matcher.newState("key");
        MatchSink<Ev> sink = new MatchSink<>() {
            @Override
            public void onMatch(Match<Ev> match) {
                out.add("MATCH " + MatchFormat.format(match.asMap()));
            }

            @Override
            public void onTimeout(Match<Ev> partialMatch, long timeoutTimestamp) {
                out.add("TIMEOUT@" + timeoutTimestamp + " " + MatchFormat.format(partialMatch.asMap()));
            }
        };
        EventTimeFeeder feeder = new EventTimeFeeder(new EventTimeFeeder.Target() {
            @Override
            public void process(Ev event) {
                matcher.process(state, event, event.ts(), sink);
            }

            @Override
            public void advanceTo(long watermark) {
                matcher.advanceTime(state, watermark, sink);
            }

            @Override
            public void late(Ev event) {
                out.add("LATE " + event.token());
            }
        });
        for (InputToken token : input) {
            if (token instanceof InputToken.Event e) {
                feeder.event(e.event());
            } else if (token instanceof InputToken.Watermark w) {
                feeder.watermark(w.time());
            }
        }
        endWatermark.ifPresent(feeder::watermark);
    }

    private static CaseOutcome crashed(String name, List<String> out, Throwable e) {
        out.add("CRASH " + e.getClass().getSimpleName() + ": " + e.getMessage());
        return new CaseOutcome(name, out, e);
    }
}
