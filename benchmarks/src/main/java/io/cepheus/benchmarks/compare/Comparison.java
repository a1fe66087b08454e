package io.cepheus.benchmarks.compare;

import io.cepheus.benchmarks.workloads.RunResult;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * One group of rows of the side-by-side table: an input generated once, one or more Cepheus contenders (e.g. the
 * bare NFA and the whole engine) and the Apache Flink operator that processes the same input. The CEP workloads
 * W1-W4 are built by {@link CepComparisons}, the window rows by {@link WindowComparisons}, the interval join by
 * {@link JoinComparisons}.
 *
 * @param name         the row label, e.g. {@code W1 fraud}
 * @param events       input elements per run (the same for every engine)
 * @param input        how the input relates to its specification, e.g. {@code full stream} or a prefix note
 * @param kind         what the two counts of a {@link RunResult} mean for this comparison (table wording)
 * @param cepheus      the Cepheus sides, in table order (at least one)
 * @param flink        the Apache Flink side
 * @param retainedHeap whether to report the heap a finished run still holds (the CEP rows)
 * @param specCheck    differences between a run's result and what the specification requires (empty when they
 *                     agree, or when no specification applies, e.g. on a prefix)
 * @param flinkRuns    0 to run Flink in every round like the others; else Flink runs in no warm-up round and only
 *                     in the first {@code flinkRuns} measured rounds (for an operator whose single run takes
 *                     minutes, long enough to warm itself up: Flink's sliding windows)
 */
public record Comparison(String name, int events, String input, ResultKind kind, List<Contender> cepheus,
        Contender flink, boolean retainedHeap, Function<RunResult, List<String>> specCheck, int flinkRuns) {

    /** Checks the arguments. */
    public Comparison {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(kind, "kind");
        cepheus = List.copyOf(cepheus);
        Objects.requireNonNull(flink, "flink");
        Objects.requireNonNull(specCheck, "specCheck");
        if (events < 1) {
            throw new IllegalArgumentException(name + ": a comparison needs at least one event, got " + events);
        }
        if (cepheus.isEmpty()) {
            throw new IllegalArgumentException(name + ": a comparison needs at least one Cepheus contender");
        }
        if (flinkRuns < 0) {
            throw new IllegalArgumentException(name + ": flinkRuns must be 0 (every round) or more, got " + flinkRuns);
        }
    }

    /**
     * A comparison that runs Flink in every round.
     *
     * @param name         the row label
     * @param events       input elements per run
     * @param input        how the input relates to its specification
     * @param kind         what the counts mean
     * @param cepheus      the Cepheus sides
     * @param flink        the Flink side
     * @param retainedHeap whether to report retained heap
     * @param specCheck    the check against the specification
     */
    public Comparison(String name, int events, String input, ResultKind kind, List<Contender> cepheus,
            Contender flink, boolean retainedHeap, Function<RunResult, List<String>> specCheck) {
        this(name, events, input, kind, cepheus, flink, retainedHeap, specCheck, 0);
    }

    /**
     * @param round a round's number from 0, counting warm-up rounds first
     * @param warmups how many warm-up rounds there are
     * @return whether Flink runs in that round
     */
    public boolean flinkRunsIn(int round, int warmups) {
        return flinkRuns == 0 || (round >= warmups && round - warmups < flinkRuns);
    }

    /** @return every contender, Cepheus's first, then Flink: the order of an even round */
    public List<Contender> contenders() {
        java.util.ArrayList<Contender> all = new java.util.ArrayList<>(cepheus);
        all.add(flink);
        return all;
    }
}
