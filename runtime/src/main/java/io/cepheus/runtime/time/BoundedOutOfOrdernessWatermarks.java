package io.cepheus.runtime.time;

/**
 * The generator behind {@link WatermarkStrategy#forBoundedOutOfOrderness}: once an event with timestamp
 * {@code T} was seen, events down to {@code T - bound} may still come, so the watermark is the largest
 * timestamp seen minus the bound minus one (a watermark {@code w} makes timestamps {@code <= w} late). It is
 * emitted on each periodic emit, and not at all before the first event.
 *
 * <p>Owned by the thread that drives its input.
 *
 * @param <T> the event type
 */
final class BoundedOutOfOrdernessWatermarks<T> implements WatermarkGenerator<T> {

    private final long boundMillis;
    private long maxTimestamp = Long.MIN_VALUE;
    private boolean sawEvent;

    /** @param boundMillis the out-of-orderness bound, {@code >= 0} (checked by the strategy) */
    BoundedOutOfOrdernessWatermarks(long boundMillis) {
        this.boundMillis = boundMillis;
    }

    @Override
    public void onEvent(T event, long timestamp, WatermarkOutput out) {
        if (timestamp > maxTimestamp) {
            maxTimestamp = timestamp;
        }
        sawEvent = true;
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput out) {
        if (sawEvent) {
            out.emitWatermark(watermarkFor(maxTimestamp, boundMillis));
        }
    }

    /**
     * {@code maxTimestamp - boundMillis - 1}, saturating at {@link Long#MIN_VALUE} instead of wrapping round to a
     * huge watermark when the timestamps are near the bottom of the range.
     */
    static long watermarkFor(long maxTimestamp, long boundMillis) {
        // Long.MIN_VALUE + boundMillis + 1 cannot overflow for 0 <= boundMillis <= Long.MAX_VALUE
        return maxTimestamp < Long.MIN_VALUE + boundMillis + 1 ? Long.MIN_VALUE : maxTimestamp - boundMillis - 1;
    }
}
