package io.cepheus.benchmarks.compare;

/**
 * One engine's side of a {@link Comparison}: it knows the comparison's input and how its engine processes it,
 * and builds a fresh {@link Trial} (fresh state) for every run. Window and interval-join comparisons plug in
 * by implementing this for each engine.
 */
public interface Contender {

    /** @return the engine's name as the table prints it, e.g. {@code Cepheus (bare NFA)} */
    String engine();

    /**
     * Builds the engine with empty state, ready to be fed (not timed: compiling a pattern or opening an
     * operator is set-up, not throughput).
     *
     * @return a trial that processes the whole input once
     * @throws Exception whatever building the engine throws
     */
    Trial prepare() throws Exception;
}
