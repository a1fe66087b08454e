package io.cepheus.runtime.internal.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Aligned barriers at one shard: what is held back, when the snapshot is complete, what is replayed. */
class BarrierAlignmentTest {

    private final ProducerWatermarks producers = new ProducerWatermarks();
    private final BarrierAlignment alignment = new BarrierAlignment();

    BarrierAlignmentTest() {
        producers.addProducer();
        producers.addProducer();
        producers.addProducer();
    }

    @Test
    void holdsBackAProducersRecordsAfterItsBarrierAndReplaysThemInOrder() {
        assertFalse(alignment.holdsBack(new ShardRecord.Watermark(0, 5)), "nothing is aligned yet");
        alignment.onBarrier(0, new ShardRecord.Barrier(0, 7), producers.count());
        ShardRecord late1 = new ShardRecord.Event(0, "k", "a", 10);
        ShardRecord late2 = new ShardRecord.Watermark(0, 11);
        assertTrue(alignment.holdsBack(late1));
        assertFalse(alignment.holdsBack(new ShardRecord.Event(1, "k", "b", 10)), "producer 1 has not aligned");
        assertTrue(alignment.holdsBack(late2));
        alignment.onBarrier(0, new ShardRecord.Barrier(1, 7), producers.count());
        assertFalse(alignment.isComplete(producers), "producer 2 is still missing");
        alignment.onBarrier(0, new ShardRecord.Barrier(2, 7), producers.count());
        assertTrue(alignment.isComplete(producers));
        assertEquals(7, alignment.snapshotId());

        assertEquals(List.of(late1, late2), alignment.finish());
        assertFalse(alignment.isAligning());
        assertFalse(alignment.holdsBack(late1), "after the snapshot nothing is held back");
    }

    @Test
    void aClosedProducerCountsAsAligned() {
        alignment.onBarrier(0, new ShardRecord.Barrier(0, 1), producers.count());
        alignment.onBarrier(0, new ShardRecord.Barrier(1, 1), producers.count());
        assertFalse(alignment.isComplete(producers));
        producers.onWatermark(2, Long.MAX_VALUE);
        assertTrue(alignment.isComplete(producers));
    }

    @Test
    void anotherSnapshotsBarrierDuringAlignmentIsRefused() {
        alignment.onBarrier(3, new ShardRecord.Barrier(0, 1), producers.count());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> alignment.onBarrier(3, new ShardRecord.Barrier(1, 2), producers.count()));
        assertEquals("shard 3 is aligning snapshot 1 but producer 1 sent barrier 2: every producer must checkpoint"
                + " the same ids in the same order, one snapshot at a time", e.getMessage());
    }
}
