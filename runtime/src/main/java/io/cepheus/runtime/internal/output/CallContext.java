package io.cepheus.runtime.internal.output;

import io.cepheus.runtime.OutputTag;
import io.cepheus.runtime.time.Clock;
import java.util.function.LongSupplier;

/**
 * What every user function's context offers during one call, whatever the operator: the call's record timestamp,
 * the shard's watermark, the engine's processing time, and the operator's side outputs (records emitted there carry
 * the call's timestamp). The contexts of pattern process functions and join functions extend it with what is theirs.
 *
 * <p>One per shard operator, reused for each call; the shard's thread only.
 */
public abstract class CallContext {

    private final SideOutputs.Frozen sideOutputs;
    private final LongSupplier watermark;
    private final Clock clock;
    /** The record timestamp of the call under way. */
    protected long timestamp;

    /**
     * @param sideOutputs the operator's side outputs on this shard
     * @param watermark   reads the shard's current watermark
     * @param clock       the engine's processing-time clock
     */
    protected CallContext(SideOutputs.Frozen sideOutputs, LongSupplier watermark, Clock clock) {
        this.sideOutputs = sideOutputs;
        this.watermark = watermark;
        this.clock = clock;
    }

    /** @return the call's record timestamp */
    public long timestamp() {
        return timestamp;
    }

    /** @return the shard's current watermark */
    public long currentWatermark() {
        return watermark.getAsLong();
    }

    /** @return the engine clock's processing time */
    public long currentProcessingTime() {
        return clock.millis();
    }

    /**
     * Emits a record to a side output, with the call's timestamp.
     *
     * @param tag   the side output
     * @param value the record
     * @param <X>   its type
     */
    public <X> void output(OutputTag<X> tag, X value) {
        sideOutputs.emit(tag, value, timestamp);
    }
}
