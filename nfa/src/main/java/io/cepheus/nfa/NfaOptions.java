package io.cepheus.nfa;

import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Settings of an {@link NfaMatcher}.
 *
 * <p>Two bounds keep one hot key from exhausting the heap. A key holds at most {@code maxPartialMatchesPerKey}
 * partial and held matches, and those keep at most {@link #bufferEntryBound()} shared-buffer entries alive (one
 * per event a partial match took; runs that share a prefix share its entries). Each entry holds one event, so a
 * key keeps at most that many events too. What happens when a step would go beyond either bound is the
 * {@link OverflowPolicy}'s choice.
 *
 * @param maxPartialMatchesPerKey bound on the partial matches one key keeps between events, plus the completed
 *                                matches a skip strategy holds back (both keep their events in memory); see
 *                                {@link OverflowPolicy} for exactly what is counted and when
 * @param maxBufferEntriesPerKey  bound on the shared-buffer entries those keep alive; 0 for
 *                                {@value #DEFAULT_ENTRIES_PER_PARTIAL_MATCH} times {@code maxPartialMatchesPerKey}
 *                                (see {@link #bufferEntryBound()})
 * @param overflowPolicy          what happens when a bound is hit
 * @param processingTime          the clock iterative conditions read as {@code currentProcessingTime()}
 * @param stageCounters           whether the matcher counts, per stage, the events tested and taken there and the
 *                                partial matches that ended or timed out there ({@link NfaMatcher#stageCounters()});
 *                                off by default, as counting costs a few percent on the cheapest patterns
 */
public record NfaOptions(int maxPartialMatchesPerKey, int maxBufferEntriesPerKey, OverflowPolicy overflowPolicy,
        LongSupplier processingTime, boolean stageCounters) {

    /** The default bound: generous for real patterns, small enough that one hot key cannot eat the heap. */
    public static final int DEFAULT_MAX_PARTIAL_MATCHES_PER_KEY = 100_000;

    /**
     * Entries per partial match the entry bound allows unless it is set: room for every partial match to hold ten
     * events of its own, more than patterns of a few stages need, while a looping stage that takes every event
     * ({@code oneOrMore().allowCombinations()}) is stopped long before the heap is.
     */
    public static final int DEFAULT_ENTRIES_PER_PARTIAL_MATCH = 10;

    /**
     * Validates the settings.
     *
     * @param maxPartialMatchesPerKey bound on the partial matches one key keeps between events, plus the completed
     *                                matches a skip strategy holds back; at least 1
     * @param maxBufferEntriesPerKey  bound on the shared-buffer entries those keep alive, at least 1; or 0 for
     *                                {@value #DEFAULT_ENTRIES_PER_PARTIAL_MATCH} times the partial-match bound
     * @param overflowPolicy          what happens when a bound is hit
     * @param processingTime          the clock iterative conditions read as {@code currentProcessingTime()}
     * @param stageCounters           whether the matcher counts per stage
     */
    public NfaOptions {
        if (maxPartialMatchesPerKey < 1) {
            throw new IllegalArgumentException("maxPartialMatchesPerKey must be at least 1, was "
                    + maxPartialMatchesPerKey);
        }
        if (maxBufferEntriesPerKey < 0) {
            throw new IllegalArgumentException("maxBufferEntriesPerKey must be at least 1 (or 0 for "
                    + DEFAULT_ENTRIES_PER_PARTIAL_MATCH + " per partial match), was " + maxBufferEntriesPerKey);
        }
        Objects.requireNonNull(overflowPolicy, "overflowPolicy");
        Objects.requireNonNull(processingTime, "processingTime");
    }

    /**
     * @return the defaults: 100,000 partial matches per key and ten times as many buffer entries, reject new
     *     ones beyond, system clock, no stage counters
     */
    public static NfaOptions defaults() {
        return new NfaOptions(DEFAULT_MAX_PARTIAL_MATCHES_PER_KEY, 0, OverflowPolicy.REJECT_NEW,
                io.cepheus.nfa.internal.SystemClock::millis, false);
    }

    /**
     * @return the bound on one key's shared-buffer entries in force: {@link #maxBufferEntriesPerKey()}, or if that
     *     is 0, {@value #DEFAULT_ENTRIES_PER_PARTIAL_MATCH} times {@link #maxPartialMatchesPerKey()}
     */
    public int bufferEntryBound() {
        return maxBufferEntriesPerKey > 0 ? maxBufferEntriesPerKey
                : (int) Math.min(Integer.MAX_VALUE, (long) DEFAULT_ENTRIES_PER_PARTIAL_MATCH * maxPartialMatchesPerKey);
    }

    /**
     * @param max the bound on partial and held matches per key (the entry bound follows it unless it was set)
     * @return these options with another bound
     */
    public NfaOptions withMaxPartialMatchesPerKey(int max) {
        return new NfaOptions(max, maxBufferEntriesPerKey, overflowPolicy, processingTime, stageCounters);
    }

    /**
     * @param max the bound on the shared-buffer entries one key keeps alive, at least 1
     * @return these options with another entry bound
     */
    public NfaOptions withMaxBufferEntriesPerKey(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("maxBufferEntriesPerKey must be at least 1, was " + max);
        }
        return new NfaOptions(maxPartialMatchesPerKey, max, overflowPolicy, processingTime, stageCounters);
    }

    /**
     * @param policy the policy
     * @return these options with another overflow policy
     */
    public NfaOptions withOverflowPolicy(OverflowPolicy policy) {
        return new NfaOptions(maxPartialMatchesPerKey, maxBufferEntriesPerKey, policy, processingTime, stageCounters);
    }

    /**
     * @param clock milliseconds
     * @return these options with another processing-time clock
     */
    public NfaOptions withProcessingTime(LongSupplier clock) {
        return new NfaOptions(maxPartialMatchesPerKey, maxBufferEntriesPerKey, overflowPolicy, clock, stageCounters);
    }

    /**
     * @param on whether to count per stage (see {@link NfaMatcher#stageCounters()})
     * @return these options with stage counters on or off
     */
    public NfaOptions withStageCounters(boolean on) {
        return new NfaOptions(maxPartialMatchesPerKey, maxBufferEntriesPerKey, overflowPolicy, processingTime, on);
    }
}
