package io.cepheus.benchmarks;

import com.carrotsearch.hppc.IntObjectHashMap;
import com.carrotsearch.hppc.cursors.ObjectCursor;
import io.cepheus.benchmarks.workloads.BenchEvent;
import io.cepheus.benchmarks.workloads.CountingSink;
import io.cepheus.benchmarks.workloads.MatchChecksum;
import io.cepheus.benchmarks.workloads.Workload;
import io.cepheus.benchmarks.workloads.WorkloadGenerator;
import io.cepheus.benchmarks.workloads.WorkloadRunner;
import io.cepheus.benchmarks.workloads.WorkloadStream;
import io.cepheus.benchmarks.workloads.Workloads;
import io.cepheus.nfa.NfaCompiler;
import io.cepheus.nfa.NfaMatcher;
import io.cepheus.nfa.NfaState;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.PatternStream;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.window.EventTimeSessionWindows;
import io.cepheus.runtime.window.SlidingEventTimeWindows;
import io.cepheus.runtime.window.TumblingEventTimeWindows;
import io.cepheus.runtime.window.WindowAssigner;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * The child side of {@link PairedBuilds}: one JVM on one build's jar that runs a benchmark once each time its
 * parent writes {@code run} on its standard input, and answers with a line {@code rate <events/s> <result>}: speed
 * on this thread's CPU time, and a fingerprint of the results (counts and checksum) that the parent compares
 * between the two builds. {@code quit} or the end of input stops it.
 *
 * <p>It uses only the public API and benchmark classes that older builds have too, because {@link PairedBuilds}
 * runs this class, taken from its own jar, against the other build's jar.
 *
 * <p>Specs: {@code engine:Wn} (the CEP engine, one shard, driven on this thread by {@link CepTestHarness} with a
 * watermark every 1,000 events, as the Flink comparison drives it), {@code bare:Wn} (the bare NFA,
 * {@link WorkloadRunner}), {@code lean:Wn} (the bare NFA keeping states only for keys with something pending, as
 * the runtime does, {@link WorkloadRunner#withIdleRelease}; needs builds from December 2026 on), {@code threads:Wn/N} (the engine on its own threads, N shards and one producer on this
 * thread, {@link RuntimeWorkloadRunner}), {@code window:SIZE/SLIDE} in seconds ({@link WindowBench}'s stream and
 * count + sum; SIZE = SLIDE is tumbling, SIZE 0 is sessions with gap SLIDE), {@code sorted:Wn} (the bare NFA as
 * {@code bare} runs it, on the workload's events stably sorted by key: each key's events come in a row, in their
 * order, so each key gets the same events, times and matches, but its state stays in the cache while it is used;
 * the events are copied in that order, with their arrays, so that reading them stays sequential as in {@code bare};
 * against {@code bare} it shows what memory latency costs, and between two builds it compares their computation
 * alone, with less of the noise that the machine's share of the cache adds), {@code floor:Wn} (what the engine
 * must do per event besides matching, in its barest form: see {@link #runFloor}; its fingerprint counts events, not
 * matches, so set it against another kind with {@code --results-differ}), {@code rule:Wn} (the engine as
 * {@code engine} runs it, the pattern read from the workload's rule file, {@code rules/wN.json}, and compiled for the
 * events' record) and {@code map:Wn} (the same rule compiled for map events, the stream's events turned into maps
 * of their fields beforehand, as the command line reads CSV), {@code rules:R} (W5: R rules in one rule set of the
 * engine, {@link ManyRulesBench}; builds that have it), {@code traced1:Wn} and {@code tracedAll:Wn} (the engine as
 * {@code engine} runs it with one key, or every key, traced; builds with key traces), {@code counted:Wn} (the engine
 * with stage counters on; builds that have them). Workload specs print the same
 * fingerprint whatever their kind, so that {@code PairedBuilds --vs} can set one kind against another.
 *
 * <p>Speed is on this thread's CPU time, except for {@code threads}: there the work is on other threads, so it
 * is on elapsed time (which a descheduled thread makes longer).
 */
public final class PairedBuildRun {

    private final String kind;
    private final int shards;
    private final WorkloadStream stream;
    /** For {@code sorted}: the stream's keys, times and events copied in key order (stable); null otherwise. */
    private final int[] sortedKeys;
    private final long[] sortedTimes;
    private final BenchEvent[] sortedEvents;
    private final WindowBench.Ev[] windowEvents;
    private final WindowAssigner<WindowBench.Ev> assigner;
    /** For {@code map}: the stream's events as maps of their fields, what the command line makes of CSV rows. */
    private final java.util.Map<String, Object>[] mapEvents;
    /** For {@code rules}: W5's rules, compiled; null otherwise. */
    private java.util.List<io.cepheus.pattern.Pattern<BenchEvent>> manyRules;

    /** One class file only, no nested ones: {@link PairedBuilds} copies exactly this file next to the other jar. */
    PairedBuildRun(String spec) {
        String[] parts = spec.split(":", 2);
        if (parts.length != 2) {
            throw new IllegalArgumentException("spec " + spec + ": expected engine:Wn, bare:Wn, lean:Wn, sorted:Wn,"
                    + " floor:Wn, threads:Wn/N or window:SIZE/SLIDE");
        }
        kind = parts[0];
        switch (kind) {
            case "engine", "bare", "lean", "sorted", "floor", "threads", "rule", "map", "traced1", "tracedAll", "counted" -> {
                String[] w = parts[1].split("/", 2);
                if (kind.equals("threads") != (w.length == 2)) {
                    throw new IllegalArgumentException("spec " + spec + ": only threads takes a shard count (Wn/N)");
                }
                shards = w.length == 2 ? Integer.parseInt(w[1]) : 1;
                stream = WorkloadGenerator.generate(Workload.valueOf(w[0]));
                int[] order = kind.equals("sorted") ? positionsByKey(stream) : null;
                sortedKeys = order == null ? null : new int[order.length];
                sortedTimes = order == null ? null : new long[order.length];
                sortedEvents = order == null ? null : new BenchEvent[order.length];
                for (int j = 0; order != null && j < order.length; j++) {
                    // fresh events, allocated in key order, so that they lie in memory in the order they are read
                    BenchEvent e = stream.events()[order[j]];
                    sortedKeys[j] = stream.keys()[order[j]];
                    sortedTimes[j] = stream.timestamps()[order[j]];
                    sortedEvents[j] = new BenchEvent(e.key(), e.type(), e.value(), e.ts());
                }
                windowEvents = null;
                assigner = null;
                mapEvents = kind.equals("map") ? asMaps(stream.events()) : null;
            }
            case "rules" -> {
                // W5: R rules in one rule set (io.cepheus.benchmarks.ManyRulesBench), from builds that have it
                int ruleCount = Integer.parseInt(parts[1]);
                stream = io.cepheus.benchmarks.workloads.ManyRulesWorkload.stream();
                manyRules = new java.util.ArrayList<>();
                for (io.cepheus.rules.Rule r : io.cepheus.benchmarks.workloads.ManyRulesWorkload.rules(ruleCount)) {
                    manyRules.add(r.compile(BenchEvent.class));
                }
                sortedKeys = null;
                sortedTimes = null;
                sortedEvents = null;
                windowEvents = null;
                assigner = null;
                mapEvents = null;
                shards = 1;
            }
            case "window" -> {
                String[] s = parts[1].split("/");
                long size = Long.parseLong(s[0]);
                long slide = Long.parseLong(s[1]);
                assigner = size == 0 ? EventTimeSessionWindows.withGap(Duration.ofSeconds(slide))
                        : size == slide ? TumblingEventTimeWindows.of(Duration.ofSeconds(size))
                        : SlidingEventTimeWindows.of(Duration.ofSeconds(size), Duration.ofSeconds(slide));
                windowEvents = WindowBench.stream();
                stream = null;
                sortedKeys = null;
                sortedTimes = null;
                sortedEvents = null;
                shards = 1;
                mapEvents = null;
            }
            default -> throw new IllegalArgumentException("spec " + spec + ": unknown kind " + kind);
        }
    }

    /** @param args the spec */
    public static void main(String[] args) throws java.io.IOException {
        PairedBuildRun benchmark = new PairedBuildRun(args[0]);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        boolean elapsed = benchmark.kind.equals("threads");
        for (String line = in.readLine(); line != null && !line.equals("quit"); line = in.readLine()) {
            long start = elapsed ? StopwatchClock.nanos() : threads.getCurrentThreadCpuTime();
            String result = benchmark.runOnce();
            long nanos = (elapsed ? StopwatchClock.nanos() : threads.getCurrentThreadCpuTime()) - start;
            System.out.printf(Locale.ROOT, "rate %.0f %s%n", benchmark.events() / (nanos / 1e9), result);
            System.out.flush();
        }
    }

    private int events() {
        return stream != null ? stream.size() : windowEvents.length;
    }

    /** @return a fingerprint of the run's results */
    String runOnce() {
        return switch (kind) {
            case "bare" -> fingerprint(stream.workload(), WorkloadRunner.forWorkload(stream.workload()).run(stream));
            case "lean" -> fingerprint(stream.workload(),
                    WorkloadRunner.forWorkload(stream.workload()).withIdleRelease().run(stream));
            case "threads" -> fingerprint(stream.workload(),
                    RuntimeWorkloadRunner.forWorkload(stream.workload(), shards).run(stream));
            case "engine" -> runEngine(stream, Workloads.pattern(stream.workload()));
            case "traced1" -> runEngine(stream, stream.events(), BenchEvent::key, Workloads.pattern(stream.workload()),
                    1, false);
            case "tracedAll" -> runEngine(stream, stream.events(), BenchEvent::key,
                    Workloads.pattern(stream.workload()), stream.workload().keys(), false);
            case "counted" -> runEngine(stream, stream.events(), BenchEvent::key, Workloads.pattern(stream.workload()),
                    0, true);
            case "rule" -> runEngine(stream, rule(stream.workload()).compile(BenchEvent.class));
            case "map" -> runMaps(stream, mapEvents);
            case "floor" -> runFloor(stream);
            case "sorted" -> runSorted(stream.workload(), sortedKeys, sortedTimes, sortedEvents);
            case "rules" -> {
                long[] r = ManyRulesBench.run(stream, manyRules, stream.size());
                yield fingerprint(r[0], 0, r[1]);
            }
            default -> {
                long[] r = WindowBench.run(windowEvents, w -> w.aggregate(new WindowBench.CountSum()), assigner);
                yield "results=" + r[1] + ",checksum=" + r[2];
            }
        };
    }

    /** @return the fingerprint every workload spec prints: timeouts only where the workload counts them */
    private static String fingerprint(Workload workload, io.cepheus.benchmarks.workloads.RunResult r) {
        return fingerprint(r.matches(), workload.countsTimeouts() ? r.timeouts() : 0, r.checksum());
    }

    private static String fingerprint(long matches, long timeouts, long checksum) {
        return String.format(Locale.ROOT, "matches=%d,timeouts=%d,checksum=%x", matches, timeouts, checksum);
    }

    /** @return the positions of the stream's events, by key and within a key in stream order (a counting sort) */
    private static int[] positionsByKey(WorkloadStream stream) {
        int[] keys = stream.keys();
        int[] start = new int[stream.workload().keys() + 1];
        for (int key : keys) {
            start[key + 1]++;
        }
        for (int k = 0; k + 1 < start.length; k++) {
            start[k + 1] += start[k];
        }
        int[] order = new int[keys.length];
        for (int i = 0; i < keys.length; i++) {
            order[start[keys[i]]++] = i;
        }
        return order;
    }

    /**
     * The bare NFA as {@link WorkloadRunner} drives it (a state per key in an hppc map, {@code process} per event,
     * {@code Long.MAX_VALUE} to every key at the end), over the stream's events copied in key order. Each key sees
     * its own events in stream order and only its own events advance its time, so the results are the stream's. The
     * loop repeats {@link WorkloadRunner}'s instead of adding an ordering option to it, because this class runs
     * against older builds' jars too and may use only what they have (see the class comment).
     */
    private static String runSorted(Workload workload, int[] keys, long[] timestamps, BenchEvent[] events) {
        NfaMatcher<BenchEvent> matcher = NfaCompiler.compile(Workloads.pattern(workload)).newMatcher();
        CountingSink sink = new CountingSink(workload.countsTimeouts());
        IntObjectHashMap<NfaState> states = new IntObjectHashMap<>(workload.keys());
        for (int i = 0; i < events.length; i++) {
            int slot = states.indexOf(keys[i]);
            NfaState state;
            if (states.indexExists(slot)) {
                state = states.indexGet(slot);
            } else {
                state = matcher.newState(keys[i]);
                states.indexInsert(slot, keys[i], state);
            }
            matcher.process(state, events[i], timestamps[i], sink);
        }
        for (ObjectCursor<NfaState> cursor : states.values()) {
            matcher.advanceTime(cursor.value, Long.MAX_VALUE, sink);
        }
        return fingerprint(workload, sink.result());
    }

    /** @return the workload's pattern written as a rule file ({@code rules/wN.json} in this jar) */
    static io.cepheus.rules.Rule rule(Workload workload) {
        String resource = "/rules/" + workload.name().toLowerCase(Locale.ROOT) + ".json";
        try (java.io.InputStream in = PairedBuildRun.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the benchmarks jar lacks " + resource);
            }
            return io.cepheus.rules.Rules.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static java.util.Map<String, Object>[] asMaps(BenchEvent[] events) {
        java.util.Map<String, Object>[] out = new java.util.Map[events.length];
        for (int i = 0; i < events.length; i++) {
            java.util.Map<String, Object> m = new java.util.HashMap<>();
            m.put("key", (long) events[i].key());
            m.put("type", String.valueOf(events[i].type()));
            m.put("value", (long) events[i].value());
            m.put("ts", events[i].ts());
            out[i] = m;
        }
        return out;
    }

    /**
     * The engine as {@link #runEngine} runs it, on map events (what the command line makes of CSV rows and JSON
     * Lines) with the workload's rule compiled for maps: the same matches, each map's fields read per condition.
     */
    private static String runMaps(WorkloadStream stream, java.util.Map<String, Object>[] events) {
        return runEngine(stream, events, m -> m.get("key"), rule(stream.workload()).compileForMaps());
    }

    private static String runEngine(WorkloadStream stream, io.cepheus.pattern.Pattern<BenchEvent> pattern) {
        return runEngine(stream, stream.events(), BenchEvent::key, pattern);
    }

    private static <E> String runEngine(WorkloadStream stream, E[] events,
            java.util.function.Function<? super E, ?> key, io.cepheus.pattern.Pattern<E> pattern) {
        return runEngine(stream, events, key, pattern, 0, false);
    }

    /**
     * The engine on one shard under its test harness: a watermark and a batch every 1,000 events; with
     * {@code tracedKeys} above 0, keys 0 to {@code tracedKeys - 1} are traced from the start, each trace keeping its
     * latest 64 entries ({@code traced1}, {@code tracedAll}: builds with key traces only); with {@code stageCounters}
     * the matchers count per stage ({@code counted}).
     */
    private static <E> String runEngine(WorkloadStream stream, E[] events,
            java.util.function.Function<? super E, ?> key, io.cepheus.pattern.Pattern<E> pattern, int tracedKeys,
            boolean stageCounters) {
        Workload workload = stream.workload();
        long[] tally = new long[3];
        CepEngine.Builder<E> builder = CepEngine.<E>builder().shards(1);
        if (stageCounters) {
            builder.nfaOptions(io.cepheus.nfa.NfaOptions.defaults().withStageCounters(true));
        }
        CepEngine<E> engine = builder.build();
        PatternStream<E> patterns = engine.keyBy(key).pattern(pattern);
        patterns.select((k, match, ts) -> {
            tally[0]++;
            tally[1] += MatchChecksum.mix(match.firstTimestamp(), match.lastTimestamp());
        });
        if (workload.countsTimeouts()) {
            patterns.timeouts((k, partialMatch, ts) -> tally[2]++);
        }
        Producer<E> producer = engine.newProducer();
        CepTestHarness<E> harness = CepTestHarness.start(engine);
        for (int k = 0; k < tracedKeys; k++) {
            patterns.startTrace(k, 64);
            if (k % 1_000 == 999) {
                harness.runUntilIdle();
            }
        }
        long[] timestamps = stream.timestamps();
        for (int i = 0; i < events.length; i++) {
            producer.send(events[i], timestamps[i]);
            if ((i + 1) % 1_000 == 0) {
                producer.watermark(timestamps[i] - 1);
                harness.runUntilIdle();
            }
        }
        producer.watermark(Long.MAX_VALUE);
        harness.runUntilIdle();
        harness.close();
        return fingerprint(tally[0], tally[2], tally[1]);
    }

    /**
     * The floor under the engine's cost per event on one shard: the work the engine's design requires of every event
     * besides matching it, done as cheaply as this class can do it, with nothing else. Each event goes through a
     * JCTools {@code MpscArrayQueue} of the engine's inbox capacity ({@code offer}, then {@code relaxedPoll} every
     * 1,000 events, where the engine's watermark is), gets a dense key id from a table indexed by its key (handed
     * out from a free list, given back once the key has nothing buffered), and waits in a FIFO event-time buffer
     * (parallel arrays of timestamp, key id and event) until the batch is released in order. Nothing checks
     * lateness or order, calls a key selector or boxes a key, and no NFA runs: the engine does all of that on top.
     * So {@code floor} plus {@code lean} (the NFA's own work on the keys the engine keeps) is a lower bound for
     * {@code engine}, and set against {@code bare} it shows how much of the engine's 30% budget over the bare NFA
     * this work alone uses up on this machine.
     *
     * @return {@code events=<released>,ids=<key ids still out at the end>,checksum=<sum of timestamp and value
     *         over released events, hex>}
     */
    private static String runFloor(WorkloadStream stream) {
        BenchEvent[] events = stream.events();
        org.jctools.queues.MpscArrayQueue<BenchEvent> inbox = new org.jctools.queues.MpscArrayQueue<>(65_536);
        int keys = stream.workload().keys();
        int[] idPlusOne = new int[keys]; // by key; 0: no id
        int[] keyOfId = new int[keys];
        int[] bufferedOf = new int[keys]; // by key id
        int[] freeIds = new int[keys];
        int free = 0;
        int nextId = 0;
        long[] bufferedTime = new long[1_024];
        int[] bufferedId = new int[1_024];
        Object[] buffered = new Object[1_024];
        long released = 0;
        long checksum = 0;
        for (int i = 0; i < events.length; i++) {
            inbox.offer(events[i]);
            if ((i + 1) % 1_000 != 0 && i + 1 != events.length) {
                continue;
            }
            int n = 0;
            for (BenchEvent e = inbox.relaxedPoll(); e != null; e = inbox.relaxedPoll()) {
                int id = idPlusOne[e.key()] - 1;
                if (id < 0) {
                    id = free > 0 ? freeIds[--free] : nextId++;
                    idPlusOne[e.key()] = id + 1;
                    keyOfId[id] = e.key();
                }
                bufferedOf[id]++;
                bufferedTime[n] = e.ts();
                bufferedId[n] = id;
                buffered[n++] = e;
            }
            for (int j = 0; j < n; j++) {
                int id = bufferedId[j];
                BenchEvent e = (BenchEvent) buffered[j];
                buffered[j] = null;
                released++;
                checksum += bufferedTime[j] + e.value();
                if (--bufferedOf[id] == 0) {
                    idPlusOne[keyOfId[id]] = 0;
                    freeIds[free++] = id;
                }
            }
        }
        return String.format(Locale.ROOT, "events=%d,ids=%d,checksum=%x", released, nextId - free, checksum);
    }
}
