package io.cepheus.runtime.window;

/** What repeated firings of one window (early, on time, late) emit. */
public enum AccumulationMode {
    /** Each firing emits the full result so far (Flink's default). */
    ACCUMULATING,
    /** Each firing emits only what arrived since the previous one: the trigger is wrapped in {@link PurgingTrigger}. */
    DISCARDING,
    /**
     * As accumulating, but each re-firing first retracts what the window emitted before, and merging sessions
     * retract the results of the windows they replace: a downstream sum of results minus retractions stays
     * correct without deduplication. Not in Flink's DataStream API.
     */
    ACCUMULATING_AND_RETRACTING
}
