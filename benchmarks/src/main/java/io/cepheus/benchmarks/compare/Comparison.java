package io.cepheus.benchmarks.compare;

import io.cepheus.examples.workloads.RunResult;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * One row pair of the side-by-side table: an input generated once and the two engines that process it. The
 * CEP workloads W1-W4 are built by {@link CepComparisons}; window and interval-join comparisons are further
 * instances of this record with their own contenders.
 *
 * @param name         the row label, e.g. {@code W1 fraud}
 * @param events       input elements per run (the same for both engines)
 * @param input        how the input relates to its specification, e.g. {@code full stream} or a prefix note
 * @param cepheus      the Cepheus side
 * @param flink        the Apache Flink side
 * @param retainedHeap whether to report the heap a finished run still holds (the CEP rows)
 * @param specCheck    differences between a run's result and what the specification requires (empty when they
 *                     agree, or when no specification applies, e.g. on a prefix)
 */
public record Comparison(String name, int events, String input, Contender cepheus, Contender flink,
        boolean retainedHeap, Function<RunResult, List<String>> specCheck) {

    /** Checks the arguments. */
    public Comparison {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(cepheus, "cepheus");
        Objects.requireNonNull(flink, "flink");
        Objects.requireNonNull(specCheck, "specCheck");
        if (events < 1) {
            throw new IllegalArgumentException(name + ": a comparison needs at least one event, got " + events);
        }
    }
}
