package io.cepheus.nfa;

import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Settings of an {@link NfaMatcher}.
 *
 * @param maxPartialMatchesPerKey bound on what one key keeps between events: its live partial matches plus the
 *                                completed matches a skip strategy holds back (both keep their events in
 *                                memory), so that one hot key cannot exhaust the heap; see {@link OverflowPolicy}
 *                                for exactly what is counted and when
 * @param overflowPolicy          what happens when the bound is hit
 * @param processingTime          the clock iterative conditions read as {@code currentProcessingTime()}
 */
public record NfaOptions(int maxPartialMatchesPerKey, OverflowPolicy overflowPolicy, LongSupplier processingTime) {

    /** The default bound: generous for real patterns, small enough that one hot key cannot eat the heap. */
    public static final int DEFAULT_MAX_PARTIAL_MATCHES_PER_KEY = 100_000;

    /**
     * Validates the settings.
     *
     * @param maxPartialMatchesPerKey bound on what one key keeps between events: its live partial matches plus the
     *                                completed matches a skip strategy holds back (both keep their events in memory),
     *                                so that one hot key cannot exhaust the heap; see {@link OverflowPolicy} for
     *                                exactly what is counted and when
     * @param overflowPolicy          what happens when the bound is hit
     * @param processingTime          the clock iterative conditions read as {@code currentProcessingTime()}
     */
    public NfaOptions {
        if (maxPartialMatchesPerKey < 1) {
            throw new IllegalArgumentException("maxPartialMatchesPerKey must be at least 1, was "
                    + maxPartialMatchesPerKey);
        }
        Objects.requireNonNull(overflowPolicy, "overflowPolicy");
        Objects.requireNonNull(processingTime, "processingTime");
    }

    /** @return the defaults: 100,000 partial matches per key, reject new ones beyond, system clock */
    public static NfaOptions defaults() {
        return new NfaOptions(DEFAULT_MAX_PARTIAL_MATCHES_PER_KEY, OverflowPolicy.REJECT_NEW,
                io.cepheus.nfa.internal.SystemClock::millis);
    }

    /**
     * @param max the bound
     * @return these options with another bound
     */
    public NfaOptions withMaxPartialMatchesPerKey(int max) {
        return new NfaOptions(max, overflowPolicy, processingTime);
    }

    /**
     * @param policy the policy
     * @return these options with another overflow policy
     */
    public NfaOptions withOverflowPolicy(OverflowPolicy policy) {
        return new NfaOptions(maxPartialMatchesPerKey, policy, processingTime);
    }

    /**
     * @param clock milliseconds
     * @return these options with another processing-time clock
     */
    public NfaOptions withProcessingTime(LongSupplier clock) {
        return new NfaOptions(maxPartialMatchesPerKey, overflowPolicy, clock);
    }
}
