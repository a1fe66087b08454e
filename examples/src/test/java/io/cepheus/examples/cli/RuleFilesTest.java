package io.cepheus.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.cepheus.examples.SampleStream;
import io.cepheus.examples.apps.TemperatureMonitoring;
import io.cepheus.examples.apps.TemperatureMonitoring.RackAlert;
import io.cepheus.pattern.Pattern;
import io.cepheus.rules.Rules;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rule files under {@code examples/rules} are the example apps' patterns written as data: run from the command
 * line over each app's sample input ({@code cepheus run --rules DIR --input FILE --key FIELD --time FIELD}), each
 * raises exactly the alerts the app's Java pattern raises over the same input: the same rule, key and matched events
 * (compared by their times). The demo's two rules run over the demo's generated stream written as CSV.
 */
class RuleFilesTest {

    /** An alert as both runs write it in JSON: rule, key, and the times of the events it holds, sorted. */
    record Signature(String rule, String key, List<Long> eventTimes) implements Comparable<Signature> {
        @Override
        public int compareTo(Signature o) {
            return toString().compareTo(o.toString());
        }
    }

    private static String run(String... args) {
        CepheusTest.Result r = CepheusTest.runWithInput("", args);
        String stderr = r.err();
        assertEquals(0, r.status(), String.join(" ", args) + ": " + stderr);
        assertTrue(!stderr.contains("rejected"), stderr);
        return r.out();
    }

    /** Reads the alerts of a JSON Lines file, the app's or the rules' form. */
    private static TreeSet<Signature> alerts(Path file, String onlyRule) throws IOException {
        TreeSet<Signature> out = new TreeSet<>();
        JsonFactory json = new JsonFactory();
        for (String line : Files.readAllLines(file)) {
            String rule = null;
            String key = null;
            List<Long> times = new ArrayList<>();
            try (JsonParser p = json.createParser(line)) {
                p.nextToken();
                int depth = 0;
                for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                    if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                        depth++;
                    } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                        depth--;
                    } else if (t.isScalarValue()) {
                        String name = p.currentName();
                        if (depth == 0 && "rule".equals(name)) {
                            rule = p.getText();
                        } else if (depth == 0 && "key".equals(name)) {
                            key = p.getText();
                        } else if (depth > 0 && "time".equals(name)) {
                            times.add(t == JsonToken.VALUE_STRING ? Instant.parse(p.getText()).toEpochMilli()
                                    : p.getLongValue());
                        }
                    }
                }
            }
            if (onlyRule == null || onlyRule.equals(rule)) {
                times.sort(null);
                out.add(new Signature(rule, key, times));
            }
        }
        return out;
    }

    private static void sameAlerts(Path dir, String app, String rules, String sample, String key, String onlyRule)
            throws IOException {
        Path javaAlerts = dir.resolve(app + "-java.jsonl");
        Path ruleAlerts = dir.resolve(app + "-rules.jsonl");
        run(app, "--out", javaAlerts.toString(), "--no-progress");
        run("run", "--rules", "rules/" + rules, "--input", sample, "--key", key, "--time", "time", "--out",
                ruleAlerts.toString(), "--no-progress");
        TreeSet<Signature> expected = alerts(javaAlerts, onlyRule);
        assertTrue(!expected.isEmpty(), app + ": the sample raises alerts");
        assertEquals(expected, alerts(ruleAlerts, null), app);
    }

    @Test
    void eachAppsRuleFilesRaiseTheAppsAlertsOverItsSample(@TempDir Path dir) throws IOException {
        String samples = "src/main/resources/samples/";
        sameAlerts(dir, "card-testing", "card-testing", samples + "card-testing.csv", "card", null);
        sameAlerts(dir, "failed-logins", "failed-logins", samples + "failed-logins.csv", "user", null);
        sameAlerts(dir, "fast-checkout", "fast-checkout", samples + "fast-checkout.jsonl", "user", null);
        sameAlerts(dir, "gold-payment", "gold-payment", samples + "gold-payment.csv", "user", null);
        sameAlerts(dir, "sla-breach", "sla-breach", samples + "sla-breach.csv", "order", null);
        sameAlerts(dir, "temperature", "temperature", samples + "temperature.jsonl", "rack",
                TemperatureMonitoring.OVERHEATING);
    }

    @Test
    void theDemosRulesRaiseTheDemosAlertsOverItsGeneratedStream(@TempDir Path dir) throws IOException {
        SampleStream stream = SampleStream.generate(SampleStream.DEFAULT_SEED);
        Path csv = dir.resolve("demo.csv");
        StringBuilder text = new StringBuilder("user,card,success,amount,grade,time\n");
        for (io.cepheus.examples.FraudEvent e : stream.events()) {
            java.util.Map<String, Object> json = Apps.FRAUD_EVENT.toJson(e);
            text.append(json.get("user")).append(',').append(json.getOrDefault("card", "")).append(',')
                    .append(json.getOrDefault("success", "")).append(',').append(json.getOrDefault("amount", ""))
                    .append(',').append(json.get("grade")).append(',').append(json.get("time")).append('\n');
        }
        Files.writeString(csv, text);
        Path javaAlerts = dir.resolve("demo-java.jsonl");
        Path ruleAlerts = dir.resolve("demo-rules.jsonl");
        run("demo", "--out", javaAlerts.toString(), "--no-progress");
        run("run", "--rules", "rules/fraud", "--input", csv.toString(), "--key", "card,user", "--time", "time",
                "--out", ruleAlerts.toString(), "--no-progress");
        TreeSet<Signature> expected = alerts(javaAlerts, null);
        assertEquals(22, expected.size());
        assertEquals(expected, alerts(ruleAlerts, null));
    }

    /**
     * The temperature app's second level runs over the first level's alerts, not over input: its rule file is
     * checked against its Java pattern on random rack alerts, through the engine.
     */
    @Test
    void theCriticalRuleMatchesAsTheRisingAlertsPattern() {
        Pattern<RackAlert> fromRule = Rules.parse(Path.of("rules/temperature-critical/critical.json"))
                .compile(RackAlert.class);
        Random random = new Random(7);
        List<RackAlert> alerts = new ArrayList<>();
        long t = 0;
        for (int i = 0; i < 400; i++) {
            t += random.nextInt(8_000);
            alerts.add(new RackAlert("rack-" + random.nextInt(3), 100 + random.nextInt(20), t));
        }
        assertEquals(matches(TemperatureMonitoring.risingAlerts(), alerts), matches(fromRule, alerts));
        assertTrue(matches(fromRule, alerts).size() > 10);
    }

    private static List<String> matches(Pattern<RackAlert> pattern, List<RackAlert> alerts) {
        List<String> out = new ArrayList<>();
        CepEngine<RackAlert> engine = CepEngine.<RackAlert>builder().shards(1)
                .watermarks(WatermarkStrategy.<RackAlert>noWatermarks().withTimestampAssigner((a, ts) -> a.time()))
                .build();
        engine.keyBy(RackAlert::rack).pattern(pattern).select((rack, m, ts) -> out.add(rack + " " + m.allEvents()));
        Producer<RackAlert> in = engine.newProducer();
        CepTestHarness<RackAlert> harness = CepTestHarness.start(engine);
        for (RackAlert a : alerts) {
            in.send(a);
            harness.runUntilIdle();
        }
        harness.close();
        return out;
    }
}
