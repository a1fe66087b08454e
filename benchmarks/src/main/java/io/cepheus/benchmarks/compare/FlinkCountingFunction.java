package io.cepheus.benchmarks.compare;

import io.cepheus.benchmarks.workloads.BenchEvent;
import io.cepheus.benchmarks.workloads.MatchChecksum;
import io.cepheus.benchmarks.workloads.RunResult;
import java.util.List;
import java.util.Map;
import org.apache.flink.cep.functions.PatternProcessFunction;
import org.apache.flink.cep.functions.TimedOutPartialMatchHandler;
import org.apache.flink.util.Collector;

/**
 * The Flink side's match handler: counts matches and accumulates the {@link MatchChecksum} over each match's
 * first and last event time, emitting nothing (as Cepheus's {@code CountingSink} does), so the operator test
 * harness does not copy output records and the measurement is the operator's. A match's first and last times
 * are the smallest and largest over all its events (a Flink match is a map of stage name to events).
 *
 * <p>{@link WithTimeouts} also implements {@link TimedOutPartialMatchHandler}: Flink's CEP operator
 * materialises timed-out partial matches only when the function does, so it is used exactly for the workloads
 * whose timeouts are counted (W4), mirroring {@code CountingSink.wantsTimeouts()}.
 *
 * <p>Called on the thread that drives the operator harness (the harness thread).
 */
class FlinkCountingFunction extends PatternProcessFunction<BenchEvent, Void> {

    private static final long serialVersionUID = 1L;

    private long matches;
    private long timeouts;
    private long checksum;

    /**
     * @param countTimeouts whether timed-out partial matches are handled (and counted)
     * @return a function that counts matches, and timeouts if asked
     */
    static FlinkCountingFunction create(boolean countTimeouts) {
        return countTimeouts ? new WithTimeouts() : new FlinkCountingFunction();
    }

    @Override
    public void processMatch(Map<String, List<BenchEvent>> match, Context ctx, Collector<Void> out) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (List<BenchEvent> events : match.values()) {
            for (int i = 0; i < events.size(); i++) {
                long ts = events.get(i).ts();
                first = Math.min(first, ts);
                last = Math.max(last, ts);
            }
        }
        matches++;
        checksum += MatchChecksum.mix(first, last);
    }

    /** @return what was counted so far */
    RunResult result() {
        return new RunResult(matches, timeouts, checksum);
    }

    /** Also counts timed-out partial matches. */
    static final class WithTimeouts extends FlinkCountingFunction implements TimedOutPartialMatchHandler<BenchEvent> {

        private static final long serialVersionUID = 1L;

        @Override
        public void processTimedOutMatch(Map<String, List<BenchEvent>> match, Context ctx) {
            countTimeout();
        }
    }

    final void countTimeout() {
        timeouts++;
    }
}
