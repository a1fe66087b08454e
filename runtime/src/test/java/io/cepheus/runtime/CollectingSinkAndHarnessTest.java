package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.Match;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.Clock;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The test kit users get: a harness that drives event and processing time, and a sink that collects outputs. */
class CollectingSinkAndHarnessTest {

    record Ev(String key, char kind, long ts) {
    }

    private static Pattern<Ev> orderThenShipment(Duration within) {
        return Pattern.<Ev>begin("order").where(e -> e.kind() == 'o')
                .followedBy("ship").where(e -> e.kind() == 's').within(within);
    }

    @Test
    void matchesTimeoutsLateEventsAndSideOutputsAreCollectedWithKeyAndTimestamp() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>forMonotonousTimestamps().withTimestampAssigner((e, ts) -> e.ts()))
                .build();
        CollectingSink<Match<Ev>> timeouts = new CollectingSink<>();
        CollectingSink<Ev> late = new CollectingSink<>();
        CollectingSink<String> matches = new CollectingSink<>();
        CollectingSink<String> slow = new CollectingSink<>();
        OutputTag<String> slowTag = OutputTag.of("slow", String.class);
        KeyedStream<Ev> byKey = engine.keyBy(Ev::key);
        byKey.pattern(orderThenShipment(Duration.ofMillis(1_000)))
                .process((key, m, ctx) -> {
                    long took = m.lastTimestamp() - m.firstTimestamp();
                    if (took > 100) {
                        ctx.output(slowTag, key + " took " + took);
                    }
                })
                .sideOutput(slowTag, slow::add)
                .timeouts(timeouts::add)
                .lateEvents(late::add);
        byKey.pattern(orderThenShipment(Duration.ofMillis(1_000)))
                .select((key, m, ts) -> matches.add(key, "shipped", ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'o', 100));
        in.send(new Ev("u2", 'o', 150));
        in.send(new Ev("u1", 's', 400));
        in.watermark(500);
        in.send(new Ev("u3", 'o', 450)); // behind the watermark
        h.runUntilIdle();
        h.close();

        assertEquals(List.of(new CollectingSink.Record<>("u1", "shipped", 400)), matches.records());
        assertEquals(List.of(new CollectingSink.Record<>(null, "u1 took 300", 400)), slow.records());
        assertEquals(List.of(new CollectingSink.Record<>("u3", new Ev("u3", 'o', 450), 450)), late.records());
        assertEquals(List.of("u2"), timeouts.keys());
        assertEquals(1_150, timeouts.records().get(0).timestamp());
        assertEquals(List.of(new Ev("u2", 'o', 150)), timeouts.values().get(0).allEvents());
        matches.clear();
        assertEquals(0, matches.size());
    }

    @Test
    void advancingProcessingTimeFiresProcessingTimeTimeouts() {
        ManualClock clock = new ManualClock(10_000);
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).clock(clock)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
        CollectingSink<Match<Ev>> timeouts = new CollectingSink<>();
        engine.keyBy(Ev::key).pattern(orderThenShipment(Duration.ofSeconds(5))).inProcessingTime()
                .timeouts(timeouts::add);
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'o', 1));
        h.runUntilIdle();

        h.advanceProcessingTime(Duration.ofMillis(4_999));
        assertEquals(0, timeouts.size(), "the window closes at 10,000 + 5,000");
        h.advanceProcessingTime(Duration.ofMillis(1));
        assertEquals(List.of(new CollectingSink.Record<>("u1", timeouts.values().get(0), 15_000)),
                timeouts.records());
        h.close();
    }

    @Test
    void advancingProcessingTimeNeedsAManualClock() {
        Clock wall = System::currentTimeMillis;
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).clock(wall).build();
        engine.keyBy(Ev::key).pattern(orderThenShipment(Duration.ofSeconds(5)));
        engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> h.advanceProcessingTime(Duration.ofSeconds(1)));
        assertTrue(e.getMessage().contains("not a ManualClock"), e.getMessage());
        h.close();
    }

    @Test
    void aFullInboxUnderTheHarnessFailsFastInsteadOfWaitingForever() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).inboxCapacity(4).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
        CollectingSink<Match<Ev>> matches = new CollectingSink<>();
        engine.keyBy(Ev::key).pattern(orderThenShipment(Duration.ofSeconds(5))).select(matches::add);
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        for (int i = 0; i < 4; i++) {
            in.send(new Ev("u" + i, 'o', 10 + i));
        }

        IllegalStateException event = assertThrows(IllegalStateException.class, () -> in.send(new Ev("u0", 's', 20)));
        assertTrue(event.getMessage().contains("inbox of shard 0 is full"), event.getMessage());
        IllegalStateException watermark = assertThrows(IllegalStateException.class, () -> in.watermark(100));
        assertTrue(watermark.getMessage().contains("runUntilIdle"), watermark.getMessage());

        h.runUntilIdle(); // makes room; nothing was half sent
        in.send(new Ev("u0", 's', 20));
        in.watermark(100);
        h.runUntilIdle();
        assertEquals(List.of("u0"), matches.keys());
        h.close();
    }
}
