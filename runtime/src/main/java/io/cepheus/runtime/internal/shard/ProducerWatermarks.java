package io.cepheus.runtime.internal.shard;

import io.cepheus.runtime.internal.time.WatermarkValve;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * The watermark a shard's producers give it: the minimum over the active producers' watermarks
 * ({@link WatermarkValve}), with producers that have sent nothing at all for a while left out of it. Each update
 * returns the shard's new watermark, or {@link WatermarkValve#NO_ADVANCE}.
 *
 * <p>Silence is judged here, on the shard, because a producer's own idleness detection runs only when its thread
 * calls it: a source whose thread simply stops sending would otherwise hold the watermark back for good.
 * Activity is engine-wide (the clock time of a producer's latest send to any shard), so a producer busy with other
 * shards' keys is never taken for silent here: its later events would otherwise be late.
 *
 * <p>Owned by the shard's thread; the activity times are written by the producers.
 */
final class ProducerWatermarks {

    private final WatermarkValve valve = new WatermarkValve();
    private long silentTimeout = Long.MAX_VALUE;
    private AtomicLong[] activity;
    /** Per producer, whether this shard left it out of the watermark for silence (not the producer itself). */
    private boolean[] silent = new boolean[0];

    /** Registers a producer (setup). @return its input index at this shard */
    int addProducer() {
        return valve.addInput();
    }

    /**
     * Leaves a producer out of the watermark once it has sent nothing for {@code millis} of processing time, until
     * it sends again (setup).
     *
     * @param activity per producer input index, the clock time of its latest send (a producer's input index is
     *                 the same at every shard)
     * @param millis   the timeout, at least 1
     */
    void silentProducerTimeout(AtomicLong[] activity, long millis) {
        if (millis < 1) {
            throw new IllegalArgumentException("silent producer timeout must be at least 1 ms, was " + millis);
        }
        this.activity = Objects.requireNonNull(activity, "activity");
        this.silentTimeout = millis;
    }

    /** @return whether silence is watched at all */
    boolean watchesSilence() {
        return activity != null;
    }

    /** A record came from {@code producer}: it is not silent. @return the new watermark, or NO_ADVANCE */
    long heard(int producer) {
        if (producer < silent.length && silent[producer]) {
            silent[producer] = false;
            return valve.onActive(producer);
        }
        return WatermarkValve.NO_ADVANCE;
    }

    /** @return the new watermark after {@code producer}'s watermark, or NO_ADVANCE */
    long onWatermark(int producer, long watermark) {
        return valve.onWatermark(producer, watermark);
    }

    /** @return the new watermark after {@code producer} declared itself idle or active, or NO_ADVANCE */
    long onIdleness(int producer, boolean idle) {
        return idle ? valve.onIdle(producer) : valve.onActive(producer);
    }

    /**
     * Leaves out the producers silent for the timeout and takes back the ones that spoke, handing each change's
     * watermark to {@code advance} at once (so operators see every step, as with in-band watermarks).
     *
     * @param now the processing time
     */
    void checkSilence(long now, LongConsumer advance) {
        int n = Math.min(valve.inputCount(), activity.length);
        if (silent.length < n) {
            silent = Arrays.copyOf(silent, n);
        }
        for (int i = 0; i < n; i++) {
            boolean quiet = now - activity[i].get() >= silentTimeout;
            if (quiet && !silent[i] && !valve.isIdle(i) && valve.watermarkOf(i) != Long.MAX_VALUE) {
                silent[i] = true;
                advance.accept(valve.onIdle(i));
            } else if (!quiet && silent[i]) {
                advance.accept(heard(i));
            }
        }
    }

    /**
     * @param producer a producer's input index
     * @return the latest watermark that producer sent this shard ({@code Long.MIN_VALUE} if none)
     */
    public long watermarkOf(int producer) {
        return valve.watermarkOf(producer);
    }

    /** @return the number of producers */
    int count() {
        return valve.inputCount();
    }

    /** @return whether {@code producer} closed: its watermark is the end of time, it sends nothing more */
    boolean hasClosed(int producer) {
        return valve.watermarkOf(producer) == Long.MAX_VALUE;
    }

    /** Writes each producer's watermark and idleness, for a snapshot. */
    void writeTo(DataOutput out) throws IOException {
        out.writeInt(valve.inputCount());
        for (int i = 0; i < valve.inputCount(); i++) {
            out.writeLong(valve.watermarkOf(i));
            out.writeBoolean(valve.isIdle(i));
        }
    }

    /**
     * Reads what {@link #writeTo} wrote on one shard of an engine with another number of shards, merging it into
     * {@code watermarks} (the highest of each producer) and {@code idle} (idle only if idle on every shard read).
     */
    void readMerged(DataInput in, int shard, long[] watermarks, boolean[] idle) throws IOException {
        int inputs = in.readInt();
        if (inputs != valve.inputCount()) {
            throw new IOException("the snapshot has " + inputs + " producers at shard " + shard + ", this engine "
                    + valve.inputCount());
        }
        for (int i = 0; i < inputs; i++) {
            watermarks[i] = Math.max(watermarks[i], in.readLong());
            idle[i] &= in.readBoolean();
        }
    }

    /** Restores the producers' watermarks and idleness merged by {@link #readMerged}. */
    void restoreMerged(long[] watermarks, boolean[] idle) {
        for (int i = 0; i < watermarks.length; i++) {
            if (watermarks[i] != Long.MIN_VALUE) {
                valve.onWatermark(i, watermarks[i]);
            }
            if (idle[i]) {
                valve.onIdle(i);
            }
        }
    }

    /** @return how many producers feed the shard */
    int producerCount() {
        return valve.inputCount();
    }

    /** Restores what {@link #writeTo} wrote, into the same number of producers. */
    void readFrom(DataInput in, int shard) throws IOException {
        int inputs = in.readInt();
        if (inputs != valve.inputCount()) {
            throw new IOException("the snapshot has " + inputs + " producers at shard " + shard + ", this engine "
                    + valve.inputCount());
        }
        for (int i = 0; i < inputs; i++) {
            long w = in.readLong();
            boolean idle = in.readBoolean();
            if (w != Long.MIN_VALUE) {
                valve.onWatermark(i, w);
            }
            if (idle) {
                valve.onIdle(i);
            }
        }
    }
}
