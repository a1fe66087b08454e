package io.cepheus.runtime.join;

/**
 * Joins a stream element with the version of the table that was valid at the element's event time (the
 * latest version whose timestamp is at or before it). Runs on the worker thread of the key's shard.
 *
 * @param <S>   the stream elements' type
 * @param <V>   the table versions' type
 * @param <OUT> the result type
 */
@FunctionalInterface
public interface TemporalJoinFunction<S, V, OUT> {
    /**
     * @param element the stream element
     * @param version the table version valid at its timestamp; {@code null} only when the join was configured
     *                to join elements without a version with null
     * @return the result, given to the result handler with the element's key and timestamp (null: nothing)
     */
    OUT join(S element, V version);
}
