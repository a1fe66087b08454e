package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.EventCodec;
import io.cepheus.nfa.Match;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.nfa.OverflowPolicy;
import io.cepheus.nfa.RecordCodec;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.agent.ErrorAction;
import io.cepheus.runtime.rules.RetirePolicy;
import io.cepheus.runtime.rules.RuleStream;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Seeded fault injection: each run builds an engine of 1 to 3 shards with inboxes of 4 records under either
 * backpressure policy, feeds it from 1 to 3 producer threads, and, at random points, closes it, checkpoints it,
 * changes its rules, asks keys' shards for their partial matches and moves its clock, while conditions and handlers
 * throw or hold up their shard, the per-key bound is small, and timestamps may sit at either end of the
 * {@code long} range. Every run checks that
 * <ul>
 *   <li>every event a send accepted comes out of the one-stage pattern exactly once: matched, its match's handler
 *       failed, a dead letter, or late; and nothing comes out that no send accepted;</li>
 *   <li>no pair is matched twice, by the pattern or by a rule version;</li>
 *   <li>what the shards hold stays within the per-key bounds, sampled while they run;</li>
 *   <li>every rule change and every question is answered, the engine reports no unexpected error, and no engine
 *       thread is left running after {@code close()};</li>
 *   <li>a snapshot taken on the way restores, into as many shards or another number of them, and one damaged
 *       under a recomputed checksum is refused clearly or runs to the end.</li>
 * </ul>
 * {@code -Dcepheus.faults.seeds=N} runs N seeds (default 300) from {@code -Dcepheus.seed=S}.
 */
class FaultInjectionTest {

    /** Faults an event carries: none, its condition throws, its match's handler throws, its handler holds up. */
    static final int NONE = 0;
    static final int CONDITION_THROWS = 1;
    static final int HANDLER_THROWS = 2;
    static final int HANDLER_HOLDS = 3;

    record Ev(int id, int key, char kind, long ts, int fault) {
    }

    static final EventCodec<Ev> EVENTS = RecordCodec.<Ev>builder().int32(Ev::id).int32(Ev::key).int32(Ev::kind)
            .int64(Ev::ts).int32(Ev::fault)
            .build(f -> new Ev(f.int32(), f.int32(), (char) f.int32(), f.int64(), f.int32()));
    static final EventCodec<Object> KEYS = RecordCodec.<Object>builder().int32(k -> (Integer) k)
            .build(f -> f.int32());

    private static final int HEADER_BYTES = 16;

    @Test
    void everyAcceptedEventComesOutOnceUnderFaults() {
        long first = Long.getLong("cepheus.seed", 37_000L);
        int seeds = Integer.getInteger("cepheus.faults.seeds", 300);
        int[] summary = new int[4]; // runs closed early, snapshots restored, damaged ones refused, rule changes
        for (long seed = first; seed < first + seeds; seed++) {
            long s = seed;
            try {
                new Run(s).execute(summary);
            } catch (AssertionError | RuntimeException | InterruptedException e) {
                throw new AssertionError("fault run failed with cepheus.seed=" + s + " (rerun: mvn -pl runtime test"
                        + " -Dtest=FaultInjectionTest -Dcepheus.seed=" + s + " -Dcepheus.faults.seeds=1)\n"
                        + e.getMessage(), e);
            }
        }
        System.out.println("fault injection: " + seeds + " runs from seed " + first + ", " + summary[0]
                + " closed while producers sent, " + summary[1] + " snapshots restored, " + summary[2]
                + " damaged snapshots refused, " + summary[3] + " rule changes");
    }

    /** One seeded run: its configuration, its engine, and everything that came out of it. */
    private static final class Run {
        final long seed;
        final Random random;
        final int shards;
        final int producers;
        final BackpressurePolicy backpressure;
        final long base;
        final int maxPartialMatches;
        final OverflowPolicy overflow;
        final int eventsPerProducer;
        final ManualClock clock = new ManualClock(0);

        final Set<Integer> accepted = ConcurrentHashMap.newKeySet();
        final Map<Integer, String> cameOut = new ConcurrentHashMap<>();
        final Queue<String> twice = new ConcurrentLinkedQueue<>();
        final Set<String> pairs = ConcurrentHashMap.newKeySet();
        final Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
        final Queue<byte[]> snapshots = new ConcurrentLinkedQueue<>();
        final AtomicInteger sent = new AtomicInteger();
        volatile boolean closeCalled;
        /** The pair pattern of the engine built last: its keys' partial matches are asked for while it runs. */
        PatternStream<Ev> pairPattern;

        Run(long seed) {
            this.seed = seed;
            this.random = new Random(seed);
            this.shards = 1 + random.nextInt(3);
            this.producers = 1 + random.nextInt(3);
            this.backpressure = random.nextBoolean() ? BackpressurePolicy.BLOCK : BackpressurePolicy.REJECT;
            this.base = switch (random.nextInt(4)) {
                case 0 -> Long.MAX_VALUE - 3_000; // deadlines and windows saturate
                case 1 -> Long.MIN_VALUE + 100; // room for the events sent behind the newest
                default -> 1_000;
            };
            this.maxPartialMatches = 2 + random.nextInt(8);
            this.overflow = random.nextBoolean() ? OverflowPolicy.REJECT_NEW : OverflowPolicy.FAIL;
            this.eventsPerProducer = 40 + random.nextInt(200);
        }

        CepEngine<Ev> engine(List<RuleStream<Ev>> rulesOut) {
            return engine(rulesOut, shards);
        }

        CepEngine<Ev> engine(List<RuleStream<Ev>> rulesOut, int shardCount) {
            CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(shardCount).inboxCapacity(4)
                    .backpressure(backpressure)
                    .clock(clock)
                    .nfaOptions(NfaOptions.defaults().withMaxPartialMatchesPerKey(maxPartialMatches)
                            .withOverflowPolicy(overflow))
                    .watermarks(WatermarkStrategy.<Ev>forBoundedOutOfOrderness(Duration.ofMillis(20))
                            .withAutoWatermarkInterval(Duration.ofMillis(10)).withTimestampAssigner((e, ts) -> e.ts()))
                    .errorHandler((role, error) -> {
                        errors.add(error);
                        return ErrorAction.CONTINUE;
                    })
                    .snapshots(EVENTS, KEYS).build();
            KeyedStream<Ev> keyed = engine.keyBy(Ev::key);
            keyed.pattern(Pattern.<Ev>begin("e").where(e -> {
                        if (e.fault() == CONDITION_THROWS) {
                            throw new IllegalStateException("injected condition failure");
                        }
                        return true;
                    }))
                    .select((k, m, ts) -> {
                        Ev e = m.events("e").get(0);
                        if (e.fault() == HANDLER_THROWS) {
                            throw new IllegalStateException("injected handler failure");
                        }
                        if (e.fault() == HANDLER_HOLDS) {
                            holdUp();
                        }
                        out(e, "matched");
                    })
                    .lateEvents((k, e, ts) -> out(e, "late"))
                    .deadLetters(new DeadLetterHandler<>() {
                        @Override
                        public void onDeadLetter(Object key, Ev event, long timestamp, RuntimeException error) {
                            out(event, "dead letter");
                        }

                        @Override
                        public void onFailedOutput(Object key, Object output, long timestamp, RuntimeException error) {
                            out(((Match<?>) output).allEvents().get(0) instanceof Ev e ? e : null, "failed output");
                        }
                    });
            pairPattern = keyed.pattern(pairs()).select((k, m, ts) -> pair("P", m))
                    .deadLetters((key, event, ts, error) -> { });
            RuleStream<Ev> rules = keyed.rules().select((rule, k, m, ts) -> pair(rule.toString(), m))
                    .deadLetters((key, event, ts, error) -> { });
            rulesOut.add(rules);
            engine.onSnapshot(snapshots::add);
            return engine;
        }

        static Pattern<Ev> pairs() {
            return Pattern.<Ev>begin("a").where(e -> e.kind() == 'a').followedByAny("b").where(e -> e.kind() == 'b')
                    .within(Duration.ofMillis(50));
        }

        /** A handler that takes its time: the shard falls behind, inboxes fill, producers wait or are refused. */
        static void holdUp() {
            for (int i = 0; i < 20_000; i++) {
                Thread.onSpinWait();
            }
        }

        void out(Ev e, String how) {
            if (e == null) {
                twice.add("an output that is not a match of one event: " + how);
                return;
            }
            String before = cameOut.putIfAbsent(e.id(), how);
            if (before != null) {
                twice.add("event " + e + " came out as " + before + " and as " + how);
            }
        }

        void pair(String who, Match<Ev> m) {
            String p = who + " " + m.events("a").get(0).id() + "-" + m.events("b").get(0).id();
            if (!pairs.add(p)) {
                twice.add("matched twice: " + p);
            }
        }

        void execute(int[] summary) throws InterruptedException {
            Set<Thread> before = Thread.getAllStackTraces().keySet();
            List<RuleStream<Ev>> rules = new ArrayList<>();
            CepEngine<Ev> engine = engine(rules);
            List<Producer<Ev>> in = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                in.add(engine.newProducer());
            }
            long[][] plans = new long[producers][];
            int[] checkpointsAt = {random.nextInt(eventsPerProducer), random.nextInt(eventsPerProducer)};
            for (int p = 0; p < producers; p++) {
                plans[p] = new long[] {random.nextLong()};
            }
            int total = producers * eventsPerProducer;
            int closeAt = random.nextInt(3) == 0 ? random.nextInt(total) : Integer.MAX_VALUE;
            engine.start();
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int producer = p;
                Thread t = new Thread(() -> produce(producer, in.get(producer), new Random(plans[producer][0]),
                        checkpointsAt), "fault-producer-" + p);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
            // the test's thread: rule changes and clock moves at random points, then close, early or at the end
            List<CompletableFuture<?>> changes = new ArrayList<>();
            List<CompletableFuture<List<io.cepheus.nfa.PartialMatch<Ev>>>> questions = new ArrayList<>();
            int version = 0;
            boolean rulePresent = false;
            boolean closedEarly = false;
            int seen = -1;
            while (threads.stream().anyMatch(Thread::isAlive)) {
                int now = sent.get();
                if (now >= closeAt) {
                    closedEarly = true;
                    break;
                }
                if (now == seen) {
                    Thread.onSpinWait();
                    continue;
                }
                seen = now; // at most one action per event sent
                int dice = random.nextInt(100);
                if (dice < 3) {
                    changes.add(rules.get(0).put("r", ++version, pairs(),
                            random.nextBoolean() ? RetirePolicy.DRAIN : RetirePolicy.DISCARD));
                    rulePresent = true;
                } else if (dice < 4 && rulePresent) {
                    changes.add(rules.get(0).remove("r"));
                    rulePresent = false;
                } else if (dice < 6) {
                    questions.add(pairPattern.partialMatches(random.nextInt(6))); // answered by the key's shard
                } else if (dice < 30) {
                    clock.advance(1 + random.nextInt(15));
                }
                checkBounds(engine);
            }
            closeCalled = true;
            engine.close();
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(60));
                assertTrue(!t.isAlive(), t.getName() + " still runs after close()");
            }
            for (CompletableFuture<List<io.cepheus.nfa.PartialMatch<Ev>>> question : questions) {
                try {
                    for (io.cepheus.nfa.PartialMatch<Ev> open : question.get(60, TimeUnit.SECONDS)) {
                        if (open.events().size() > maxPartialMatches * NfaOptions.DEFAULT_ENTRIES_PER_PARTIAL_MATCH) {
                            twice.add("a partial match of " + open.events().size() + " events, beyond the bound");
                        }
                    }
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    throw new AssertionError("a question about a key's partial matches was not answered", e);
                }
            }
            for (CompletableFuture<?> change : changes) {
                try {
                    change.get(60, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException refusedAtClose) {
                    // a change that met the close is refused, and says so
                } catch (java.util.concurrent.TimeoutException e) {
                    throw new AssertionError("a rule change never completed", e);
                }
            }
            summary[0] += closedEarly ? 1 : 0;
            summary[3] += changes.size();

            assertEquals(List.of(), List.copyOf(twice));
            assertEquals(List.of(), List.copyOf(errors), "no error reached the engine's handler");
            Set<Integer> notOut = new HashSet<>(accepted);
            notOut.removeAll(cameOut.keySet());
            assertEquals(Set.of(), notOut, "accepted events that never came out (" + accepted.size() + " accepted)");
            Set<Integer> notAccepted = new HashSet<>(cameOut.keySet());
            notAccepted.removeAll(accepted);
            assertEquals(Set.of(), notAccepted, "events that came out but no send accepted");
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                assertTrue(before.contains(t) || !t.getName().startsWith("cepheus-") || !t.isAlive(),
                        "engine thread " + t.getName() + " still runs after close()");
            }
            byte[] snapshot = snapshots.peek();
            if (snapshot != null) {
                restore(snapshot, "the snapshot as taken");
                summary[1]++;
                byte[] damaged = snapshot.clone();
                int at = HEADER_BYTES + random.nextInt(damaged.length - HEADER_BYTES);
                damaged[at] = (byte) random.nextInt(256);
                summary[2] += restore(SnapshotRoundTrip.withChecksum(damaged),
                        "byte " + at + " damaged under a recomputed checksum") ? 0 : 1;
            }
        }

        void produce(int producer, Producer<Ev> in, Random r, int[] checkpointsAt) {
            long ts = base;
            try {
                for (int seq = 0; seq < eventsPerProducer; seq++) {
                    int id = producer * 1_000_000 + seq;
                    ts += r.nextInt(4);
                    long eventTime = r.nextInt(10) == 0 ? ts - r.nextInt(60) : ts; // some behind the watermark
                    int fault = r.nextInt(12) < 3 ? 1 + r.nextInt(3) : NONE;
                    Ev e = new Ev(id, r.nextInt(6), r.nextBoolean() ? 'a' : 'b', eventTime, fault);
                    if (send(in, e)) {
                        accepted.add(id);
                    }
                    sent.incrementAndGet();
                    if (r.nextInt(25) == 0) {
                        in.watermark(ts - 30);
                    }
                    if (seq == checkpointsAt[0] || seq == checkpointsAt[1]) {
                        in.checkpoint(seq == checkpointsAt[0] ? 1 : 2);
                    }
                }
                close(in);
            } catch (IllegalStateException refused) {
                // the engine closed while this producer still sent: what it accepted before counts
                if (!closeCalled) {
                    errors.add(refused);
                }
            }
        }

        /** Closes the producer; under REJECT its last watermark may find an inbox full, and close() is called again. */
        void close(Producer<Ev> in) {
            while (true) {
                try {
                    in.close();
                    return;
                } catch (IllegalStateException full) {
                    if (!full.getMessage().contains("call close() again")) {
                        throw full;
                    }
                    Thread.onSpinWait();
                }
            }
        }

        /** @return whether the event was accepted; under REJECT a refused send is tried again a few times */
        boolean send(Producer<Ev> in, Ev e) {
            for (int attempt = 0; attempt < 200; attempt++) {
                if (in.send(e)) {
                    return true;
                }
                Thread.onSpinWait();
            }
            return false;
        }

        /** What a shard holds stays within the per-key bounds of the pattern and of the rule versions alive. */
        void checkBounds(CepEngine<Ev> engine) {
            long operators = 1 + 3; // the pair pattern, and the rule's versions in force or draining
            for (ShardMetrics shard : engine.metrics().shards()) {
                long keys = Math.max(1, shard.keys());
                long entryBound = (long) NfaOptions.DEFAULT_ENTRIES_PER_PARTIAL_MATCH * maxPartialMatches;
                if (shard.partialMatches() > keys * maxPartialMatches * operators
                        || shard.sharedBufferEntries() > keys * entryBound * operators) {
                    twice.add("shard " + shard.shard() + " holds " + shard.partialMatches() + " partial matches and "
                            + shard.sharedBufferEntries() + " entries for " + shard.keys() + " keys, beyond the bound "
                            + maxPartialMatches);
                }
            }
        }

        /** @return whether the restore was refused, as it must be if it is refused: clearly */
        boolean restore(byte[] snapshot, String what) {
            // the same configuration with its own outputs, on as many shards or (rescaling) another number of them
            CepEngine<Ev> fresh = new Run(seed).engine(new ArrayList<>(), 1 + random.nextInt(4));
            List<Producer<Ev>> in = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                in.add(fresh.newProducer());
            }
            CepTestHarness<Ev> h;
            try {
                h = CepTestHarness.restore(fresh, snapshot);
            } catch (IllegalStateException refused) {
                assertTrue(refused.getMessage().startsWith("cannot restore the snapshot: "), what + ": " + refused);
                assertTrue(what.contains("damaged"), what + " was refused: " + refused);
                return true;
            }
            org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                for (Producer<Ev> p : in) {
                    p.close();
                }
                h.runUntilIdle();
                h.close();
            }, () -> what + ": the restored engine did not run to the end");
            return false;
        }
    }

}
