package io.cepheus.runtime.time;

/**
 * The generator behind {@link WatermarkStrategy#noWatermarks()}: never emits anything. Stateless, so one
 * instance serves every input and thread.
 *
 * @param <T> the event type
 */
final class NoWatermarks<T> implements WatermarkGenerator<T> {

    private static final NoWatermarks<?> INSTANCE = new NoWatermarks<>();

    private NoWatermarks() {
    }

    @SuppressWarnings("unchecked")
    static <T> NoWatermarks<T> instance() {
        return (NoWatermarks<T>) INSTANCE;
    }

    @Override
    public void onEvent(T event, long timestamp, WatermarkOutput out) {
        // no watermarks: event time of this input never advances
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput out) {
        // no watermarks: event time of this input never advances
    }
}
