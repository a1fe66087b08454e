package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class CepEngineTest {

    /** An event of a producer: its key, kind (o = order, s = shipment) and per-producer sequence number. */
    record Ev(String key, char kind, long seq, long ts) {
    }

    private static Pattern<Ev> orderThenShipment() {
        return Pattern.<Ev>begin("order").where(e -> e.kind() == 'o')
                .followedBy("ship").where(e -> e.kind() == 's').within(Duration.ofMillis(1_000));
    }

    private static CepEngine.Builder<Ev> builder() {
        return CepEngine.<Ev>builder().clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>forBoundedOutOfOrderness(Duration.ofMillis(10))
                        .withTimestampAssigner((e, ts) -> e.ts()));
    }

    @Test
    void aHarnessRunsTheEngineOnTheCallersThread() {
        ManualClock clock = new ManualClock(0);
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).clock(clock)
                .watermarks(WatermarkStrategy.<Ev>forBoundedOutOfOrderness(Duration.ofMillis(10))
                        .withTimestampAssigner((e, ts) -> e.ts()))
                .build();
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).pattern(orderThenShipment())
                .select((key, m, ts) -> out.add("match " + key + " @" + ts))
                .timeouts((key, m, ts) -> out.add("timeout " + key + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'o', 1, 100));
        in.send(new Ev("u2", 'o', 2, 110));
        in.send(new Ev("u1", 's', 3, 150));
        clock.advance(Duration.ofMillis(200)); // periodic watermark: max ts 150 - 10 - 1 = 139
        in.tick();
        harness.runUntilIdle();
        assertEquals(List.of(), out, "the shipment at 150 is still after the watermark");
        in.send(new Ev("u3", 'x', 4, 200));
        clock.advance(Duration.ofMillis(200)); // watermark 200 - 10 - 1 = 189 releases it
        in.tick();
        harness.runUntilIdle();
        assertEquals(List.of("match u1 @150"), out);
        harness.close(); // end of input: u2 times out
        assertEquals(List.of("match u1 @150", "timeout u2 @1110"), out);
    }

    @Test
    void eventsAConditionThrowsOnGoToTheDeadLetterOutputAndMatchingGoesOn() {
        CepEngine<Ev> engine = builder().shards(2).build();
        Pattern<Ev> fragile = Pattern.<Ev>begin("order").where(e -> e.kind() == 'o')
                .followedBy("ship").where(e -> {
                    if (e.seq() == 13) {
                        throw new IllegalStateException("bad record 13");
                    }
                    return e.kind() == 's';
                });
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).pattern(fragile)
                .select((key, m, ts) -> out.add("match " + key))
                .deadLetters((key, e, ts, error) -> out.add("dead " + e.seq() + " " + error.getMessage()));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'o', 12, 100));
        in.send(new Ev("u1", 's', 13, 110));
        in.send(new Ev("u1", 's', 14, 120));
        in.watermark(200);
        harness.runUntilIdle();
        assertEquals(2, out.size());
        assertTrue(out.get(0).startsWith("dead 13 ") && out.get(0).contains("'ship'"), out.get(0));
        assertEquals("match u1", out.get(1));
        EngineMetrics metrics = engine.metrics();
        assertEquals(1, metrics.total(ShardMetrics::deadLetters));
        assertEquals(1, metrics.total(ShardMetrics::matches));
        assertEquals(3, metrics.total(ShardMetrics::events));
        assertEquals(200, metrics.watermark());
        harness.close();
    }

    @Test
    void metricsFollowStateAndReturnToZero() {
        CepEngine<Ev> engine = builder().shards(2).build();
        engine.keyBy(Ev::key).pattern(orderThenShipment()).lateEvents((k, e, ts) -> { });
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        for (int k = 0; k < 100; k++) {
            in.send(new Ev("u" + k, 'o', k, 100 + k));
        }
        in.watermark(150);
        in.send(new Ev("u1", 's', 1000, 120)); // late
        harness.runUntilIdle();
        EngineMetrics m = engine.metrics();
        assertEquals(51, m.total(ShardMetrics::partialMatches), "orders at 100..150 are matching");
        assertEquals(49, m.total(ShardMetrics::bufferedEvents), "orders at 151..199 wait");
        assertEquals(1, m.total(ShardMetrics::lateEvents));
        assertEquals(100, m.total(ShardMetrics::keys));
        harness.close();
        m = engine.metrics();
        assertEquals(100, m.total(ShardMetrics::timeouts));
        assertEquals(0, m.total(ShardMetrics::partialMatches));
        assertEquals(0, m.total(ShardMetrics::sharedBufferEntries));
        assertEquals(0, m.total(ShardMetrics::keys));
    }

    /**
     * The NFA's shared buffer holds one entry per event a live partial match has taken (an entry is (event,
     * stage, predecessor), locked by the run whose last entry it is), so with three stages the count differs
     * from the partial matches: a run that has taken order and pay holds two entries. Events still waiting for
     * the watermark are in the shard's event-time buffer, not in the NFA, and count as no entries.
     */
    @Test
    void sharedBufferEntriesCountTheEventsOpenPartialMatchesHoldAndReturnToZero() {
        CepEngine<Ev> engine = builder().shards(2).build();
        Pattern<Ev> orderPayShip = Pattern.<Ev>begin("order").where(e -> e.kind() == 'o')
                .followedBy("pay").where(e -> e.kind() == 'p')
                .followedBy("ship").where(e -> e.kind() == 's').within(Duration.ofMillis(1_000));
        engine.keyBy(Ev::key).pattern(orderPayShip);
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        for (int k = 0; k < 30; k++) { // u0..u29: order only, at 100..129
            in.send(new Ev("u" + k, 'o', k, 100 + k));
        }
        for (int k = 30; k < 50; k++) { // u30..u49: order at 130..149, then pay at 230..249
            in.send(new Ev("u" + k, 'o', k, 100 + k));
            in.send(new Ev("u" + k, 'p', k, 200 + k));
        }
        for (int k = 50; k < 60; k++) { // u50..u59: orders at 1050..1059, after the watermark
            in.send(new Ev("u" + k, 'o', k, 1_000 + k));
        }
        in.watermark(500);
        harness.runUntilIdle();
        EngineMetrics m = engine.metrics();
        assertEquals(50, m.total(ShardMetrics::partialMatches), "u0..u49 each have one run");
        assertEquals(10, m.total(ShardMetrics::bufferedEvents), "u50..u59's orders wait for the watermark");
        assertEquals(30 * 1 + 20 * 2, m.total(ShardMetrics::sharedBufferEntries),
                "one entry per taken event: order for u0..u29, order and pay for u30..u49");

        for (int k = 30; k < 50; k++) { // u30..u49 complete at 580..599: their chains are released
            in.send(new Ev("u" + k, 's', k, 550 + k));
        }
        in.watermark(600);
        harness.runUntilIdle();
        m = engine.metrics();
        assertEquals(20, m.total(ShardMetrics::matches));
        assertEquals(30, m.total(ShardMetrics::partialMatches));
        assertEquals(30, m.total(ShardMetrics::sharedBufferEntries), "only u0..u29's orders are left");

        harness.close(); // end of input: u50..u59's orders start runs, then every open run times out
        m = engine.metrics();
        assertEquals(40, m.total(ShardMetrics::timeouts));
        assertEquals(0, m.total(ShardMetrics::partialMatches));
        assertEquals(0, m.total(ShardMetrics::sharedBufferEntries));
    }

    @Test
    void aProcessFunctionSeesTimeAndEmitsToTypedSideOutputs() {
        ManualClock clock = new ManualClock(5_000);
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).clock(clock)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
        OutputTag<String> slow = OutputTag.of("slow-shipments", String.class);
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).pattern(orderThenShipment())
                .process((key, match, ctx) -> {
                    long took = match.lastTimestamp() - match.firstTimestamp();
                    out.add(key + " took " + took + " ts=" + ctx.timestamp() + " wm=" + ctx.currentWatermark()
                            + " now=" + ctx.currentProcessingTime());
                    if (took > 50) {
                        ctx.output(slow, key + ":" + took);
                    }
                })
                .sideOutput(slow, (value, ts) -> out.add("slow " + value + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'o', 1, 100));
        in.send(new Ev("u1", 's', 2, 180));
        in.send(new Ev("u2", 'o', 3, 110));
        in.send(new Ev("u2", 's', 4, 120));
        in.watermark(200);
        harness.runUntilIdle();
        out.sort(null);
        assertEquals(List.of("slow u1:80 @180", "u1 took 80 ts=180 wm=200 now=5000", "u2 took 10 ts=120 wm=200 now=5000"),
                out);
        harness.close();
    }

    @Test
    void emittingToAnUnregisteredSideOutputFailsLoudly() {
        CepEngine<Ev> engine = builder().shards(1).build();
        OutputTag<String> nowhere = OutputTag.of("nowhere", String.class);
        engine.keyBy(Ev::key).pattern(orderThenShipment()).process((key, m, ctx) -> ctx.output(nowhere, "x"));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'o', 1, 100));
        in.send(new Ev("u1", 's', 2, 110));
        in.watermark(200);
        UserCodeException e = assertThrows(UserCodeException.class, harness::runUntilIdle);
        assertEquals("process function", e.function());
        assertTrue(e.getCause() instanceof IllegalArgumentException, String.valueOf(e.getCause()));
        assertTrue(e.getCause().getMessage().contains("nowhere"), e.getCause().getMessage());
    }

    @Test
    void inProcessingTimeEventsMatchInArrivalOrderAndTimeOutOnTheClock() {
        ManualClock clock = new ManualClock(1_000);
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).clock(clock)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).pattern(orderThenShipment()).inProcessingTime()
                .select((key, m, ts) -> out.add("match " + key + " @" + ts))
                .timeouts((key, m, ts) -> out.add("timeout " + key + " @" + ts))
                .lateEvents((key, e, ts) -> out.add("late " + key));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        // event times are ignored: the shipment "before" the order still comes after it in arrival order
        in.send(new Ev("u1", 'o', 1, 500));
        in.send(new Ev("u2", 'o', 2, 500));
        harness.runUntilIdle();
        clock.advance(Duration.ofMillis(300));
        in.send(new Ev("u1", 's', 3, 10));
        harness.runUntilIdle();
        assertEquals(List.of("match u1 @1300"), out);
        clock.advance(Duration.ofMillis(700)); // u2's order (at 1000) expires at 2000 with no event for it
        harness.runUntilIdle();
        assertEquals(List.of("match u1 @1300", "timeout u2 @2000"), out);
        harness.close();
        assertEquals(0, engine.metrics().total(ShardMetrics::keys));
    }

    /** A million distinct keys, each completing or timing out: live state must return to zero. */
    @Test
    void aMillionKeysLeaveNothingBehind() {
        CepEngine<Ev> engine = builder().shards(2).inboxCapacity(1 << 16).build();
        long[] results = new long[2];
        engine.keyBy(Ev::key).pattern(orderThenShipment())
                .select((key, m, ts) -> results[0]++)
                .timeouts((key, m, ts) -> results[1]++);
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        int keys = 1_000_000;
        long ts = 0;
        for (int k = 0; k < keys; k++) {
            String key = Integer.toString(k);
            in.send(new Ev(key, 'o', k, ts));
            if (k % 2 == 0) {
                in.send(new Ev(key, 's', k, ts + 1));
            }
            ts += 2;
            if (k % 10_000 == 9_999) {
                in.watermark(ts - 1);
                harness.runUntilIdle();
                assertTrue(engine.metrics().total(ShardMetrics::keys) < 1_000,
                        "only keys inside the 1 s window are live: " + engine.metrics());
            }
        }
        harness.close();
        EngineMetrics m = engine.metrics();
        assertEquals(keys / 2, results[0]);
        assertEquals(keys / 2, results[1]);
        assertEquals(0, m.total(ShardMetrics::keys));
        assertEquals(0, m.total(ShardMetrics::partialMatches));
        assertEquals(0, m.total(ShardMetrics::sharedBufferEntries));
        assertEquals(0, m.total(ShardMetrics::bufferedEvents));
    }

    @Test
    void misuseIsRejectedWithAClearMessage() {
        CepEngine<Ev> engine = builder().build();
        IllegalStateException noKey = assertThrows(IllegalStateException.class, engine::newProducer);
        assertTrue(noKey.getMessage().contains("keyBy"));
        engine.keyBy(Ev::key);
        assertThrows(IllegalStateException.class, () -> engine.keyBy(Ev::key));
        IllegalStateException noPattern = assertThrows(IllegalStateException.class, engine::start);
        assertTrue(noPattern.getMessage().contains("pattern"));
        assertThrows(IllegalArgumentException.class, () -> CepEngine.<Ev>builder().shards(0));
        engine.close(); // never started: returns at once
    }

    @Test
    void sendingBeforeStartFailsInsteadOfWaitingForever() {
        CepEngine<Ev> engine = builder().shards(1).inboxCapacity(2).build();
        engine.keyBy(Ev::key).pattern(orderThenShipment());
        Producer<Ev> in = engine.newProducer();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> in.send(new Ev("u1", 'o', 1, 5)));
        assertTrue(e.getMessage().contains("start"), e.getMessage());
    }

    @Test
    void anEventWithoutATimestampIsRejected() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).build();
        engine.keyBy(Ev::key).pattern(orderThenShipment());
        Producer<Ev> in = engine.newProducer();
        CepTestHarness.start(engine);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> in.send(new Ev("u1", 'o', 1, 5)));
        assertTrue(e.getMessage().contains("timestamp"), e.getMessage());
    }

    /**
     * Real threads: two producers, two shards, small inboxes so producers block. Each producer stamps its events
     * with its own sequence numbers (producer in the high half). Timestamps are designed so that order is
     * checkable after the event-time buffer's sort: a key's events of one producer come in bursts of equal
     * timestamp, which only arrival order can put in sequence, and shared keys receive bursts of both producers at
     * the same timestamps. Checked: per key, each producer's events reach the operator (a pattern every event
     * matches) in that producer's order, each exactly once; every private key's order and shipment (same
     * timestamp, the order sent first) meet exactly once; every order without shipment times out exactly once;
     * nothing is late.
     */
    @Test
    @Tag("stress")
    void producersAndShardsOnRealThreadsLoseAndDuplicateNothing() throws Exception {
        CepEngine<Ev> engine = builder().shards(2).inboxCapacity(256).build();
        Set<String> matched = ConcurrentHashMap.newKeySet();
        Set<String> timedOut = ConcurrentHashMap.newKeySet();
        AtomicInteger duplicates = new AtomicInteger();
        AtomicInteger late = new AtomicInteger();
        // per key, the stamps of its events in the order they reached the operator (each key: one shard thread)
        java.util.Map<String, List<Long>> reached = new ConcurrentHashMap<>();
        KeyedStream<Ev> keyed = engine.keyBy(Ev::key);
        keyed.pattern(orderThenShipment())
                .select((key, m, ts) -> {
                    if (!matched.add((String) key)) {
                        duplicates.incrementAndGet();
                    }
                })
                .timeouts((key, m, ts) -> {
                    if (!timedOut.add((String) key)) {
                        duplicates.incrementAndGet();
                    }
                })
                .lateEvents((key, e, ts) -> late.incrementAndGet());
        keyed.pattern(Pattern.<Ev>begin("any").where(e -> true))
                .select((key, m, ts) -> reached.computeIfAbsent((String) key, k -> new ArrayList<>())
                        .add(m.allEvents().get(0).seq()));
        int producers = 2;
        int keys = 5_000;
        List<Producer<Ev>> ins = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            ins.add(engine.newProducer());
        }
        engine.start();
        CountDownLatch sent = new CountDownLatch(producers);
        List<java.util.Map<String, List<Long>>> sentPerProducer = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            Producer<Ev> in = ins.get(p);
            java.util.Map<String, List<Long>> mine = new java.util.HashMap<>(); // this producer's thread only
            sentPerProducer.add(mine);
            int producer = p;
            new Thread(() -> {
                long seq = (long) producer << 32;
                for (int k = 0; k < keys; k++) {
                    String key = "p" + producer + "-" + k;
                    long ts = 10L * k;
                    seq = send(in, mine, new Ev(key, 'o', seq, ts));
                    if (k % 2 == 0) {
                        seq = send(in, mine, new Ev(key, 's', seq, ts)); // same timestamp: after the order by arrival
                    }
                    String shared = "s" + (k % 64); // both producers, same timestamps
                    for (int i = 0; i < 3; i++) {
                        seq = send(in, mine, new Ev(shared, 'x', seq, ts));
                    }
                    in.watermark(ts);
                }
                in.close();
                sent.countDown();
            }, "producer-" + p).start();
        }
        assertTrue(sent.await(60, TimeUnit.SECONDS), "producers did not finish");
        engine.close(Duration.ofSeconds(60));
        assertEquals(producers * keys / 2, matched.size());
        assertEquals(producers * keys / 2, timedOut.size());
        assertEquals(0, duplicates.get());
        assertEquals(0, late.get());

        long total = 0;
        java.util.Set<String> allKeys = new java.util.HashSet<>();
        for (int p = 0; p < producers; p++) {
            allKeys.addAll(sentPerProducer.get(p).keySet());
        }
        assertEquals(allKeys, reached.keySet(), "every key's events reached the operator");
        for (String key : allKeys) {
            for (int p = 0; p < producers; p++) {
                int producer = p;
                List<Long> expected = sentPerProducer.get(p).getOrDefault(key, List.of());
                List<Long> fromProducer = reached.get(key).stream().filter(s -> s >>> 32 == producer).toList();
                assertEquals(expected, fromProducer, "key " + key + ": producer " + p + "'s events in its order, once");
                total += expected.size();
            }
        }
        assertEquals(total, engine.metrics().total(ShardMetrics::events));
    }

    /** Sends a stamped event and notes it per key; @return the next sequence number */
    private static long send(Producer<Ev> in, java.util.Map<String, List<Long>> sent, Ev e) {
        in.send(e);
        sent.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(e.seq());
        return e.seq() + 1;
    }
}
