package io.cepheus.runtime.internal.timer;

/**
 * Receives the timers a {@link TimerService} fires, as primitives so that firing allocates nothing.
 *
 * <p>Called on the shard thread that owns the {@code TimerService}, from
 * {@link TimerService#advanceWatermark(long, TimerHandler)} (event-time timers) or
 * {@link TimerService#advanceProcessingTime(long, TimerHandler)} (processing-time timers); the caller knows the
 * domain by which method it called, so an operator that needs both keeps two handlers (two method references
 * created once, in fields: a method reference created per call would allocate).
 *
 * <p>The handler may register and delete timers of the same service while it runs; see
 * {@link TimerService#advanceWatermark(long, TimerHandler)} for what that means for the current advance. It must
 * not advance time re-entrantly.
 */
@FunctionalInterface
public interface TimerHandler {

    /**
     * Handles one fired timer, which has already been removed from the service (so
     * {@link TimerService#timersOf(int)} no longer counts it).
     *
     * @param key the dense key id the timer was registered for
     * @param namespace the namespace the timer was registered in (operator / window id, opaque to the service)
     * @param timestamp the timer's timestamp (not the watermark or processing time that made it fire)
     */
    void onTimer(int key, long namespace, long timestamp);
}
