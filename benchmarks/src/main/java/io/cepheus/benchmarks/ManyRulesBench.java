package io.cepheus.benchmarks;

import com.carrotsearch.hppc.IntObjectHashMap;
import com.carrotsearch.hppc.cursors.ObjectCursor;
import io.cepheus.benchmarks.workloads.BenchEvent;
import io.cepheus.benchmarks.workloads.CountingSink;
import io.cepheus.benchmarks.workloads.ManyRulesWorkload;
import io.cepheus.benchmarks.workloads.MatchChecksum;
import io.cepheus.benchmarks.workloads.RunResult;
import io.cepheus.benchmarks.workloads.WorkloadRunner;
import io.cepheus.benchmarks.workloads.WorkloadStream;
import io.cepheus.nfa.NfaCompiler;
import io.cepheus.nfa.NfaMatcher;
import io.cepheus.nfa.NfaState;
import io.cepheus.pattern.Pattern;
import io.cepheus.rules.Rule;
import io.cepheus.rules.Rules;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.rules.RuleStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * W5 ({@code WORKLOADS.md}): R rules on one stream, run by the engine on one shard as a live rule set, with W2's
 * single rule beside them. For each R it checks the counts WORKLOADS.md gives, then reports events per second (on
 * this thread's CPU time, median of the measured rounds), bytes allocated per event, the time to add the R rules to
 * an empty rule set (parse, compile, put, applied on the shard and indexed: until the first event after them is
 * matched), and with {@code --heap} the heap retained halfway through the stream by the engine and by the bare NFA
 * running the same rules (one matcher per rule, a state per key with something pending, every rule stepped on every
 * event).
 *
 * <p>{@code java -cp benchmarks/target/benchmarks.jar io.cepheus.benchmarks.ManyRulesBench [--rules 1,10,100,1000]
 * [--rounds 5] [--warmup 3] [--heap]}. The engine runs under its test harness on this thread, a watermark and a
 * batch every 1,000 events, as {@link PairedBuildRun}'s {@code engine} spec drives it. Give one R per JVM for
 * speeds to compare: code the JIT compiled for other rule counts runs slower on this one (1,000 rules after 1, 10
 * and 100 in one JVM: about half the speed of 1,000 rules alone). {@code PairedBuildRun}'s {@code rules:R} runs the
 * same rule set, one R per JVM, paired with another build or another spec.
 */
public final class ManyRulesBench {

    private static final int HALF = 500_000;

    private ManyRulesBench() {
    }

    /** @param args see the class comment */
    public static void main(String[] args) {
        int[] ruleCounts = ManyRulesWorkload.RULE_COUNTS;
        int rounds = 5;
        int warmup = 3;
        boolean heap = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rules" -> ruleCounts = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt)
                        .toArray();
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--heap" -> heap = true;
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        WorkloadStream stream = ManyRulesWorkload.stream();
        System.out.printf(Locale.ROOT, "W5: %,d events, %d rounds after %d warm-up rounds, one shard%n",
                stream.size(), rounds, warmup);
        System.out.println("| rules | events/s | bytes/event | add the rules | heap: engine | heap: bare NFA |");
        System.out.println("|---|---|---|---|---|---|");
        for (int ruleCount : ruleCounts) {
            List<Rule> rules = ManyRulesWorkload.rules(ruleCount);
            List<Pattern<BenchEvent>> patterns = new ArrayList<>();
            for (Rule r : rules) {
                patterns.add(r.compile(BenchEvent.class));
            }
            // speed first, while the JIT has seen nothing else
            Measured m = measure(stream, patterns, rounds, warmup, ManyRulesWorkload.expectedMatches(ruleCount),
                    ManyRulesWorkload.expectedChecksum(ruleCount));
            long addNanos = timeToAdd(stream, ruleCount);
            String heapEngine = "";
            String heapBare = "";
            if (heap) {
                heapEngine = mb(retainedByEngine(stream, patterns));
                heapBare = mb(retainedByBareNfa(stream, patterns));
            }
            System.out.printf(Locale.ROOT, "| %,d | %.2f M | %.1f | %.0f ms | %s | %s |%n", ruleCount,
                    m.eventsPerSecond / 1e6, m.bytesPerEvent, addNanos / 1e6, heapEngine, heapBare);
        }
        Rule w2 = w2Rule();
        Measured m = measure(stream2(), List.of(w2.compile(BenchEvent.class)), rounds, warmup, 106_581,
                Long.parseUnsignedLong("b7440c5743a2ebf5", 16));
        System.out.printf(Locale.ROOT, "| W2 (its one rule, W2's stream) | %.2f M | %.1f | | | |%n",
                m.eventsPerSecond / 1e6, m.bytesPerEvent);
    }

    private static WorkloadStream stream2() {
        return io.cepheus.benchmarks.workloads.WorkloadGenerator.generate(
                io.cepheus.benchmarks.workloads.Workload.W2);
    }

    private static Rule w2Rule() {
        try (InputStream in = ManyRulesBench.class.getResourceAsStream("/rules/w2.json")) {
            return Rules.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private record Measured(double eventsPerSecond, double bytesPerEvent) {
    }

    /** Runs the stream {@code warmup + rounds} times; @return the medians of the measured rounds */
    private static Measured measure(WorkloadStream stream, List<Pattern<BenchEvent>> patterns, int rounds,
            int warmup, long expectedMatches, long expectedChecksum) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory
                .getThreadMXBean();
        double[] rates = new double[rounds];
        double[] bytes = new double[rounds];
        for (int round = -warmup; round < rounds; round++) {
            long cpu = threads.getCurrentThreadCpuTime();
            long allocated = threads.getCurrentThreadAllocatedBytes();
            long[] tally = run(stream, patterns, stream.size());
            long cpuNanos = threads.getCurrentThreadCpuTime() - cpu;
            long allocatedBytes = threads.getCurrentThreadAllocatedBytes() - allocated;
            if (tally[0] != expectedMatches || tally[1] != expectedChecksum) {
                throw new IllegalStateException(String.format(Locale.ROOT, "%d rules: %d matches, checksum %s;"
                        + " WORKLOADS.md says %d, %s", patterns.size(), tally[0], MatchChecksum.hex(tally[1]),
                        expectedMatches, MatchChecksum.hex(expectedChecksum)));
            }
            if (round >= 0) {
                rates[round] = stream.size() / (cpuNanos / 1e9);
                bytes[round] = (double) allocatedBytes / stream.size();
            }
        }
        Arrays.sort(rates);
        Arrays.sort(bytes);
        return new Measured(rates[rounds / 2], bytes[rounds / 2]);
    }

    /**
     * The engine on one shard with the rules as a rule set, over the first {@code events} events.
     *
     * @return {matches, checksum}
     */
    static long[] run(WorkloadStream stream, List<Pattern<BenchEvent>> patterns, int events) {
        long[] tally = new long[2];
        CepEngine<BenchEvent> engine = CepEngine.<BenchEvent>builder().shards(1).build();
        RuleStream<BenchEvent> set = engine.keyBy(BenchEvent::key).rules().select((rule, key, match, ts) -> {
            tally[0]++;
            tally[1] += MatchChecksum.mix(match.firstTimestamp(), match.lastTimestamp());
        });
        for (int r = 0; r < patterns.size(); r++) {
            set.put("r" + r, 1, patterns.get(r));
        }
        Producer<BenchEvent> producer = engine.newProducer();
        CepTestHarness<BenchEvent> harness = CepTestHarness.start(engine);
        feed(stream, producer, harness, 0, events);
        if (events == stream.size()) {
            producer.watermark(Long.MAX_VALUE);
            harness.runUntilIdle();
            harness.close();
        } else {
            KEEP.add(engine);
            KEEP.add(harness);
        }
        return tally;
    }

    /** Engines kept reachable while the heap they retain is measured. */
    private static final List<Object> KEEP = new ArrayList<>();

    private static void feed(WorkloadStream stream, Producer<BenchEvent> producer, CepTestHarness<BenchEvent> harness,
            int from, int to) {
        BenchEvent[] events = stream.events();
        long[] timestamps = stream.timestamps();
        for (int i = from; i < to; i++) {
            producer.send(events[i], timestamps[i]);
            if ((i + 1) % 1_000 == 0) {
                producer.watermark(timestamps[i] - 1);
                harness.runUntilIdle();
            }
        }
    }

    /**
     * @return the time from reading the first rule file to the first event matched after the rules are in force:
     *         parse, compile, put into a started engine's empty rule set, applied on the shard, indexed
     */
    private static long timeToAdd(WorkloadStream stream, int ruleCount) {
        List<String> files = new ArrayList<>();
        for (int r = 0; r < ruleCount; r++) {
            files.add(ManyRulesWorkload.ruleJson(r, ruleCount, 1, 60_000));
        }
        long best = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 5; attempt++) {
            CepEngine<BenchEvent> engine = CepEngine.<BenchEvent>builder().shards(1).build();
            RuleStream<BenchEvent> set = engine.keyBy(BenchEvent::key).rules();
            Producer<BenchEvent> producer = engine.newProducer();
            CepTestHarness<BenchEvent> harness = CepTestHarness.start(engine);
            long start = StopwatchClock.nanos();
            List<java.util.concurrent.CompletableFuture<?>> applied = new ArrayList<>();
            for (int r = 0; r < ruleCount; r++) {
                applied.add(set.put("w5-" + r, 1, Rules.parse(files.get(r)).compile(BenchEvent.class)));
            }
            BenchEvent first = stream.events()[0];
            producer.send(first, first.ts());
            producer.watermark(first.ts());
            harness.runUntilIdle();
            for (java.util.concurrent.CompletableFuture<?> f : applied) {
                f.join();
            }
            best = Math.min(best, StopwatchClock.nanos() - start);
            harness.close();
        }
        return best;
    }

    private static long retainedByEngine(WorkloadStream stream, List<Pattern<BenchEvent>> patterns) {
        long before = usedHeap();
        run(stream, patterns, HALF);
        long after = usedHeap();
        KEEP.clear();
        return after - before;
    }

    /** The bare NFA: one matcher per rule, a state per key with something pending, every rule on every event. */
    private static long retainedByBareNfa(WorkloadStream stream, List<Pattern<BenchEvent>> patterns) {
        long before = usedHeap();
        List<NfaMatcher<BenchEvent>> matchers = new ArrayList<>();
        List<IntObjectHashMap<NfaState>> states = new ArrayList<>();
        for (Pattern<BenchEvent> p : patterns) {
            matchers.add(NfaCompiler.compile(p).newMatcher());
            states.add(new IntObjectHashMap<>());
        }
        CountingSink sink = new CountingSink(false);
        BenchEvent[] events = stream.events();
        long[] timestamps = stream.timestamps();
        int[] keys = stream.keys();
        for (int i = 0; i < HALF; i++) {
            for (int r = 0; r < matchers.size(); r++) {
                WorkloadRunner.stepReleasingIdle(matchers.get(r), states.get(r), keys[i], events[i], timestamps[i],
                        sink);
            }
        }
        long after = usedHeap();
        for (int r = 0; r < matchers.size(); r++) {
            for (ObjectCursor<NfaState> c : states.get(r).values()) {
                matchers.get(r).advanceTime(c.value, Long.MAX_VALUE, sink);
            }
        }
        RunResult result = sink.result();
        if (result.matches() < 0) {
            throw new IllegalStateException("unreachable: keeps the states reachable until measured");
        }
        return after - before;
    }

    private static long usedHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
