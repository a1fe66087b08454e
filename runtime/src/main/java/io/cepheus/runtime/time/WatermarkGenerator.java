package io.cepheus.runtime.time;

/**
 * Generates the watermarks of one input from its events, as Flink's {@code WatermarkGenerator}: a punctuated
 * generator emits from {@link #onEvent}, a periodic one from {@link #onPeriodicEmit}, which the runtime calls
 * every {@link WatermarkStrategy#autoWatermarkInterval() auto-watermark interval}.
 *
 * <p>Threading: a generator instance belongs to one input and is called by one thread at a time, with each call
 * seeing what the previous one wrote, so it may keep plain mutable state: {@link #onEvent} on the producer's
 * thread, {@link #onPeriodicEmit} there or on the engine's when the producer is quiet (so a generator that reads
 * the clock moves event time on by itself). {@link WatermarkStrategy#createGenerator(Clock)} makes a new instance
 * for each input.
 *
 * <pre>{@code
 * // punctuated: markers in the stream carry the watermark
 * WatermarkGenerator<Reading> markers = new WatermarkGenerator<>() {
 *     public void onEvent(Reading r, long timestamp, WatermarkOutput out) {
 *         if (r.isMarker()) {
 *             out.emitWatermark(r.markerTime());
 *         }
 *     }
 *     public void onPeriodicEmit(WatermarkOutput out) {
 *         // nothing: every watermark comes from an event
 *     }
 * };
 * }</pre>
 *
 * @param <T> the event type
 */
public interface WatermarkGenerator<T> {

    /**
     * Called for every event of the input, after its timestamp was assigned.
     *
     * @param event     the event
     * @param timestamp its event-time timestamp in milliseconds
     * @param out       where to emit a watermark, if this event justifies one
     */
    void onEvent(T event, long timestamp, WatermarkOutput out);

    /**
     * Called periodically, whether or not events arrived since the last call.
     *
     * @param out where to emit the current watermark or idleness
     */
    void onPeriodicEmit(WatermarkOutput out);
}
