package io.cepheus.benchmarks;

import io.cepheus.benchmarks.workloads.BenchEvent;
import io.cepheus.benchmarks.workloads.ManyRulesWorkload;
import io.cepheus.benchmarks.workloads.MatchChecksum;
import io.cepheus.pattern.Pattern;
import io.cepheus.rules.Rules;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.ShardMetrics;
import io.cepheus.runtime.rules.RetirePolicy;
import io.cepheus.runtime.rules.RuleChange;
import io.cepheus.runtime.rules.RuleMetrics;
import io.cepheus.runtime.rules.RuleStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Rules replaced in a running engine that holds many rules over many live keys: how long a change takes to be in
 * force on every shard, and how long it holds up the matches of the other rules.
 *
 * <p>The rules are W5's ({@code WORKLOADS.md}): rule {@code r} of R is {@code a where type == 'A' && value == V},
 * {@code followedBy b where type == 'B' && value >= V}, with {@code V = r * 1000 / R}, written as JSON rule files,
 * parsed and compiled, here with a one-hour window so that no partial match expires during the run. First every key
 * receives one A (a partial match of one rule each, so that every key is live), unpaced; then a producer sends a
 * steady stream at a fixed rate (A 45%, B 10%, X 45% on random keys, a watermark every {@code --watermark-every}
 * events; the producer parks between events rather than spinning, so that it leaves the cores to the shards) while another thread replaces one random rule at a time by a new version of it (DRAIN and DISCARD in turn),
 * each change compiled from its JSON before the clock starts.
 *
 * <p>Measured: per change, the time from {@code put} to its future's completion (every shard has applied it); for
 * every match, the time from the scheduled send of its B to the match handler, outside changes and in the second after
 * each. Before it reports a time the run checks its results against a reference computed from the same events and
 * the changes' cuts ({@link RuleChange#eventsBefore}): matches, their checksum, the partial matches discarded and
 * those left at the end (timed out by the final watermark). A run that differs reports no time (exit status 1).
 *
 * <pre>
 * java -Xms6g -Xmx6g -cp benchmarks/target/benchmarks.jar io.cepheus.benchmarks.RuleChangeUnderLoad \
 *      [--rules 1000] [--keys 1000000] [--shards 2] [--rate 20000] [--seconds 30] [--changes 20] \
 *      [--watermark-every 100] [--seed 42]
 * </pre>
 */
public final class RuleChangeUnderLoad {

    private static final long HOUR_MS = 3_600_000;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /** How long before an event's time the producer stops parking and spins (parking overshoots by ~50-100 µs). */
    private static final long PARK_AHEAD_NANOS = 150_000;

    private RuleChangeUnderLoad() {
    }

    /** @param args see the class comment */
    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args);
        System.out.printf(Locale.ROOT, "RuleChangeUnderLoad: %,d rules, %,d keys, %d shards, %,d events/s for %d s,"
                        + " %d changes, a watermark every %d events, seed %d; %d processors, %s %s, max heap %,d MB%n",
                o.rules, o.keys, o.shards, o.rate, o.seconds, o.changes, o.watermarkEvery, o.seed,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"),
                System.getProperty("java.version"), Runtime.getRuntime().maxMemory() >> 20);
        System.exit(run(o) ? 0 : 1);
    }

    private static boolean run(Options o) throws Exception {
        // the rules, from their JSON text
        long t = StopwatchClock.nanos();
        List<Pattern<BenchEvent>> patterns = new ArrayList<>(o.rules);
        for (int r = 0; r < o.rules; r++) {
            patterns.add(Rules.parse(ManyRulesWorkload.ruleJson(r, o.rules, 1, HOUR_MS)).compile(BenchEvent.class));
        }
        double compileMs = (StopwatchClock.nanos() - t) / 1e6;

        // the events: every key's A (the fill), then the steady stream
        SplittableRandom rng = new SplittableRandom(o.seed);
        int fill = o.keys;
        int steady = Math.toIntExact(o.rate * o.seconds);
        BenchEvent[] events = new BenchEvent[fill + steady];
        int[] order = permutation(o.keys, rng);
        for (int i = 0; i < fill; i++) {
            events[i] = new BenchEvent(order[i], 'A', rng.nextInt(1000), i);
        }
        for (int i = fill; i < events.length; i++) {
            double u = rng.nextDouble();
            char type = u < 0.45 ? 'A' : u < 0.55 ? 'B' : 'X';
            events[i] = new BenchEvent(rng.nextInt(o.keys), type, rng.nextInt(1000), i);
        }

        MatchLog log = new MatchLog();
        long[] dueNanos = new long[events.length];
        CepEngine<BenchEvent> engine = CepEngine.<BenchEvent>builder().shards(o.shards).build();
        RuleStream<BenchEvent> rules = engine.keyBy(BenchEvent::key).rules()
                .select((rule, key, match, ts) -> {
                    BenchEvent a = match.events("a").get(0);
                    BenchEvent b = match.events("b").get(0);
                    log.add(dueNanos[(int) b.ts()], StopwatchClock.nanos(), MatchChecksum.mix(a.ts(), b.ts()));
                });
        for (int r = 0; r < o.rules; r++) {
            rules.put(ruleId(r), 1, patterns.get(r));
        }
        Producer<BenchEvent> producer = engine.newProducer();
        engine.start();
        System.out.printf(Locale.ROOT, "rules: %,d parsed from JSON and compiled in %.0f ms%n", o.rules, compileMs);

        // fill: unpaced, then wait until every shard has matched it
        t = StopwatchClock.nanos();
        for (int i = 0; i < fill; i++) {
            producer.send(events[i], i);
            if ((i + 1) % 1_000 == 0) {
                producer.watermark(i);
            }
        }
        producer.watermark(fill - 1);
        awaitWatermark(engine, fill - 1);
        double fillSeconds = (StopwatchClock.nanos() - t) / 1e9;
        long liveKeys = liveKeys(engine);
        System.gc();
        long heapMb = (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20;
        System.out.printf(Locale.ROOT, "fill: %,d events (one A per key) in %.1f s, %,.0f events/s through %,d rules;"
                        + " live keys %,d, partial matches %,d; heap in use after a GC %,d MB%n", fill, fillSeconds,
                fill / fillSeconds, o.rules, liveKeys, partialMatches(rules), heapMb);

        // steady stream with changes
        Changer changer = new Changer(o, rules, engine);
        long start = StopwatchClock.nanos() + 10_000_000;
        changer.startAt(start);
        long maxLag = 0;
        for (int i = fill; i < events.length; i++) {
            long due = start + (long) (i - fill) * NANOS_PER_SECOND / o.rate;
            long now = StopwatchClock.nanos();
            // parked until just before its time, so that the producer leaves the cores to the shards
            while (due - now > PARK_AHEAD_NANOS) {
                LockSupport.parkNanos(due - now - PARK_AHEAD_NANOS);
                now = StopwatchClock.nanos();
            }
            while (now < due) {
                Thread.onSpinWait();
                now = StopwatchClock.nanos();
            }
            maxLag = Math.max(maxLag, now - due);
            dueNanos[i] = due; // published to the shard thread by the send
            producer.send(events[i], i);
            if ((i + 1) % o.watermarkEvery == 0) {
                producer.watermark(i);
            }
        }
        long end = StopwatchClock.nanos();
        producer.watermark(events.length - 1);
        awaitWatermark(engine, events.length - 1);
        long drained = StopwatchClock.nanos();
        changer.join();
        long liveAtEnd = liveKeys(engine);
        producer.close();
        engine.close();
        System.out.printf(Locale.ROOT, "steady: %,d events in %.1f s (%,.0f events/s; the producer was at most %.1f ms"
                        + " behind its schedule; the shards were done %.1f ms after the last send); live keys at the"
                        + " end %,d%n", steady, (end - start) / 1e9, steady * 1e9 / (end - start), maxLag / 1e6,
                (drained - end) / 1e6, liveAtEnd);

        // check, then report
        Reference expected = Reference.of(events, o, changer.changes());
        long discarded = 0;
        long timeouts = 0;
        for (RuleMetrics m : rules.metrics()) {
            discarded += m.discardedPartialMatches();
            timeouts += m.timeouts();
        }
        boolean agree = expected.matches == log.count() && expected.checksum == log.checksum()
                && expected.discarded == discarded && expected.leftAtEnd == timeouts;
        System.out.printf(Locale.ROOT, "check: matches %,d (reference %,d), checksum %016x (%016x), discarded %,d (%,d),"
                        + " timed out at the end %,d (%,d): %s%n", log.count(), expected.matches, log.checksum(),
                expected.checksum, discarded, expected.discarded, timeouts, expected.leftAtEnd,
                agree ? "equal" : "DIFFERENT, no times reported");
        if (!agree) {
            return false;
        }
        changer.report();
        log.report(changer.changeStarts());
        return true;
    }

    static String ruleId(int r) {
        return "w5-" + r;
    }

    static int thresholdOf(int r, int rules) {
        return r * 1000 / rules;
    }

    private static int[] permutation(int n, SplittableRandom rng) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int x = p[i];
            p[i] = p[j];
            p[j] = x;
        }
        return p;
    }

    private static void awaitWatermark(CepEngine<BenchEvent> engine, long watermark) {
        while (true) {
            boolean done = true;
            for (ShardMetrics s : engine.metrics().shards()) {
                done &= s.watermark() >= watermark && s.queueDepth() == 0;
            }
            if (done) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    private static long liveKeys(CepEngine<BenchEvent> engine) {
        long keys = 0;
        for (ShardMetrics s : engine.metrics().shards()) {
            keys += s.keys();
        }
        return keys;
    }

    private static long partialMatches(RuleStream<BenchEvent> rules) {
        long n = 0;
        for (RuleMetrics m : rules.metrics()) {
            n += m.partialMatches();
        }
        return n;
    }

    /** The thread that replaces rules at set times during the steady stream. */
    private static final class Changer {
        private final Options o;
        private final RuleStream<BenchEvent> rules;
        private final CepEngine<BenchEvent> engine;
        private final int[] versions;
        private final long[] startNanos;
        private final long[] doneNanos;
        private final long[] compileNanos;
        private final long[] liveKeys;
        private final RetirePolicy[] policies;
        private final int[] changedRules;
        private final List<CompletableFuture<RuleChange>> futures = new ArrayList<>();
        private Thread thread;

        Changer(Options o, RuleStream<BenchEvent> rules, CepEngine<BenchEvent> engine) {
            this.o = o;
            this.rules = rules;
            this.engine = engine;
            this.versions = new int[o.rules];
            Arrays.fill(versions, 1);
            this.startNanos = new long[o.changes];
            this.doneNanos = new long[o.changes];
            this.compileNanos = new long[o.changes];
            this.liveKeys = new long[o.changes];
            this.policies = new RetirePolicy[o.changes];
            this.changedRules = new int[o.changes];
        }

        void startAt(long steadyStart) {
            thread = new Thread(() -> changeAll(steadyStart), "rule-changer");
            thread.start();
        }

        /** The changes come evenly spread over the steady stream's middle, after its first fifth. */
        private void changeAll(long steadyStart) {
            SplittableRandom rng = new SplittableRandom(o.seed ^ 0x5DEECE66DL);
            long first = steadyStart + o.seconds * NANOS_PER_SECOND / 5;
            long every = o.seconds * NANOS_PER_SECOND * 3 / 5 / Math.max(1, o.changes);
            for (int j = 0; j < o.changes; j++) {
                int r = rng.nextInt(o.rules);
                int version = ++versions[r];
                long c = StopwatchClock.nanos();
                Pattern<BenchEvent> next = Rules.parse(ManyRulesWorkload.ruleJson(r, o.rules, version, HOUR_MS))
                        .compile(BenchEvent.class);
                compileNanos[j] = StopwatchClock.nanos() - c;
                long at = first + j * every;
                while (StopwatchClock.nanos() < at) {
                    LockSupport.parkNanos(Math.max(1, Math.min(1_000_000, at - StopwatchClock.nanos())));
                }
                liveKeys[j] = liveKeys(engine);
                policies[j] = j % 2 == 0 ? RetirePolicy.DRAIN : RetirePolicy.DISCARD;
                changedRules[j] = r;
                int change = j;
                startNanos[j] = StopwatchClock.nanos();
                futures.add(rules.put(ruleId(r), version, next, policies[j])
                        .whenComplete((done, failure) -> doneNanos[change] = StopwatchClock.nanos()));
            }
        }

        void join() throws InterruptedException {
            thread.join();
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).join();
        }

        /** @return each change's rule, version, policy and cut, in order */
        List<Reference.Change> changes() {
            List<Reference.Change> out = new ArrayList<>();
            for (int j = 0; j < futures.size(); j++) {
                RuleChange c = futures.get(j).join();
                out.add(new Reference.Change(changedRules[j], c.added().version(), c.policy(), c.eventsBefore(0)));
            }
            return out;
        }

        long[] changeStarts() {
            return startNanos;
        }

        void report() {
            long[] drain = new long[o.changes];
            long[] discard = new long[o.changes];
            int nd = 0;
            int nx = 0;
            long[] compile = compileNanos.clone();
            for (int j = 0; j < o.changes; j++) {
                long took = doneNanos[j] - startNanos[j];
                if (policies[j] == RetirePolicy.DRAIN) {
                    drain[nd++] = took;
                } else {
                    discard[nx++] = took;
                }
            }
            long minLive = Arrays.stream(liveKeys).min().orElse(0);
            long maxLive = Arrays.stream(liveKeys).max().orElse(0);
            System.out.printf(Locale.ROOT, "changes: %d, with %,d to %,d live keys; the new version parsed and"
                            + " compiled in %s ms (median, max)%n", o.changes, minLive, maxLive, medianMax(compile,
                    compile.length));
            System.out.printf(Locale.ROOT, "  put -> in force on every shard, DRAIN: %s ms; DISCARD: %s ms"
                    + " (median, max)%n", medianMax(drain, nd), medianMax(discard, nx));
        }
    }

    static String medianMax(long[] nanos, int n) {
        if (n == 0) {
            return "-";
        }
        long[] s = Arrays.copyOf(nanos, n);
        Arrays.sort(s);
        return String.format(Locale.ROOT, "%.2f, %.2f", s[n / 2] / 1e6, s[n - 1] / 1e6);
    }

    /** Every match's due time, handler time and checksum term, from the shard threads. */
    private static final class MatchLog {
        private final List<long[]> chunks = new ArrayList<>();
        private final ThreadLocal<long[][]> current = new ThreadLocal<>();
        private final ThreadLocal<int[]> fill = ThreadLocal.withInitial(() -> new int[1]);

        void add(long due, long now, long term) {
            long[][] c = current.get();
            int[] n = fill.get();
            if (c == null || n[0] == c[0].length / 3) {
                c = new long[][] {new long[3 * 65_536]};
                synchronized (chunks) {
                    chunks.add(c[0]);
                }
                current.set(c);
                n[0] = 0;
            }
            int i = 3 * n[0]++;
            c[0][i] = due;
            c[0][i + 1] = now;
            c[0][i + 2] = term;
        }

        private List<long[]> entries() {
            List<long[]> out = new ArrayList<>();
            synchronized (chunks) {
                for (long[] chunk : chunks) {
                    for (int i = 0; i + 2 < chunk.length && chunk[i + 1] != 0; i += 3) {
                        out.add(new long[] {chunk[i], chunk[i + 1], chunk[i + 2]});
                    }
                }
            }
            return out;
        }

        long count() {
            return entries().size();
        }

        long checksum() {
            long sum = 0;
            for (long[] e : entries()) {
                sum += e[2];
            }
            return sum;
        }

        /** Latencies of the matches completed by the steady stream, outside changes and in the second after one. */
        void report(long[] changeStarts) {
            long[] outside = new long[0];
            long[] near = new long[0];
            int no = 0;
            int nn = 0;
            for (long[] e : entries()) {
                if (e[0] == 0) {
                    continue; // completed during the fill: no due time
                }
                long latency = e[1] - e[0];
                boolean afterChange = false;
                for (long s : changeStarts) {
                    afterChange |= e[0] >= s - 100_000_000 && e[0] < s + NANOS_PER_SECOND;
                }
                if (afterChange) {
                    near = nn == near.length ? Arrays.copyOf(near, Math.max(16, nn * 2)) : near;
                    near[nn++] = latency;
                } else {
                    outside = no == outside.length ? Arrays.copyOf(outside, Math.max(16, no * 2)) : outside;
                    outside[no++] = latency;
                }
            }
            System.out.printf(Locale.ROOT, "match latency (scheduled send of the B -> handler), every rule:%n");
            System.out.printf(Locale.ROOT, "  away from changes: %,d matches, %s%n", no, percentiles(outside, no));
            System.out.printf(Locale.ROOT, "  from 100 ms before to 1 s after a change: %,d matches, %s%n", nn,
                    percentiles(near, nn));
        }

        private static String percentiles(long[] v, int n) {
            if (n == 0) {
                return "-";
            }
            long[] s = Arrays.copyOf(v, n);
            Arrays.sort(s);
            return String.format(Locale.ROOT, "p50 %.2f ms, p99 %.2f ms, max %.2f ms", s[n / 2] / 1e6,
                    s[Math.min(n - 1, (int) (n * 0.99))] / 1e6, s[n - 1] / 1e6);
        }
    }

    /**
     * What the run must give, computed from the events in order: per key, the partial matches open (their rule, the
     * version that started them and the A's time); an A opens one in the rule of its value's version in force, a B
     * completes every open one whose threshold it reaches. A change cuts the stream at its position: a discarded
     * version's open partial matches are dropped there, a drained one's go on.
     */
    static final class Reference {
        record Change(int rule, int version, RetirePolicy policy, long position) {
        }

        long matches;
        long checksum;
        long discarded;
        long leftAtEnd;

        static Reference of(BenchEvent[] events, Options o, List<Change> changes) {
            Reference ref = new Reference();
            int[] ruleOfValue = new int[1000];
            Arrays.fill(ruleOfValue, -1);
            for (int r = 0; r < o.rules; r++) {
                ruleOfValue[thresholdOf(r, o.rules)] = r;
            }
            int[] inForce = new int[o.rules];
            Arrays.fill(inForce, 1);
            // per key: open partial matches as (rule, version, a.ts) triples
            long[][] open = new long[o.keys][];
            int[] openCount = new int[o.keys];
            int next = 0;
            for (int i = 0; i <= events.length; i++) {
                while (next < changes.size() && changes.get(next).position() == i) {
                    Change c = changes.get(next++);
                    if (c.policy() == RetirePolicy.DISCARD) {
                        ref.discardAll(open, openCount, c.rule(), inForce[c.rule()]);
                    }
                    inForce[c.rule()] = c.version();
                }
                if (i == events.length) {
                    break;
                }
                BenchEvent e = events[i];
                int k = e.key();
                if (e.type() == 'A' && ruleOfValue[e.value()] >= 0) {
                    int r = ruleOfValue[e.value()];
                    if (open[k] == null || openCount[k] * 3 == open[k].length) {
                        open[k] = open[k] == null ? new long[3] : Arrays.copyOf(open[k], open[k].length * 2);
                    }
                    int at = 3 * openCount[k]++;
                    open[k][at] = r;
                    open[k][at + 1] = inForce[r];
                    open[k][at + 2] = e.ts();
                } else if (e.type() == 'B') {
                    int kept = 0;
                    for (int j = 0; j < openCount[k]; j++) {
                        long[] p = open[k];
                        if (e.value() >= thresholdOf((int) p[3 * j], o.rules)) {
                            ref.matches++;
                            ref.checksum += MatchChecksum.mix(p[3 * j + 2], e.ts());
                        } else {
                            System.arraycopy(p, 3 * j, p, 3 * kept++, 3);
                        }
                    }
                    openCount[k] = kept;
                }
            }
            for (int c : openCount) {
                ref.leftAtEnd += c;
            }
            return ref;
        }

        private void discardAll(long[][] open, int[] openCount, int rule, int version) {
            for (int k = 0; k < open.length; k++) {
                int kept = 0;
                for (int j = 0; j < openCount[k]; j++) {
                    long[] p = open[k];
                    if (p[3 * j] == rule && p[3 * j + 1] == version) {
                        discarded++;
                    } else {
                        System.arraycopy(p, 3 * j, p, 3 * kept++, 3);
                    }
                }
                openCount[k] = kept;
            }
        }
    }

    /** Command-line options. */
    static final class Options {
        int rules = 1_000;
        int keys = 1_000_000;
        int shards = 2;
        long rate = 20_000;
        long seconds = 30;
        int changes = 20;
        int watermarkEvery = 100;
        long seed = 42;

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String value = i + 1 < args.length ? args[i + 1] : null;
                if (value == null) {
                    throw new IllegalArgumentException(args[i] + " needs a value");
                }
                switch (args[i++]) {
                    case "--rules" -> o.rules = Integer.parseInt(value);
                    case "--keys" -> o.keys = Integer.parseInt(value);
                    case "--shards" -> o.shards = Integer.parseInt(value);
                    case "--rate" -> o.rate = Long.parseLong(value);
                    case "--seconds" -> o.seconds = Long.parseLong(value);
                    case "--changes" -> o.changes = Integer.parseInt(value);
                    case "--watermark-every" -> o.watermarkEvery = Integer.parseInt(value);
                    case "--seed" -> o.seed = Long.parseLong(value);
                    default -> throw new IllegalArgumentException("unknown option " + args[i - 1]
                            + "; see the class comment of RuleChangeUnderLoad");
                }
            }
            if (o.rules < 1 || o.rules > 1000 || o.keys < 1 || o.rate < 1 || o.seconds < 1 || o.watermarkEvery < 1) {
                throw new IllegalArgumentException("need 1 <= rules <= 1000 and keys, rate, seconds,"
                        + " watermark-every >= 1");
            }
            return o;
        }
    }
}
