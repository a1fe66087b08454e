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
import io.cepheus.runtime.rules.RuleStream;
import io.cepheus.runtime.time.ManualClock;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one conformance case through a whole {@link CepEngine} (producer, inboxes, shard agents, operators)
 * driven by {@link CepTestHarness} on the caller's thread, or started on its own shard threads: events are sent
 * with their timestamps, the case's watermarks are sent as explicit watermarks, and the end watermark is the
 * engine's flush on close.
 *
 * <p>With several shards the case's stream is sent under {@code 2 * shards} keys at once, each event once per key
 * (interleaved), so that every shard works and the keys' states live side by side on each shard; every key must
 * produce the case's expected output. The first key's output is what is compared with the expected file; a key
 * whose output differs from it, or a run that used only one shard, adds a line that fails the case.
 */
public final class EngineConformanceDriver {

    /** The id of the case's rule in {@link #runInRuleSet}. */
    private static final String CASE_RULE = "case";

    private EngineConformanceDriver() {
    }

    static CaseOutcome run(ConformanceCase c, int shards) {
        return run(c, shards, false);
    }

    static CaseOutcome run(ConformanceCase c, int shards, boolean onThreads) {
        return run(c.name(), () -> PatternParser.toPattern(c.pattern(), c.withinMillis(), c.skip()), c.input(),
                c.endWatermark(), shards, onThreads);
    }

    /**
     * Runs a case whose pattern is made another way (a rule, for example).
     *
     * @param name         the case name
     * @param patternMaker makes the pattern; what it throws is the case's {@code ERROR} line
     * @param input        events and watermarks in input order
     * @param endWatermark the watermark after the last token, if any ({@code Long.MAX_VALUE}: the engine's flush)
     * @param shards       the engine's shards
     * @param onThreads    true to start the engine on its own shard threads (closing it joins them, so the handlers'
     *                     lists are read after their writers finished) instead of driving it with the harness
     * @return the output lines of the first key, and a line for any key that differs from it
     */
    public static CaseOutcome run(String name, java.util.function.Supplier<Pattern<Ev>> patternMaker,
            List<InputToken> input, java.util.OptionalLong endWatermark, int shards, boolean onThreads) {
        return run(name, patternMaker, null, input, endWatermark, shards, onThreads);
    }

    /**
     * Runs a case with its pattern as one rule of a live rule set, beside other rules (half put before it, half
     * after): its output must be what the pattern alone gives, whatever the rules around it match.
     *
     * @param name         the case name
     * @param patternMaker makes the pattern; what it throws is the case's {@code ERROR} line
     * @param neighbours   the other rules of the set
     * @param input        events and watermarks in input order
     * @param endWatermark the watermark after the last token, if any ({@code Long.MAX_VALUE}: the engine's flush)
     * @param shards       the engine's shards
     * @param onThreads    true to start the engine on its own shard threads
     * @return the output lines of the case's rule for the first key, and a line for any key that differs from it
     */
    public static CaseOutcome runInRuleSet(String name, java.util.function.Supplier<Pattern<Ev>> patternMaker,
            List<Pattern<Ev>> neighbours, List<InputToken> input, java.util.OptionalLong endWatermark, int shards,
            boolean onThreads) {
        return run(name, patternMaker, java.util.Objects.requireNonNull(neighbours, "neighbours"), input,
                endWatermark, shards, onThreads);
    }

    private static CaseOutcome run(String name, java.util.function.Supplier<Pattern<Ev>> patternMaker,
            List<Pattern<Ev>> neighbours, List<InputToken> input, java.util.OptionalLong endWatermark, int shards,
            boolean onThreads) {
        List<String> out = new ArrayList<>();
        out.add("== " + name);
        int copies = shards == 1 ? 1 : 2 * shards;
        Map<Ev, String> keyOfCopy = new IdentityHashMap<>();
        Map<Object, List<String>> perKey = new LinkedHashMap<>();
        for (int k = 0; k < copies; k++) {
            perKey.put("k" + k, new ArrayList<>());
        }
        try {
            Pattern<Ev> pattern;
            CepEngine<Ev> engine;
            try {
                pattern = patternMaker.get();
                engine = CepEngine.<Ev>builder().shards(shards).clock(new ManualClock(0))
                        .nfaOptions(NfaOptions.defaults().withProcessingTime(() -> 0L))
                        .flushOnClose(endWatermark.isPresent() && endWatermark.getAsLong() == Long.MAX_VALUE)
                        .build();
                if (neighbours == null) {
                    engine.keyBy(e -> copies == 1 ? "k0" : keyOfCopy.get(e)).pattern(pattern)
                            .select((key, match, ts) -> perKey.get(key).add("MATCH "
                                    + MatchFormat.format(match.asMap())))
                            .timeouts((key, partial, ts) -> perKey.get(key).add("TIMEOUT@" + ts + " "
                                    + MatchFormat.format(partial.asMap())))
                            .lateEvents((key, event, ts) -> perKey.get(key).add("LATE " + event.token()));
                } else {
                    RuleStream<Ev> rules = engine.keyBy(e -> copies == 1 ? "k0" : keyOfCopy.get(e)).rules()
                            .select((rule, key, match, ts) -> {
                                if (rule.id().equals(CASE_RULE)) {
                                    perKey.get(key).add("MATCH " + MatchFormat.format(match.asMap()));
                                }
                            })
                            .timeouts((rule, key, partial, ts) -> {
                                if (rule.id().equals(CASE_RULE)) {
                                    perKey.get(key).add("TIMEOUT@" + ts + " " + MatchFormat.format(partial.asMap()));
                                }
                            })
                            .lateEvents((key, event, ts) -> perKey.get(key).add("LATE " + event.token()));
                    int before = neighbours.size() / 2;
                    for (int i = 0; i < neighbours.size(); i++) {
                        if (i == before) {
                            rules.put(CASE_RULE, 1, pattern);
                        }
                        rules.put("neighbour-" + i, 1, neighbours.get(i));
                    }
                    if (neighbours.size() == before) {
                        rules.put(CASE_RULE, 1, pattern);
                    }
                }
            } catch (RuntimeException e) {
                out.add("ERROR " + e.getClass().getSimpleName() + ": " + e.getMessage());
                return new CaseOutcome(name, out, null);
            }
            Producer<Ev> in = engine.newProducer();
            CepTestHarness<Ev> harness = onThreads ? null : CepTestHarness.start(engine);
            if (onThreads) {
                engine.start();
            }
            for (InputToken token : input) {
                if (token instanceof InputToken.Event e) {
                    if (copies == 1) {
                        in.send(e.event(), e.event().ts());
                    }
                    for (int k = 0; copies > 1 && k < copies; k++) {
                        Ev ev = e.event();
                        Ev copy = new Ev(ev.type(), ev.value(), ev.ts(), ev.token());
                        keyOfCopy.put(copy, "k" + k);
                        in.send(copy, copy.ts());
                    }
                } else if (token instanceof InputToken.Watermark w) {
                    in.watermark(w.time());
                }
            }
            if (endWatermark.isPresent() && endWatermark.getAsLong() != Long.MAX_VALUE) {
                in.watermark(endWatermark.getAsLong());
            }
            if (onThreads) {
                // not in.close(): an ended source's watermark becomes Long.MAX_VALUE (as a finished Flink source's),
                // which would flush a case that has no end watermark
                engine.close(java.time.Duration.ofSeconds(60));
            } else {
                harness.runUntilIdle();
                harness.close();
            }
            out.addAll(perKey.get("k0"));
            perKey.forEach((key, lines) -> {
                if (!lines.equals(perKey.get("k0"))) {
                    out.add("KEY " + key + " DIFFERS FROM k0: " + lines);
                }
            });
            long busyShards = engine.metrics().shards().stream().filter(m -> m.events() > 0).count();
            if (shards > 1 && !input.isEmpty() && busyShards < 2) {
                out.add("ONLY " + busyShards + " OF " + shards + " SHARDS RECEIVED EVENTS");
            }
        } catch (RuntimeException | StackOverflowError e) {
            out.addAll(perKey.get("k0"));
            out.add("CRASH " + e.getClass().getSimpleName() + ": " + e.getMessage());
            return new CaseOutcome(name, out, e);
        }
        return new CaseOutcome(name, out, null);
    }
}
