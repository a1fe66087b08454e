package io.cepheus.benchmarks;

import io.cepheus.benchmarks.workloads.*;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * One {@link ThreadTally} per shard thread for the handlers of one engine run, merged once the engine is closed.
 * The engine calls a pattern's handlers on the shard thread of the match's key, so one handler instance runs
 * on several threads at once; counting into a shared atomic would make the shards contend on every match. A
 * {@link ThreadLocal} hands each thread its own tally instead (one map lookup per match, no sharing).
 *
 * <p>{@link #current()} is called from shard threads; {@link #merged()} and {@link #latencies()} only by the
 * benchmark thread after {@code CepEngine.close()} returned (which waits for every shard thread to finish, so
 * the tallies are complete and visible).
 */
final class PerThreadTallies {

    private final Queue<ThreadTally> all = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<ThreadTally> mine;

    /** @param latencyCapacity latency slots per thread: the run's match count when measuring latency, else 0 */
    PerThreadTallies(int latencyCapacity) {
        this.mine = ThreadLocal.withInitial(() -> {
            ThreadTally tally = new ThreadTally(latencyCapacity);
            all.add(tally); // once per thread and run, not per match
            return tally;
        });
    }

    /** @return the calling thread's tally */
    ThreadTally current() {
        return mine.get();
    }

    /** @return the sum over all threads' tallies */
    RunResult merged() {
        long matches = 0;
        long timeouts = 0;
        long checksum = 0;
        for (ThreadTally tally : all) {
            matches += tally.matches;
            timeouts += tally.timeouts;
            checksum += tally.checksum; // the checksum is a wrapping sum, so per-thread parts add up
        }
        return new RunResult(matches, timeouts, checksum);
    }

    /** @return late events over all threads */
    long lateEvents() {
        long late = 0;
        for (ThreadTally tally : all) {
            late += tally.lateEvents;
        }
        return late;
    }

    /** @return every recorded latency in nanoseconds, sorted ascending */
    long[] latencies() {
        int total = 0;
        for (ThreadTally tally : all) {
            total += tally.latencyCount();
        }
        long[] out = new long[total];
        int at = 0;
        for (ThreadTally tally : all) {
            System.arraycopy(tally.latencyNanos(), 0, out, at, tally.latencyCount());
            at += tally.latencyCount();
        }
        Arrays.sort(out);
        return out;
    }
}
