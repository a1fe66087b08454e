package io.cepheus.runtime.internal.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.Match;
import io.cepheus.nfa.NfaCompiler;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.agent.ErrorHandler;
import io.cepheus.runtime.agent.IdleStrategy;
import io.cepheus.runtime.internal.agent.AgentInvoker;
import io.cepheus.runtime.internal.agent.AgentRunner;
import io.cepheus.runtime.internal.cep.CepOperator;
import io.cepheus.runtime.internal.queue.ShardInbox;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class CepShardTest {

    private record Ev(String name, long ts) {
        char kind() {
            return name.charAt(0);
        }
    }

    private static Pattern<Ev> orderThenShipment() {
        return Pattern.<Ev>begin("order").where(e -> e.kind() == 'o')
                .followedBy("ship").where(e -> e.kind() == 's').within(Duration.ofMillis(100));
    }

    private final List<String> out = new ArrayList<>();
    private final ShardInbox<ShardRecord> inbox = new ShardInbox<>(1024);

    private CepShard<Ev> shard(long finalWatermark) {
        CepShard<Ev> shard = new CepShard<>(0, inbox, 16, finalWatermark);
        shard.add(new CepOperator<>(0, NfaCompiler.compile(orderThenShipment()),
                NfaOptions.defaults().withProcessingTime(() -> 0L), null, shard.keys(), shard.timers(),
                new CepOperator.Output<>() {
                    @Override
                    public void match(Object key, Match<Ev> match, long timestamp) {
                        out.add(key + " MATCH " + match.allEvents().size() + " @" + timestamp);
                    }

                    @Override
                    public void timeout(Object key, Match<Ev> partialMatch, long timeoutTimestamp) {
                        out.add(key + " TIMEOUT @" + timeoutTimestamp);
                    }

                    @Override
                    public void late(Object key, Ev event, long timestamp) {
                        out.add(key + " LATE " + event.name());
                    }
                }));
        return shard;
    }

    private void event(int producer, String key, String name, long ts) {
        assertTrue(inbox.offer(new ShardRecord.Event(producer, key, new Ev(name, ts), ts)));
    }

    private void watermark(int producer, long wm) {
        assertTrue(inbox.offer(new ShardRecord.Watermark(producer, wm)));
    }

    private static void drain(AgentInvoker invoker) {
        for (int i = 0; i < 100 && invoker.invoke() > 0; i++) {
            // run duty cycles until idle
        }
    }

    @Test
    void theShardWatermarkIsTheSlowestProducers() {
        CepShard<Ev> shard = shard(Long.MIN_VALUE);
        int fast = shard.addProducer();
        int slow = shard.addProducer();
        AgentInvoker invoker = new AgentInvoker(shard);
        invoker.start();
        event(fast, "u1", "o1", 10);
        event(slow, "u1", "s1", 40);
        watermark(fast, 100);
        watermark(slow, 30);
        drain(invoker);
        assertEquals(30, shard.watermark());
        assertEquals(List.of(), out, "s1@40 is still buffered");
        watermark(slow, 60);
        drain(invoker);
        assertEquals(List.of("u1 MATCH 2 @40"), out);
        invoker.close();
    }

    @Test
    void anIdleProducerDoesNotHoldTheWatermarkBack() {
        CepShard<Ev> shard = shard(Long.MIN_VALUE);
        int busy = shard.addProducer();
        int quiet = shard.addProducer();
        AgentInvoker invoker = new AgentInvoker(shard);
        invoker.start();
        event(busy, "u1", "o1", 10);
        event(busy, "u1", "s1", 20);
        watermark(busy, 50);
        drain(invoker);
        assertEquals(List.of(), out);
        assertTrue(inbox.offer(new ShardRecord.Idleness(quiet, true)));
        drain(invoker);
        assertEquals(List.of("u1 MATCH 2 @20"), out);
        invoker.close();
    }

    @Test
    void aWatermarkAppliesToTheEventsQueuedBehindIt() {
        CepShard<Ev> shard = shard(Long.MIN_VALUE);
        int p = shard.addProducer();
        AgentInvoker invoker = new AgentInvoker(shard);
        invoker.start();
        event(p, "u1", "o1", 10);
        watermark(p, 30);
        event(p, "u1", "s1", 25); // in the same batch, but behind the watermark: late
        event(p, "u1", "s2", 35);
        watermark(p, 40);
        drain(invoker);
        assertEquals(List.of("u1 LATE s1", "u1 MATCH 2 @35"), out);
        invoker.close();
    }

    @Test
    void closingFlushesWithTheFinalWatermark() {
        CepShard<Ev> shard = shard(Long.MAX_VALUE);
        int p = shard.addProducer();
        AgentInvoker invoker = new AgentInvoker(shard);
        invoker.start();
        event(p, "u1", "o1", 10);
        event(p, "u2", "o2", 15);
        event(p, "u2", "s2", 16);
        inbox.close();
        drain(invoker);
        assertTrue(shard.isFinished());
        assertEquals(List.of("u2 MATCH 2 @16", "u1 TIMEOUT @110"), out);
        invoker.close();
    }

    @Test
    void twoPatternsOnOneShardEachGetTheirTimeoutsAndShareKeysSafely() {
        CepShard<Ev> shard = shard(Long.MIN_VALUE);
        Pattern<Ev> longer = Pattern.<Ev>begin("order").where(e -> e.kind() == 'o')
                .followedBy("ship").where(e -> e.kind() == 's').within(Duration.ofMillis(300));
        shard.add(new CepOperator<>(1, NfaCompiler.compile(longer), NfaOptions.defaults().withProcessingTime(() -> 0L),
                null, shard.keys(), shard.timers(), new CepOperator.Output<>() {
                    @Override
                    public void match(Object key, Match<Ev> match, long timestamp) {
                        out.add(key + " MATCH(300) @" + timestamp);
                    }

                    @Override
                    public void timeout(Object key, Match<Ev> partialMatch, long timeoutTimestamp) {
                        out.add(key + " TIMEOUT(300) @" + timeoutTimestamp);
                    }

                    @Override
                    public void late(Object key, Ev event, long timestamp) {
                        out.add(key + " LATE(300) " + event.name());
                    }
                }));
        int p = shard.addProducer();
        AgentInvoker invoker = new AgentInvoker(shard);
        invoker.start();
        event(p, "u1", "o1", 10);
        watermark(p, 50);
        watermark(p, 200);
        drain(invoker);
        assertEquals(List.of("u1 TIMEOUT @110"), out, "the 100 ms pattern timed out; the 300 ms one still waits");
        assertEquals(1, shard.keys().size(), "u1 is still needed by the second pattern");
        event(p, "u1", "s1", 250);
        watermark(p, 260);
        drain(invoker);
        assertEquals(List.of("u1 TIMEOUT @110", "u1 MATCH(300) @250"), out);
        assertEquals(0, shard.keys().size(), "nothing pending for u1 in either pattern: its id is free");
        invoker.close();
    }

    /** Real threads: producers block when the inbox is full, nothing is lost, per-key results are exact. */
    @Test
    @Tag("stress")
    void producersOnOtherThreadsLoseNothing() throws Exception {
        ShardInbox<ShardRecord> small = new ShardInbox<>(64);
        CepShard<Ev> shard = new CepShard<>(0, small, 32, Long.MAX_VALUE);
        ConcurrentLinkedQueue<String> results = new ConcurrentLinkedQueue<>();
        shard.add(new CepOperator<>(0, NfaCompiler.compile(orderThenShipment()),
                NfaOptions.defaults().withProcessingTime(() -> 0L), null, shard.keys(), shard.timers(),
                new CepOperator.Output<>() {
                    @Override
                    public void match(Object key, Match<Ev> match, long timestamp) {
                        results.add("M " + key);
                    }

                    @Override
                    public void timeout(Object key, Match<Ev> partialMatch, long timeoutTimestamp) {
                        results.add("T " + key);
                    }

                    @Override
                    public void late(Object key, Ev event, long timestamp) {
                        results.add("L " + key);
                    }
                }));
        int producers = 2;
        int keysPerProducer = 2_000;
        int[] inputs = new int[producers];
        for (int i = 0; i < producers; i++) {
            inputs[i] = shard.addProducer();
        }
        CountDownLatch finished = new CountDownLatch(1);
        shard.onFinished(finished::countDown);
        AgentRunner runner = new AgentRunner(shard, IdleStrategy.backoff(64, 8, 1_000, 100_000),
                ErrorHandler.alwaysStop()).start();
        CountDownLatch done = new CountDownLatch(producers);
        for (int i = 0; i < producers; i++) {
            int producer = i;
            Thread t = new Thread(() -> {
                // each key: an order, then (for even keys) a shipment; timestamps increase per producer
                for (int k = 0; k < keysPerProducer; k++) {
                    String key = "p" + producer + "-" + k;
                    long ts = 1_000L * k;
                    small.put(new ShardRecord.Event(inputs[producer], key, new Ev("o", ts), ts));
                    if (k % 2 == 0) {
                        small.put(new ShardRecord.Event(inputs[producer], key, new Ev("s", ts + 1), ts + 1));
                    }
                    small.put(new ShardRecord.Watermark(inputs[producer], ts + 1));
                }
                done.countDown();
            }, "producer-" + producer);
            t.start();
        }
        assertTrue(done.await(60, TimeUnit.SECONDS), "producers did not finish");
        small.close();
        boolean drained = finished.await(60, TimeUnit.SECONDS);
        runner.close(Duration.ofSeconds(30));
        assertTrue(drained && shard.isFinished(), "the shard did not finish: " + runner.failure());
        long matches = results.stream().filter(r -> r.startsWith("M ")).count();
        long timeouts = results.stream().filter(r -> r.startsWith("T ")).count();
        assertEquals(producers * keysPerProducer / 2, matches);
        assertEquals(producers * keysPerProducer / 2, timeouts);
        assertEquals(0, results.stream().filter(r -> r.startsWith("L ")).count());
        assertEquals(0, shard.keys().size());
    }
}
