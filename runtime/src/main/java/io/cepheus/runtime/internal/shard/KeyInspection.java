package io.cepheus.runtime.internal.shard;

/**
 * An operator that answers questions about one key ({@link ShardRecord.Query}), on its shard's thread: what it holds
 * for the key, or a change of how it watches the key (a trace).
 */
public interface KeyInspection {

    /** The question of the key's open partial matches. */
    Object PARTIAL_MATCHES = "partial matches";

    /**
     * @param key      the key asked about
     * @param question what is asked: {@link #PARTIAL_MATCHES}, or the operator's own question type
     * @return the operator's answer (its own type)
     * @throws IllegalArgumentException if the operator does not understand the question
     */
    Object inspect(Object key, Object question);
}
