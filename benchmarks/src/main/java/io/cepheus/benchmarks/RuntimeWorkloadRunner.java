package io.cepheus.benchmarks;

import io.cepheus.benchmarks.workloads.*;
import io.cepheus.nfa.Match;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.PatternStream;
import io.cepheus.runtime.Producer;
import java.util.Objects;

/**
 * Runs a workload stream end to end through the runtime: a fresh {@link CepEngine} with a given number of
 * shards, one {@link Producer} driven by the calling thread, the workload's pattern on
 * {@code keyBy(BenchEvent::key)}, handlers counting on the shard threads.
 *
 * <p>Event time as WORKLOADS.md suggests: each event is sent with its timestamp, an explicit watermark
 * {@code ts - 1} follows every {@value #WATERMARK_INTERVAL} events, then {@code producer.close()} (its
 * watermark becomes {@code Long.MAX_VALUE}) and {@code engine.close()} drain and flush every shard. A run
 * therefore includes building the engine, starting and joining its threads and the final flush, as
 * {@link WorkloadRunner#run} includes creating its matcher and flushing every key.
 *
 * <p>Handlers run on the shard threads: each thread counts into its own {@link ThreadTally}, summed after
 * {@code engine.close()}. Timeouts are counted (and a timeout handler registered) only for the workloads
 * whose timeouts WORKLOADS.md states; a late event fails the run, since with strictly increasing timestamps
 * and watermarks {@code ts - 1} none may occur.
 */
public final class RuntimeWorkloadRunner {

    /** Events between two explicit watermarks, unless another interval is given. */
    public static final int WATERMARK_INTERVAL = 1_000;

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final Workload workload;
    private final Pattern<BenchEvent> pattern;
    private final int shards;
    private final int watermarkInterval;

    /**
     * @param workload          the workload (its pattern is built once and compiled by each engine)
     * @param shards            the engine's shard count, at least 1
     * @param watermarkInterval events between two explicit watermarks, at least 1
     */
    public RuntimeWorkloadRunner(Workload workload, int shards, int watermarkInterval) {
        this.workload = Objects.requireNonNull(workload, "workload");
        if (shards < 1) {
            throw new IllegalArgumentException("shards must be at least 1, was " + shards);
        }
        if (watermarkInterval < 1) {
            throw new IllegalArgumentException("watermarkInterval must be at least 1, was " + watermarkInterval);
        }
        this.pattern = Workloads.pattern(workload);
        this.shards = shards;
        this.watermarkInterval = watermarkInterval;
    }

    /**
     * @param workload the workload
     * @param shards   the engine's shard count
     * @return a runner with a watermark every {@value #WATERMARK_INTERVAL} events
     */
    public static RuntimeWorkloadRunner forWorkload(Workload workload, int shards) {
        return new RuntimeWorkloadRunner(workload, shards, WATERMARK_INTERVAL);
    }

    /** @return the engine's shard count */
    public int shards() {
        return shards;
    }

    /**
     * Sends the whole stream as fast as the engine takes it (blocking backpressure).
     *
     * @param stream the events of this runner's workload
     * @return the counts and checksum
     */
    public RunResult run(WorkloadStream stream) {
        checkStream(stream);
        PerThreadTallies tallies = new PerThreadTallies(0);
        CepEngine<BenchEvent> engine = newEngine(tallies, null, 0);
        Producer<BenchEvent> producer = engine.newProducer();
        long[] timestamps = stream.timestamps();
        BenchEvent[] events = stream.events();
        try (engine) {
            engine.start();
            for (int i = 0; i < events.length; i++) {
                producer.send(events[i], timestamps[i]);
                if ((i + 1) % watermarkInterval == 0) {
                    producer.watermark(timestamps[i] - 1);
                }
            }
            producer.close();
        }
        return checkedResult(tallies);
    }

    /**
     * Sends the stream at a steady rate and measures, for every match, the time from the send of its last
     * event to the match handler. Pacing busy-waits on {@link StopwatchClock} (no sleeping). A send's time is
     * the time it was <em>due</em> by the schedule, not when it happened: if the producer falls behind (a full
     * inbox, a descheduled thread), that delay counts as latency instead of being hidden ("coordinated
     * omission").
     *
     * @param stream         the events of this runner's workload
     * @param eventsPerSecond the target send rate
     * @return the counts, the latencies and how well the schedule was kept
     */
    public PacedRun runPaced(WorkloadStream stream, long eventsPerSecond) {
        checkStream(stream);
        if (eventsPerSecond < 1) {
            throw new IllegalArgumentException("eventsPerSecond must be at least 1, was " + eventsPerSecond);
        }
        long[] dueNanos = new long[stream.size()];
        // a thread never sees more matches than the whole run has; a surplus fails in ThreadTally, never hides
        PerThreadTallies tallies = new PerThreadTallies(Math.toIntExact(workload.expectedMatches()));
        CepEngine<BenchEvent> engine = newEngine(tallies, dueNanos, stream.timestamps()[0]);
        Producer<BenchEvent> producer = engine.newProducer();
        long[] timestamps = stream.timestamps();
        BenchEvent[] events = stream.events();
        long maxLagNanos = 0;
        long start;
        long end;
        try (engine) {
            engine.start();
            start = StopwatchClock.nanos();
            for (int i = 0; i < events.length; i++) {
                long due = start + i * NANOS_PER_SECOND / eventsPerSecond;
                long now = StopwatchClock.nanos();
                while (now < due) {
                    Thread.onSpinWait();
                    now = StopwatchClock.nanos();
                }
                maxLagNanos = Math.max(maxLagNanos, now - due);
                // written before the send: the inbox's release/acquire publishes it to the shard thread
                dueNanos[i] = due;
                producer.send(events[i], timestamps[i]);
                if ((i + 1) % watermarkInterval == 0) {
                    producer.watermark(timestamps[i] - 1);
                }
            }
            end = StopwatchClock.nanos();
            producer.close();
        }
        RunResult result = checkedResult(tallies);
        long[] latencies = tallies.latencies();
        if (latencies.length != result.matches()) {
            throw new IllegalStateException(latencies.length + " latencies for " + result.matches() + " matches");
        }
        double achieved = events.length * 1e9 / Math.max(1, end - start);
        return new PacedRun(result, eventsPerSecond, achieved, maxLagNanos, latencies);
    }

    /**
     * @param dueNanos   null for plain counting; else the due time of each event's send, by stream position, and
     *                   the match handler records {@code now - dueNanos[position of the match's last event]}
     * @param firstTs    the stream's first timestamp (positions are {@code (ts - firstTs) / stepMs})
     */
    private CepEngine<BenchEvent> newEngine(PerThreadTallies tallies, long[] dueNanos, long firstTs) {
        CepEngine<BenchEvent> engine = CepEngine.<BenchEvent>builder().shards(shards).build();
        PatternStream<BenchEvent> stream = engine.keyBy(BenchEvent::key).pattern(pattern);
        if (dueNanos == null) {
            stream.select((key, match, ts) -> count(tallies.current(), match));
        } else {
            long stepMs = workload.stepMs();
            stream.select((key, match, ts) -> {
                long now = StopwatchClock.nanos();
                ThreadTally tally = tallies.current();
                count(tally, match);
                // timestamps are FIRST + i * stepMs, unique per event: the last event's position from its time
                int position = (int) ((match.lastTimestamp() - firstTs) / stepMs);
                tally.recordLatency(now - dueNanos[position]);
            });
        }
        if (workload.countsTimeouts()) {
            stream.timeouts((key, partialMatch, ts) -> tallies.current().timeouts++);
        }
        stream.lateEvents((key, event, ts) -> tallies.current().lateEvents++);
        return engine;
    }

    private static void count(ThreadTally tally, Match<BenchEvent> match) {
        tally.matches++;
        tally.checksum += MatchChecksum.mix(match.firstTimestamp(), match.lastTimestamp());
    }

    private RunResult checkedResult(PerThreadTallies tallies) {
        long late = tallies.lateEvents();
        if (late != 0) {
            throw new IllegalStateException(workload + " through " + shards + " shard(s): " + late
                    + " late events, but timestamps strictly increase and every watermark is ts - 1");
        }
        return tallies.merged();
    }

    private void checkStream(WorkloadStream stream) {
        if (stream.workload() != workload) {
            throw new IllegalArgumentException("a " + workload + " runner was given a " + stream.workload()
                    + " stream");
        }
    }
}
