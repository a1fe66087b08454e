package io.cepheus.runtime.internal.shard;

/**
 * How a stream builder changes what the engine's shards run while it runs (a rule set's changes): it sends a control
 * record to every shard through their inboxes, so that each shard applies it at one point of its input.
 *
 * <p>Any thread may call it; the engine serializes control records with each other and with snapshots.
 */
public interface EngineControl {

    /** @return whether the engine runs (its shards take records); before, changes are part of its setup */
    boolean isRunning();

    /** @return whether a test harness drives the shards on the caller's thread */
    boolean isDrivenByCaller();

    /** @return the number of shards */
    int shards();

    /**
     * Puts {@code record} into every shard's inbox at one point of every producer's input: a producer's events
     * sent before are before it on every shard, those sent after are after it on every shard. Waits while a snapshot
     * is being taken (a change must not fall between its barriers) and while an inbox is full.
     *
     * @param record the control record
     * @throws IllegalStateException if the engine takes no more input (closing, stopped, or a harness that would have
     *                               to wait on its own thread), before anything was sent
     */
    void broadcast(ShardRecord record);

    /**
     * Puts a question into the inbox of the shard that owns {@code key}, waiting while it is full (a harness refuses
     * instead: nothing would make room).
     *
     * @param key    the key, which decides the shard
     * @param record the question ({@link ShardRecord.Query})
     * @throws IllegalStateException if the engine is not running or takes no more input, or a harness's inbox is full
     */
    void ask(Object key, ShardRecord record);

    /**
     * @param listener run once the engine has stopped (closed, or its harness closed): a change some shard never
     *                 applied (it failed first) can then be reported as such
     */
    void onStopped(Runnable listener);
}
