package io.cepheus.runtime.internal.shard;

/**
 * What producers send a shard through its inbox. Watermarks travel in-band, in the same queue as the
 * producer's events, so a producer's events always reach the shard before the watermark it sent after them.
 */
public sealed interface ShardRecord {

    /** @return the sending producer's input index at this shard */
    int producer();

    /**
     * An event with its key and event time, computed once on the producer's thread.
     *
     * @param producer  the sending producer's input index at this shard
     * @param key       the event's key
     * @param event     the event
     * @param timestamp its event time
     */
    record Event(int producer, Object key, Object event, long timestamp) implements ShardRecord {
    }

    /**
     * A producer's watermark: it will send no event at or below this time.
     *
     * @param producer  the producer's input index at this shard
     * @param watermark the watermark
     */
    record Watermark(int producer, long watermark) implements ShardRecord {
    }

    /**
     * A producer became idle (its watermark no longer holds the shard back) or active again.
     *
     * @param producer the producer's input index at this shard
     * @param idle     true for idle, false for active
     */
    record Idleness(int producer, boolean idle) implements ShardRecord {
    }

    /**
     * A producer's snapshot barrier: everything it sent before belongs to snapshot {@code id}, everything after
     * does not. A shard snapshots once it has the barrier of every live producer.
     *
     * @param producer the producer's input index at this shard
     * @param id       the snapshot id
     */
    record Barrier(int producer, long id) implements ShardRecord {
    }

    /**
     * A question to one operator about one key, sent by any thread to the shard that owns the key and answered there,
     * between two records of its input, so that the answer never races the key's state.
     *
     * @param operatorId the operator asked
     * @param key        the key
     * @param question   what is asked ({@link KeyInspection#inspect})
     * @param answer     completed on the shard's thread with the operator's answer, or exceptionally
     */
    record Query(int operatorId, Object key, Object question, java.util.concurrent.CompletableFuture<Object> answer)
            implements ShardRecord {
        /** @return -1: no producer sent it */
        @Override
        public int producer() {
            return -1;
        }
    }

    /**
     * A change of what an operator runs (a rule set's change), sent by the engine, not by a producer, to every shard
     * at one point of every producer's input ({@link EngineControl#broadcast}).
     *
     * @param operatorId the operator it is for
     * @param command    what to apply (the operator's own type)
     */
    record Control(int operatorId, Object command) implements ShardRecord {
        /** @return -1: no producer sent it */
        @Override
        public int producer() {
            return -1;
        }
    }
}
