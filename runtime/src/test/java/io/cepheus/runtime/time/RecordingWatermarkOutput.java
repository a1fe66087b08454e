package io.cepheus.runtime.time;

import java.util.ArrayList;
import java.util.List;

/** Records what a generator emits, in order, as readable strings: {@code "wm 6499"}, {@code "idle"}, {@code "active"}. */
final class RecordingWatermarkOutput implements WatermarkOutput {

    private final List<String> calls = new ArrayList<>();

    @Override
    public void emitWatermark(long watermark) {
        calls.add("wm " + watermark);
    }

    @Override
    public void markIdle() {
        calls.add("idle");
    }

    @Override
    public void markActive() {
        calls.add("active");
    }

    /** @return everything recorded since the last call, then forgets it */
    List<String> take() {
        List<String> taken = List.copyOf(calls);
        calls.clear();
        return taken;
    }
}
