package io.cepheus.runtime.join;

/**
 * Receives the results a join function emits for one pair; they go to the join's result handler with the
 * pair's key and timestamp. Valid only during the call it is passed to.
 *
 * @param <OUT> the results' type
 */
@FunctionalInterface
public interface Collector<OUT> {
    /** @param result one result */
    void collect(OUT result);
}
