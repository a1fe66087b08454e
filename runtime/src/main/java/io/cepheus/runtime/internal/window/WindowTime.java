package io.cepheus.runtime.internal.window;

import io.cepheus.runtime.time.Clock;

/**
 * The times a window operator's contexts report: its current watermark (set by the operator as watermarks
 * arrive) and processing time. Owned by the shard thread.
 */
final class WindowTime {

    private final Clock clock;
    private long watermark = Long.MIN_VALUE;

    WindowTime(Clock clock) {
        this.clock = clock;
    }

    long watermark() {
        return watermark;
    }

    /** @return whether the watermark advanced (a lower or equal one changes nothing) */
    boolean advance(long newWatermark) {
        if (newWatermark <= watermark) {
            return false;
        }
        watermark = newWatermark;
        return true;
    }

    long processingTime() {
        return clock.millis();
    }
}
