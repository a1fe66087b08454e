package io.cepheus.runtime.internal.shard;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Aligns a snapshot's barriers at one shard, as Flink's aligned checkpoints do: once a producer's barrier has
 * arrived, that producer's later records are held back until every live producer's barrier is in; then the shard
 * writes its state and replays them. A producer that closed (its watermark at the end of time) sends nothing more,
 * so it counts as aligned. One snapshot at a time, the same ids in the same order from every producer.
 *
 * <p>Owned by the shard's thread.
 */
final class BarrierAlignment {

    private static final long NONE = Long.MIN_VALUE;
    private long barrier = NONE;
    private boolean[] aligned = new boolean[0];
    private int alignedCount;
    private final ArrayDeque<ShardRecord> heldBack = new ArrayDeque<>();

    /** @return whether a snapshot is being aligned */
    boolean isAligning() {
        return barrier != NONE;
    }

    /**
     * @return whether {@code record} comes after its producer's barrier, in which case it is held back (and must not
     *         be applied now)
     */
    boolean holdsBack(ShardRecord record) {
        if (barrier != NONE && aligned[record.producer()]) {
            heldBack.add(record);
            return true;
        }
        return false;
    }

    /**
     * A producer's barrier arrived.
     *
     * @param shard     the shard's number, for messages
     * @param producers the number of producers
     * @throws IllegalStateException if another snapshot is being aligned
     */
    void onBarrier(int shard, ShardRecord.Barrier b, int producers) {
        if (barrier == NONE) {
            barrier = b.id();
            if (aligned.length < producers) {
                aligned = new boolean[producers];
            }
        } else if (b.id() != barrier) {
            throw new IllegalStateException("shard " + shard + " is aligning snapshot " + barrier + " but producer "
                    + b.producer() + " sent barrier " + b.id() + ": every producer must checkpoint the same ids in"
                    + " the same order, one snapshot at a time");
        }
        aligned[b.producer()] = true;
        alignedCount++;
    }

    /** @return whether every live producer's barrier is in, so the snapshot can be written */
    boolean isComplete(ProducerWatermarks producers) {
        int closed = 0;
        for (int i = 0; i < producers.count(); i++) {
            if (!aligned[i] && producers.hasClosed(i)) {
                closed++;
            }
        }
        return alignedCount + closed >= producers.count();
    }

    /** @return the id of the snapshot being aligned */
    long snapshotId() {
        return barrier;
    }

    /** Ends the alignment. @return the records held back meanwhile, in arrival order, to be applied now */
    List<ShardRecord> finish() {
        barrier = NONE;
        Arrays.fill(aligned, false);
        alignedCount = 0;
        List<ShardRecord> replay = new ArrayList<>(heldBack);
        heldBack.clear();
        return replay;
    }
}
