package io.cepheus.runtime.internal.shard;

/**
 * Creates one shard's instance of a registered operator; called once per shard on the thread that starts the
 * engine.
 *
 * @param <T> the engine's event type
 */
@FunctionalInterface
public interface OperatorFactory<T> {
    /**
     * @param operatorId the operator's id: its position on the shard, and the operator part of its timers
     * @param shard      what the operator may use of the shard it runs on
     * @return the operator
     */
    ShardOperator<T> create(int operatorId, ShardContext<T> shard);
}
