package io.cepheus.runtime.time;

/**
 * Wraps a generator with idleness detection, the generator behind {@link WatermarkStrategy#withIdleness}: an
 * input that sent no event for the idle timeout is marked idle, so the combined watermark stops waiting for it;
 * its next event marks it active again.
 *
 * <p>As in Flink, events only bump a counter (no clock read per event) and idleness is judged at periodic
 * emits: the clock is read there, and the time of the last periodic emit that saw new events is remembered.
 * Every event counted by then happened no later than that emit, so when a later emit finds the counter
 * unchanged and at least the timeout elapsed since it, the input has certainly been silent for the timeout.
 * The input is therefore never marked idle early, and is marked at most about the timeout plus two periodic
 * intervals after its last event (Flink's own timer starts one interval later and can take up to three). The
 * first periodic emit starts the measurement, so an input that never sends anything is marked idle one
 * timeout after the first periodic emit, not after the generator was created.
 *
 * <p>While idle, the wrapped generator's {@code onPeriodicEmit} is not called (no watermark is emitted, as in
 * Flink). A clock that goes backwards counts as no time passing.
 *
 * <p>Owned by the thread that drives its input.
 *
 * @param <T> the event type
 */
final class IdlenessDetectingWatermarks<T> implements WatermarkGenerator<T> {

    private final WatermarkGenerator<T> inner;
    private final long timeoutMillis;
    private final Clock clock;

    /** Events seen; only compared for change, so wrapping round is harmless. */
    private long events;
    private long eventsAtLastActiveEmit;
    /** Clock time of the last periodic emit that saw new events (or of the first periodic emit). */
    private long lastActiveEmitMillis;
    private boolean measuring;
    private boolean idle;

    /**
     * @param inner         the generator that makes the watermarks
     * @param timeoutMillis how long without events before the input is idle, {@code >= 1}
     * @param clock         the clock idleness is measured on
     */
    IdlenessDetectingWatermarks(WatermarkGenerator<T> inner, long timeoutMillis, Clock clock) {
        this.inner = inner;
        this.timeoutMillis = timeoutMillis;
        this.clock = clock;
    }

    @Override
    public void onEvent(T event, long timestamp, WatermarkOutput out) {
        events++;
        if (idle) {
            idle = false;
            // active before the wrapped generator can emit, so a watermark never arrives on an idle input
            out.markActive();
        }
        inner.onEvent(event, timestamp, out);
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput out) {
        long now = clock.millis();
        if (!measuring || events != eventsAtLastActiveEmit) {
            measuring = true;
            eventsAtLastActiveEmit = events;
            lastActiveEmitMillis = now;
        } else if (silentFor(now) && !idle) {
            idle = true;
            out.markIdle();
        }
        if (!idle) {
            inner.onPeriodicEmit(out);
        }
    }

    private boolean silentFor(long now) {
        // now > start makes the true difference positive, and as an unsigned number the wrapped subtraction is
        // exact even when it overflows a signed long
        return now > lastActiveEmitMillis && Long.compareUnsigned(now - lastActiveEmitMillis, timeoutMillis) >= 0;
    }
}
