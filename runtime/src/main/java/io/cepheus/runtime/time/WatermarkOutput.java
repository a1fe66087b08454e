package io.cepheus.runtime.time;

/**
 * Where a {@link WatermarkGenerator} reports event-time progress for its input, as Flink's
 * {@code WatermarkOutput}.
 *
 * <p>A watermark {@code t} declares that no more events with a timestamp {@code <= t} are expected from this
 * input; an event that arrives later with such a timestamp is late. Watermarks lower than one already emitted
 * are ignored (an input's watermark never goes backwards). Emitting a watermark also marks an idle input
 * active again.
 *
 * <p>Called only on the thread that owns the generator; the runtime's implementations allocate nothing.
 *
 * <pre>{@code
 * public void onPeriodicEmit(WatermarkOutput out) {
 *     out.emitWatermark(maxTimestamp - 1);
 * }
 * }</pre>
 */
public interface WatermarkOutput {

    /**
     * Declares that event time of this input has reached {@code watermark}.
     *
     * @param watermark in milliseconds; events with a timestamp {@code <= watermark} are late from now on
     */
    void emitWatermark(long watermark);

    /**
     * Declares this input idle: it is expected to send nothing for a while, so the combined watermark of the
     * inputs it feeds stops waiting for it.
     */
    void markIdle();

    /** Declares this input active again after {@link #markIdle()}: the combined watermark waits for it again. */
    void markActive();
}
