package io.cepheus.runtime.internal.shard;

import io.cepheus.nfa.EventCodec;

/**
 * The one seam through which a stream builder (a pattern, a window, a join) puts its operator on the engine's
 * shards: it checks the engine is still being configured, learns whether snapshots are on, and registers a
 * factory that every shard calls once, at start, with its {@link ShardContext} (keys, timers, watermark, clock,
 * failure reporting). Builders outside the engine's package reach the engine only through it.
 *
 * <p>Used on the thread that configures the engine, before it starts.
 *
 * @param <T> the engine's event type
 */
public interface OperatorRegistry<T> {

    /**
     * @param call what the caller is doing, for the message (e.g. {@code "window()"})
     * @throws IllegalStateException if the engine has started, or its start failed
     */
    void checkNotStarted(String call);

    /**
     * Registers an operator that every shard runs.
     *
     * @param description identifies the operator in snapshots: a restore checks it matches
     * @param factory     creates the operator of one shard, on the thread that starts the engine
     * @return the operator's id, its position on every shard
     */
    int register(String description, OperatorFactory<T> factory);

    /** @return whether the engine takes snapshots (operators that cannot be snapshotted refuse to register) */
    boolean snapshotsEnabled();

    /**
     * @return the engine's event codec, for operators whose snapshot holds events
     * @throws IllegalStateException if the engine has no snapshot codecs
     */
    EventCodec<T> eventCodec();

    /** @return how an operator's builder changes what the shards run while the engine runs */
    EngineControl control();
}
