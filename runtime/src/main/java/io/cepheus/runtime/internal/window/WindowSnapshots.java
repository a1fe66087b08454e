package io.cepheus.runtime.internal.window;

/** Why window operators take no part in snapshots. */
public final class WindowSnapshots {

    /** The message of the rejection. */
    public static final String REASON = "window operators cannot be snapshotted: their state holds accumulators,"
            + " trigger state and process-function state of user types that have no codec";

    private WindowSnapshots() {
    }
}
