package io.cepheus.kafka.conformance;

import io.cepheus.nfa.conformance.Ev;
import io.cepheus.runtime.time.WatermarkGenerator;
import io.cepheus.runtime.time.WatermarkOutput;
import io.cepheus.runtime.time.WatermarkStrategy;

/**
 * A case's watermarks through Kafka: each {@code wm@ts} of the input is a record of its own key ({@link #KEY}) whose
 * event carries the watermark, and this punctuated generator emits it; events do not move the watermark. The
 * marker records are events of their own key, so the case's key never sees them.
 */
public final class WatermarkMarkers implements WatermarkGenerator<Ev> {

    /** The key of the marker records. */
    public static final String KEY = "#watermarks";
    private static final char TYPE = '#';

    /** @return the strategy whose generator reads the markers */
    public static WatermarkStrategy<Ev> strategy() {
        return WatermarkStrategy.forGenerator(WatermarkMarkers::new);
    }

    /** @return the marker of a watermark at {@code time} */
    public static Ev marker(long time) {
        return new Ev(TYPE, 0, time, "wm@" + time);
    }

    @Override
    public void onEvent(Ev event, long timestamp, WatermarkOutput out) {
        if (event.type() == TYPE) {
            out.emitWatermark(event.ts());
        }
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput out) {
    }
}
