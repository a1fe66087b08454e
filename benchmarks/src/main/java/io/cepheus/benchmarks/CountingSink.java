package io.cepheus.benchmarks;

import io.cepheus.nfa.Match;
import io.cepheus.nfa.MatchSink;

/**
 * Counts matches and timeouts and accumulates the {@link MatchChecksum}. It reads only the two timestamps of
 * a match, so the sink adds no allocation of its own to the measurement.
 */
final class CountingSink implements MatchSink<BenchEvent> {

    private long matches;
    private long timeouts;
    private long checksum;

    @Override
    public void onMatch(Match<BenchEvent> match) {
        matches++;
        checksum += MatchChecksum.mix(match.firstTimestamp(), match.lastTimestamp());
    }

    @Override
    public void onTimeout(Match<BenchEvent> partialMatch, long timeoutTimestamp) {
        timeouts++;
    }

    RunResult result() {
        return new RunResult(matches, timeouts, checksum);
    }
}
