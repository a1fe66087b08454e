package io.cepheus.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.KeyedStream;
import io.cepheus.runtime.PatternStream;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.join.IntervalJoinStream;
import io.cepheus.runtime.join.TemporalJoinStream;
import io.cepheus.runtime.rules.RuleStream;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import io.cepheus.runtime.window.TumblingEventTimeWindows;
import io.cepheus.runtime.window.WindowResults;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The engine's counters read through Micrometer's {@link SimpleMeterRegistry}: every meter has the value the engine
 * reports, with its tags, and moves as the engine runs.
 */
class CepheusMetricsTest {

    sealed interface Ev permits Order, Payment {
        String key();

        long ts();
    }

    record Order(String key, int amount, long ts) implements Ev {
    }

    record Payment(String key, int amount, long ts) implements Ev {
    }

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).clock(new ManualClock(0))
            .nfaOptions(io.cepheus.nfa.NfaOptions.defaults().withStageCounters(true))
            .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
    private final KeyedStream<Ev> keyed = engine.keyBy(Ev::key);
    private final PatternStream<Ev> unpaid = keyed.pattern(Pattern.<Ev>begin("order").where(e -> e instanceof Order)
            .followedBy("paid").where(e -> e instanceof Payment).within(Duration.ofMillis(100)))
            .select((k, m, ts) -> { }).timeouts((k, m, ts) -> { });
    private final RuleStream<Ev> rules = keyed.rules().select((rule, k, m, ts) -> { });
    private final WindowResults<Ev> perSecond = keyed.window(TumblingEventTimeWindows.of(Duration.ofSeconds(1)))
            .reduce((a, b) -> b).results((k, w, r, ts) -> { });
    private final IntervalJoinStream<Ev, Order, Payment, String> paidSoon = keyed.intervalJoin(Order.class, Payment.class)
            .between(Duration.ZERO, Duration.ofMillis(50)).<String>process((o, p, ctx, out) -> out.collect("pair"))
            .results((k, line, ts) -> { });
    private final TemporalJoinStream<Ev, Order, Payment, String> lastPayment = keyed.temporalJoin(Order.class, Payment.class)
            .<String>apply((o, p) -> "joined").results((k, line, ts) -> { });

    private double counter(String name, String... tags) {
        return registry.get(name).tags(tags).functionCounter().count();
    }

    private double gauge(String name, String... tags) {
        return registry.get(name).tags(tags).gauge().value();
    }

    @Test
    void everyMeterReadsWhatTheEngineReports() {
        rules.put("big-order", 1, Pattern.<Ev>begin("o").where(e -> e instanceof Order o && o.amount() > 100));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        CepheusMetrics.of(engine).tags(Tags.of("service", "test")).pattern("unpaid", unpaid).rules("fraud", rules)
                .window("per-second", perSecond).intervalJoin("paid-soon", paidSoon)
                .temporalJoin("last-payment", lastPayment).bindTo(registry);
        assertTrue(Double.isNaN(gauge("cepheus.watermark", "shard", "0")), "no watermark yet");

        in.send(new Order("a", 500, 10));
        in.send(new Payment("a", 500, 20));
        in.send(new Order("b", 5, 30));
        in.watermark(40);
        h.runUntilIdle();
        in.send(new Order("c", 1, 35)); // behind the watermark
        in.watermark(1_000);
        h.runUntilIdle();

        double events = counter("cepheus.events", "shard", "0") + counter("cepheus.events", "shard", "1");
        assertEquals(4, events);
        assertEquals(engine.metrics().total(io.cepheus.runtime.ShardMetrics::lateEvents),
                counter("cepheus.events.late", "shard", "0") + counter("cepheus.events.late", "shard", "1"));
        assertTrue(counter("cepheus.events.late", "shard", "0") + counter("cepheus.events.late", "shard", "1") > 0);
        assertEquals(1_000, gauge("cepheus.watermark", "shard", "1"));
        assertEquals(1, counter("cepheus.pattern.matches", "pattern", "unpaid"));
        assertEquals(1, counter("cepheus.pattern.timeouts", "pattern", "unpaid"), "b's order was never paid");
        assertEquals(unpaid.metrics().lateEvents(), counter("cepheus.pattern.events.late", "pattern", "unpaid"));
        assertEquals(0, gauge("cepheus.pattern.partial.matches", "pattern", "unpaid"));
        assertEquals(2, counter("cepheus.pattern.partial.matches.started", "pattern", "unpaid"), "a's and b's orders");
        // order a, payment a and order b reach the first stage; the payment waits at 'paid' for a's order only
        assertEquals(3, counter("cepheus.pattern.stage.events.tested", "pattern", "unpaid", "stage", "order"));
        assertEquals(2, counter("cepheus.pattern.stage.events.taken", "pattern", "unpaid", "stage", "order"));
        assertEquals(1, counter("cepheus.pattern.stage.events.tested", "pattern", "unpaid", "stage", "paid"));
        assertEquals(1, counter("cepheus.pattern.stage.events.taken", "pattern", "unpaid", "stage", "paid"));
        assertEquals(1, counter("cepheus.pattern.stage.partial.matches.timed.out", "pattern", "unpaid", "stage",
                "paid"), "b's order waited at 'paid' until the window closed");
        assertEquals(0, counter("cepheus.pattern.stage.partial.matches.rejected", "pattern", "unpaid", "stage",
                "paid"));
        assertEquals(1, counter("cepheus.rule.stage.events.taken", "rule", "big-order", "stage", "o"));
        assertEquals(1, counter("cepheus.rule.matches", "rules", "fraud", "rule", "big-order", "version", "1"));
        assertEquals(1, gauge("cepheus.rule.in.force", "rule", "big-order", "version", "1"));
        assertEquals(perSecond.metrics().results(), counter("cepheus.window.results", "window", "per-second"));
        assertEquals(1, counter("cepheus.join.interval.pairs", "join", "paid-soon"));
        assertEquals(paidSoon.metrics().unmatchedLeft(),
                counter("cepheus.join.interval.unmatched", "join", "paid-soon", "side", "left"));
        assertEquals(lastPayment.metrics().joined(), counter("cepheus.join.temporal.joined", "join", "last-payment"));
        for (Meter meter : registry.getMeters()) {
            assertEquals("test", meter.getId().getTag("service"), meter.getId().toString());
        }
        h.close();
    }

    @Test
    void aRuleVersionPutLaterGetsItsMetersAtTheNextRefreshAndAReplacedOneKeepsItsCounts() {
        rules.put("big-order", 1, Pattern.<Ev>begin("o").where(e -> e instanceof Order o && o.amount() > 100));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        CepheusMetrics metrics = CepheusMetrics.of(engine).rules("fraud", rules);
        metrics.bindTo(registry);
        in.send(new Order("a", 500, 10));
        in.watermark(20);
        h.runUntilIdle();
        rules.put("big-order", 2, Pattern.<Ev>begin("o").where(e -> e instanceof Order o && o.amount() > 1_000));
        h.runUntilIdle();
        assertEquals(1, metrics.refresh(), "version 2");
        assertEquals(0, metrics.refresh());
        in.send(new Order("a", 5_000, 30));
        in.watermark(40);
        h.runUntilIdle();
        assertEquals(1, counter("cepheus.rule.matches", "rule", "big-order", "version", "1"), "as it ended");
        assertEquals(0, gauge("cepheus.rule.in.force", "rule", "big-order", "version", "1"));
        assertEquals(1, counter("cepheus.rule.matches", "rule", "big-order", "version", "2"));
        assertEquals(1, gauge("cepheus.rule.in.force", "rule", "big-order", "version", "2"));
        h.close();
    }

    @Test
    void theShardMetersAreThereForEveryShardWithMicrometersNames() {
        engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        CepheusMetrics.of(engine).bindTo(registry);
        Set<String> names = new TreeSet<>();
        for (Meter meter : registry.getMeters()) {
            names.add(meter.getId().getName() + (meter instanceof FunctionCounter ? " counter"
                    : meter instanceof Gauge ? " gauge" : " other") + " shard=" + meter.getId().getTag("shard"));
        }
        Set<String> expected = new TreeSet<>();
        for (String shard : new String[] {"0", "1"}) {
            for (String counter : new String[] {"cepheus.events", "cepheus.events.late", "cepheus.dead.letters",
                    "cepheus.matches", "cepheus.timeouts", "cepheus.partial.matches.rejected"}) {
                expected.add(counter + " counter shard=" + shard);
            }
            for (String gauge : new String[] {"cepheus.partial.matches", "cepheus.events.buffered",
                    "cepheus.shared.buffer.entries", "cepheus.keys", "cepheus.inbox.depth", "cepheus.watermark"}) {
                expected.add(gauge + " gauge shard=" + shard);
            }
        }
        assertEquals(expected, names);
        h.close();
    }

    @Test
    void aBinderIsConfiguredBeforeItIsBoundAndRefreshedAfter() {
        CepheusMetrics metrics = CepheusMetrics.of(engine);
        assertThrows(IllegalStateException.class, metrics::refresh);
        engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        metrics.bindTo(registry);
        assertThrows(IllegalStateException.class, () -> metrics.pattern("late", unpaid));
        assertThrows(IllegalStateException.class, () -> metrics.bindTo(new SimpleMeterRegistry()));
        h.close();
    }
}
