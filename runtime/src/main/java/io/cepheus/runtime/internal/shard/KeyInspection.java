package io.cepheus.runtime.internal.shard;

/**
 * An operator that answers questions about one key's state ({@link ShardRecord.Query}), on its shard's thread.
 */
public interface KeyInspection {
    /**
     * @param key the key asked about
     * @return what the operator holds for it (the operator's own answer type), empty if nothing
     */
    Object inspect(Object key);
}
