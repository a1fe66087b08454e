package io.cepheus.benchmarks.workloads;

import io.cepheus.nfa.Match;
import io.cepheus.nfa.MatchSink;

/**
 * Counts matches and timeouts and accumulates the {@link MatchChecksum}. It reads only the two timestamps of
 * a match, so the sink adds no allocation of its own to the measurement. For workloads whose timeouts are
 * not counted it declines them ({@link #wantsTimeouts()}), as a Flink job without a timeout handler does,
 * so timed-out partial matches are not materialised.
 */
public final class CountingSink implements MatchSink<BenchEvent> {

    private final boolean wantsTimeouts;
    private long matches;
    private long timeouts;
    private long checksum;

    @Override
    public void onMatch(Match<BenchEvent> match) {
        matches++;
        checksum += MatchChecksum.mix(match.firstTimestamp(), match.lastTimestamp());
    }

    public CountingSink(boolean wantsTimeouts) {
        this.wantsTimeouts = wantsTimeouts;
    }

    @Override
    public boolean wantsTimeouts() {
        return wantsTimeouts;
    }

    @Override
    public void onTimeout(Match<BenchEvent> partialMatch, long timeoutTimestamp) {
        timeouts++;
    }

    public RunResult result() {
        return new RunResult(matches, timeouts, checksum);
    }
}
