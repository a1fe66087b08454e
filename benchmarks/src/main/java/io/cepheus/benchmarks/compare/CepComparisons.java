package io.cepheus.benchmarks.compare;

import io.cepheus.benchmarks.workloads.RunResult;
import io.cepheus.benchmarks.workloads.Workload;
import io.cepheus.benchmarks.workloads.WorkloadStream;
import java.util.List;
import java.util.Locale;

/**
 * Builds the CEP rows of the comparison: workloads W1-W4 of WORKLOADS.md, Cepheus's bare NFA and its whole engine
 * (one shard, on the measuring thread) against Flink's CepOperator.
 */
public final class CepComparisons {

    private CepComparisons() {
    }

    /**
     * @param stream the generated stream (generated once; both engines read it)
     * @param length how many of its events both engines process ({@code stream.size()} for the whole stream)
     * @return the comparison; on the whole default-seed stream every run must also reproduce WORKLOADS.md
     */
    public static Comparison of(WorkloadStream stream, int length) {
        Workload workload = stream.workload();
        CepInput input = CepInput.prefix(stream, length);
        boolean specApplies = input.isWholeStream() && stream.seed() == Workload.DEFAULT_SEED;
        String note = input.isWholeStream()
                ? "full stream"
                : String.format(Locale.ROOT, "PREFIX: first %,d of %,d events", length, stream.size());
        if (stream.seed() != Workload.DEFAULT_SEED) {
            note += ", seed " + stream.seed();
        }
        return new Comparison(label(workload), length, note, ResultKind.CEP,
                List.of(new CepheusNfaContender(input), new CepheusEngineContender(input)),
                new FlinkCepContender(input), true,
                specApplies ? result -> result.differencesFrom(workload) : CepComparisons::noSpec);
    }

    private static List<String> noSpec(RunResult result) {
        return List.of();
    }

    private static String label(Workload workload) {
        return switch (workload) {
            case W1 -> "W1 fraud";
            case W2 -> "W2 sequence";
            case W3 -> "W3 kleene";
            case W4 -> "W4 absence";
        };
    }
}
