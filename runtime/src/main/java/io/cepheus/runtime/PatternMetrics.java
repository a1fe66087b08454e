package io.cepheus.runtime;

import io.cepheus.nfa.StageCounters;
import java.util.ArrayList;
import java.util.List;

/**
 * One pattern's counters: on one shard (in {@link ShardMetrics#patterns()}), or summed over the shards
 * ({@link PatternStream#metrics()}, {@link EngineMetrics#pattern(int)}). As published at the end of each shard's
 * latest batch, so they may trail by one batch.
 *
 * @param pattern                the pattern's id ({@link PatternStream#id()})
 * @param matches                matches emitted
 * @param timeouts               timed-out partial matches (counted whether or not a timeout handler is set)
 * @param partialMatches         live partial matches
 * @param rejectedPartialMatches partial matches (and completed matches a skip strategy would have held) dropped
 *                               because a key was at a bound ({@code NfaOptions.withMaxPartialMatchesPerKey} or
 *                               {@code withMaxBufferEntriesPerKey}, {@code OverflowPolicy.REJECT_NEW})
 * @param lateEvents             events that arrived behind the watermark (never matched)
 * @param deadLetters            events a condition threw on, or that broke the bound under
 *                               {@code OverflowPolicy.FAIL}
 * @param startedPartialMatches  partial matches begun, counted with the stage counters (0 without them); since the
 *                               engine started (not restored from a snapshot)
 * @param prunedPartialMatches   partial matches an after-match skip strategy discarded; since the engine started
 * @param stages                 per stage, in pattern order: events tested and taken there, partial matches an event
 *                               ended there and those that timed out there ({@link StageCounters}); since the engine
 *                               started; empty unless the engine's {@code NfaOptions.withStageCounters(true)}
 */
public record PatternMetrics(int pattern, long matches, long timeouts, long partialMatches,
        long rejectedPartialMatches, long lateEvents, long deadLetters, long startedPartialMatches,
        long prunedPartialMatches, List<StageCounters> stages) {

    /**
     * Copies the stages.
     *
     * @param pattern                the pattern's id
     * @param matches                matches emitted
     * @param timeouts               timed-out partial matches
     * @param partialMatches         live partial matches
     * @param rejectedPartialMatches partial matches dropped at a bound
     * @param lateEvents             events behind the watermark
     * @param deadLetters            dead letters
     * @param startedPartialMatches  partial matches begun
     * @param prunedPartialMatches   partial matches the skip strategy discarded
     * @param stages                 per-stage counters
     */
    public PatternMetrics {
        stages = List.copyOf(stages);
    }

    /**
     * @param other the same pattern's counters elsewhere (another shard)
     * @return the sums of both
     */
    PatternMetrics plus(PatternMetrics other) {
        return new PatternMetrics(pattern, matches + other.matches, timeouts + other.timeouts,
                partialMatches + other.partialMatches, rejectedPartialMatches + other.rejectedPartialMatches,
                lateEvents + other.lateEvents, deadLetters + other.deadLetters,
                startedPartialMatches + other.startedPartialMatches, prunedPartialMatches + other.prunedPartialMatches,
                sum(stages, other.stages));
    }

    /**
     * @param a one part's stage counters (empty: none yet)
     * @param b another's
     * @return their sums, stage by stage
     */
    static List<StageCounters> sum(List<StageCounters> a, List<StageCounters> b) {
        if (a.isEmpty()) {
            return b;
        }
        if (b.isEmpty()) {
            return a;
        }
        List<StageCounters> out = new ArrayList<>(a.size());
        for (int i = 0; i < a.size(); i++) {
            out.add(a.get(i).plus(b.get(i)));
        }
        return out;
    }
}
