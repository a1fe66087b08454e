package io.cepheus.runtime.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A live rule set under load: two shards on their own threads, two producers on two threads sending out-of-order
 * events and watermarks, while this thread adds, replaces and removes rules at random points of their input, with
 * both retire policies. The outputs of every key must be exactly those of a run driven step by step by the test
 * harness that applies the same changes at the points of each producer's input the engine reported
 * ({@link RuleChange#eventsBefore}, {@link RuleChange#watermarkBefore}): every event matched by the rule versions in
 * force at its position, nothing lost or matched twice.
 *
 * <p>{@code -Dcepheus.rules.load.seeds=N} (default 4) runs seeds from {@code -Dcepheus.seed} (default 1); a failure
 * names its seed.
 */
class LiveRulesUnderLoadTest {

    private static final int SEEDS = Integer.getInteger("cepheus.rules.load.seeds", 4);
    private static final long FIRST_SEED = Long.getLong("cepheus.seed", 1L);
    private static final int ROUNDS = 30;
    private static final int PER_ROUND = 40;
    private static final String[] IDS = {"ab", "c-twice", "a-not-c-b", "any-ab"};

    /** An event: its key, type, value and time, and who sent it as which of their events. */
    record Ev(String key, char type, int value, long ts, int producer, int seq) {
        @Override
        public String toString() {
            return "" + type + value + "@" + ts + "#" + producer + "." + seq;
        }
    }

    /** What a producer sent, in order: an event, or (when {@code event} is null) a watermark. */
    record Sent(Ev event, long watermark) {
    }

    /** A change this thread made, with what the engine reported of it. */
    record Change(String id, int version, boolean remove, RetirePolicy policy) {
    }

    /** The pattern of a rule version: the version changes its thresholds, so versions of an id match differently. */
    static Pattern<Ev> pattern(String id, int version) {
        int v = version % 3;
        return switch (id) {
            case "ab" -> Pattern.<Ev>begin("a").where(e -> e.type() == 'A' && e.value() >= v)
                    .followedBy("b").where(e -> e.type() == 'B').within(Duration.ofMillis(40 + 10 * v));
            case "c-twice" -> Pattern.<Ev>begin("c").where(e -> e.type() == 'C' && e.value() != v).times(2)
                    .within(Duration.ofMillis(60));
            case "a-not-c-b" -> Pattern.<Ev>begin("a").where(e -> e.type() == 'A')
                    .notFollowedBy("no-c").where(e -> e.type() == 'C' && e.value() > v)
                    .followedBy("b").where(e -> e.type() == 'B').within(Duration.ofMillis(70));
            default -> Pattern.<Ev>begin("a").where(e -> e.type() == 'A' && e.value() <= v + 1)
                    .followedByAny("b").where(e -> e.type() == 'B').within(Duration.ofMillis(30));
        };
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void everyEventIsMatchedByTheVersionsInForceAtItsPosition() throws Exception {
        for (long seed = FIRST_SEED; seed < FIRST_SEED + SEEDS; seed++) {
            runSeed(seed);
        }
    }

    private static void runSeed(long seed) throws Exception {
        Random random = new Random(seed);
        List<List<Sent>> sent = List.of(new ArrayList<>(), new ArrayList<>());
        for (int p = 0; p < 2; p++) {
            Random events = new Random(seed * 31 + p);
            int seq = 0;
            for (int round = 0; round < ROUNDS; round++) {
                for (int i = 0; i < PER_ROUND; i++) {
                    String key = (p == 0 ? "a" : "b") + events.nextInt(6);
                    sent.get(p).add(new Sent(new Ev(key, "ABC".charAt(events.nextInt(3)), events.nextInt(4),
                            round * 100L + 1 + events.nextInt(99), p, seq++), 0));
                }
                sent.get(p).add(new Sent(null, round * 100L + 99));
            }
            sent.get(p).add(new Sent(null, Long.MAX_VALUE)); // the producer's close: its watermark ends
        }
        // the changes, drawn up front with the progress (events sent by producer 0) at which each is made
        List<Change> changes = new ArrayList<>();
        List<Long> at = new ArrayList<>();
        Map<String, Integer> inForce = new TreeMap<>();
        Map<String, Integer> versions = new TreeMap<>();
        inForce.put("ab", 1);
        versions.put("ab", 1);
        long progress = 0;
        for (int c = 0; c < 14; c++) {
            progress += 1 + random.nextInt(ROUNDS * PER_ROUND / 16);
            String id = IDS[random.nextInt(IDS.length)];
            RetirePolicy policy = random.nextBoolean() ? RetirePolicy.DRAIN : RetirePolicy.DISCARD;
            if (inForce.containsKey(id) && random.nextInt(3) == 0) {
                changes.add(new Change(id, 0, true, policy));
                inForce.remove(id);
            } else {
                int version = versions.merge(id, 1, Integer::sum);
                changes.add(new Change(id, version, false, policy));
                inForce.put(id, version);
            }
            at.add(Math.min(progress, ROUNDS * PER_ROUND - 1L));
        }

        // the engine on threads
        Map<String, List<String>> live = new ConcurrentHashMap<>();
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).inboxCapacity(64).batchSize(16)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, t) -> e.ts())).build();
        RuleStream<Ev> rules = outputs(engine, live);
        rules.put("ab", 1, pattern("ab", 1));
        List<Producer<Ev>> producers = List.of(engine.newProducer(), engine.newProducer());
        engine.start();
        List<AtomicLong> sentBy = List.of(new AtomicLong(), new AtomicLong());
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            Producer<Ev> in = producers.get(p);
            List<Sent> mine = sent.get(p);
            AtomicLong counter = sentBy.get(p);
            threads.add(new Thread(() -> {
                for (Sent s : mine) {
                    if (s.event() != null) {
                        in.send(s.event());
                        counter.incrementAndGet();
                    } else {
                        send(in, s);
                    }
                }
            }, "producer-" + p));
        }
        threads.forEach(Thread::start);
        List<CompletableFuture<RuleChange>> applied = new ArrayList<>();
        for (int c = 0; c < changes.size(); c++) {
            long target = at.get(c);
            // a point of the input, reached by watching the producers (both a little way in), not by sleeping
            while ((sentBy.get(0).get() < target && threads.get(0).isAlive())
                    || (sentBy.get(1).get() < Math.min(target / 2, 10) && threads.get(1).isAlive())) {
                Thread.onSpinWait();
            }
            Change change = changes.get(c);
            applied.add(change.remove() ? rules.remove(change.id(), change.policy())
                    : rules.put(change.id(), change.version(), pattern(change.id(), change.version()),
                            change.policy()));
        }
        for (Thread t : threads) {
            t.join();
        }
        List<RuleChange> reports = new ArrayList<>();
        for (CompletableFuture<RuleChange> f : applied) {
            reports.add(f.get(60, TimeUnit.SECONDS));
        }
        engine.close(Duration.ofSeconds(60));

        // the same changes, step by step, at the points each producer's input was cut
        Map<String, List<String>> reference = new ConcurrentHashMap<>();
        CepEngine<Ev> stepEngine = CepEngine.<Ev>builder().shards(2).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, t) -> e.ts())).build();
        RuleStream<Ev> stepRules = outputs(stepEngine, reference);
        stepRules.put("ab", 1, pattern("ab", 1));
        List<Producer<Ev>> stepProducers = List.of(stepEngine.newProducer(), stepEngine.newProducer());
        CepTestHarness<Ev> harness = CepTestHarness.start(stepEngine);
        int[] next = {0, 0};
        long[] eventsSent = {0, 0};
        for (int c = 0; c < changes.size(); c++) {
            RuleChange report = reports.get(c);
            for (int p = 0; p < 2; p++) {
                List<Sent> mine = sent.get(p);
                while (next[p] < mine.size()) {
                    Sent s = mine.get(next[p]);
                    boolean before = s.event() != null ? eventsSent[p] < report.eventsBefore(p)
                            : s.watermark() <= report.watermarkBefore(p);
                    if (!before) {
                        break;
                    }
                    send(stepProducers.get(p), s);
                    eventsSent[p] += s.event() != null ? 1 : 0;
                    next[p]++;
                    harness.runUntilIdle();
                }
                assertEquals(report.eventsBefore(p), eventsSent[p], "seed " + seed + ": producer " + p);
            }
            Change change = changes.get(c);
            CompletableFuture<RuleChange> f = change.remove() ? stepRules.remove(change.id(), change.policy())
                    : stepRules.put(change.id(), change.version(), pattern(change.id(), change.version()),
                            change.policy());
            harness.runUntilIdle();
            f.join();
        }
        for (int p = 0; p < 2; p++) {
            for (int i = next[p]; i < sent.get(p).size(); i++) {
                send(stepProducers.get(p), sent.get(p).get(i));
                harness.runUntilIdle();
            }
        }
        harness.runUntilIdle();
        harness.close();

        for (String key : new java.util.TreeSet<>(reference.keySet())) {
            List<String> want = reference.get(key);
            List<String> got = live.getOrDefault(key, List.of());
            if (!want.equals(got)) {
                int i = 0;
                while (i < Math.min(want.size(), got.size()) && want.get(i).equals(got.get(i))) {
                    i++;
                }
                throw new AssertionError("seed " + seed + ", key " + key + ": output " + i + " differs from the step"
                        + " by step run's:\n  step by step: " + want.subList(i, Math.min(want.size(), i + 4))
                        + "\n  live:         " + got.subList(i, Math.min(got.size(), i + 4)) + "\n  changes: "
                        + changes + "\n  reports: " + reports);
            }
        }
        assertEquals(new TreeMap<>(reference).keySet(), new TreeMap<>(live).keySet(), "seed " + seed);
        long outputs = live.values().stream().mapToLong(List::size).sum();
        assertTrue(outputs > 100, "seed " + seed + ": the rules should have matched often, got " + outputs);
        long spread = reports.stream().filter(r -> r.eventsBefore(1) > 0 && r.eventsBefore(0) > 0).count();
        assertTrue(spread > 0, "seed " + seed + ": changes should fall amid both producers' input");
    }

    private static void send(Producer<Ev> in, Sent s) {
        if (s.event() != null) {
            in.send(s.event());
        } else if (s.watermark() == Long.MAX_VALUE) {
            in.close();
        } else {
            in.watermark(s.watermark());
        }
    }

    private static RuleStream<Ev> outputs(CepEngine<Ev> engine, Map<String, List<String>> out) {
        return engine.keyBy(Ev::key).rules()
                .select((rule, key, m, ts) -> out.computeIfAbsent((String) key, k -> new ArrayList<>())
                        .add("MATCH " + rule + " " + m.allEvents() + "@" + ts))
                .timeouts((rule, key, m, ts) -> out.computeIfAbsent((String) key, k -> new ArrayList<>())
                        .add("TIMEOUT " + rule + " " + m.allEvents() + "@" + ts))
                .lateEvents((key, e, ts) -> out.computeIfAbsent((String) key, k -> new ArrayList<>())
                        .add("LATE " + e));
    }
}
