package io.cepheus.runtime.internal.shard;

/**
 * Told of each key whose state an operator changed, for a host that keeps every key's state outside the operators
 * as it changes (a Kafka Streams task writes it to its state store) instead of taking whole snapshots. A key may be
 * reported more than once per step; the host writes it once, at the end of the step.
 *
 * <p>Called on the shard's thread.
 */
@FunctionalInterface
public interface KeyChanges {
    /** @param key a key whose state changed (it may have none left) */
    void changed(Object key);
}
