package io.cepheus.examples.cli;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.explain.Explanation;
import io.cepheus.runtime.rules.RuleStream;
import io.cepheus.runtime.rules.RuleVersion;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Rules run from the command line to explain what they did for some keys ({@code cepheus explain}): the same engine
 * and watermarks as {@code run --rules}, driven deterministically on the caller's thread ({@link CepTestHarness}),
 * with every rule (or the one asked for) traced for each of the keys. Keys are compared as text, so that
 * {@code --key user=42} finds a key read from JSON as the number 42. Used by the thread that feeds it.
 */
final class RuleExplainer implements Pipeline<MapEvent> {

    /** Records pushed between two runs of the shards: well within the inbox. */
    private static final int RUN_EVERY = 1_024;

    private final CepEngine<MapEvent> engine;
    private final RuleStream<MapEvent> rules;
    private final Producer<MapEvent> in;
    private final List<String> keys;
    private final List<String> ruleIds;
    private CepTestHarness<MapEvent> harness;
    private int pushed;
    private long late;

    /**
     * @param watched the rule folder, loaded into the rule set the engine starts with
     * @param keys    the keys to explain
     * @param onlyRule the rule to explain, or null for every rule
     * @throws IllegalArgumentException if {@code onlyRule} is not among the rules
     */
    RuleExplainer(WatchedRules watched, List<String> keys, String onlyRule) {
        this.engine = CepEngine.<MapEvent>builder().shards(1)
                .watermarks(WatermarkStrategy.<MapEvent>noWatermarks().withTimestampAssigner((e, ts) -> e.time()))
                .build();
        this.rules = engine.keyBy(e -> String.valueOf(e.key())).rules().select((rule, key, match, ts) -> { })
                .lateEvents((key, event, ts) -> late++);
        watched.load(rules);
        List<String> running = new ArrayList<>(watched.running().keySet());
        if (onlyRule != null && !running.contains(onlyRule)) {
            throw new IllegalArgumentException("no rule '" + onlyRule + "' among " + running);
        }
        this.ruleIds = onlyRule != null ? List.of(onlyRule) : running;
        this.keys = List.copyOf(keys);
        this.in = engine.newProducer();
    }

    @Override
    public void start() {
        harness = CepTestHarness.start(engine);
        for (String rule : ruleIds) {
            for (String key : keys) {
                rules.startTrace(rule, key);
            }
        }
        harness.runUntilIdle();
    }

    @Override
    public void send(MapEvent event) {
        in.send(event);
        pushed();
    }

    @Override
    public void watermark(long watermark) {
        in.watermark(watermark);
        pushed();
    }

    private void pushed() {
        if (++pushed == RUN_EVERY) {
            pushed = 0;
            harness.runUntilIdle();
        }
    }

    @Override
    public void pump() {
    }

    /** The end of the input: the watermark goes to the end of time, timing out what still waits. */
    @Override
    public void finish() {
        if (harness != null) {
            in.watermark(Long.MAX_VALUE);
            harness.runUntilIdle();
        }
    }

    /**
     * @return per key, per rule version, its trace; call after {@link #finish()}
     */
    Map<String, Map<RuleVersion, Explanation>> explanations() {
        Map<String, Map<RuleVersion, Explanation>> out = new java.util.LinkedHashMap<>();
        for (String key : keys) {
            Map<RuleVersion, Explanation> byRule = new java.util.LinkedHashMap<>();
            for (String rule : ruleIds) {
                byRule.putAll(harness.explain(rules, rule, key));
            }
            out.put(key, byRule);
        }
        harness.close();
        return out;
    }

    @Override
    public long lateEvents() {
        return late;
    }
}
