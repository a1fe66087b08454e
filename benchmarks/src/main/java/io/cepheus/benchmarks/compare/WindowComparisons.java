package io.cepheus.benchmarks.compare;

import io.cepheus.benchmarks.workloads.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Builds the window rows of the comparison: keyed count + sum over {@link WindowInput} (1M elements, 10k keys)
 * for each {@link WindowSpec}, Cepheus's engine against Flink's {@code WindowOperator}. Whatever the length, every
 * element is counted in exactly {@link WindowSpec#windowsPerElement()} results once the final watermark has fired
 * everything: that is checked on every run, besides the engines' agreement.
 */
public final class WindowComparisons {

    private WindowComparisons() {
    }

    /**
     * @param input the generated elements (generated once; every run reads them)
     * @param spec  the window assigner
     * @return the comparison
     */
    public static Comparison of(WindowInput input, WindowSpec spec) {
        String note = String.format(Locale.ROOT, "%,d keys", input.keys());
        boolean benchmarkShape = input.keys() == WindowInput.KEYS && input.stepMs() == 1
                && input.maxDelayMs() == WindowInput.MAX_DELAY_MS;
        if (benchmarkShape && input.length() < WindowInput.EVENTS) {
            note = String.format(Locale.ROOT, "PREFIX: first %,d of %,d elements, %s", input.length(),
                    WindowInput.EVENTS, note);
        }
        if (input.seed() != WindowInput.DEFAULT_SEED) {
            note += ", seed " + input.seed();
        }
        if (!benchmarkShape) {
            note = String.format(Locale.ROOT, "NOT THE BENCHMARK INPUT: %,d elements, %s, an element every %d ms, "
                    + "up to %d ms early, seed %d", input.length(), note, input.stepMs(), input.maxDelayMs(),
                    input.seed());
        }
        long expectedCounted = (long) input.length() * spec.windowsPerElement();
        // Flink's sliding operator takes ~2 minutes per million elements here: one measured run, no warm-up
        int flinkRuns = spec == WindowSpec.SLIDING && input.length() > 100_000 ? 1 : 0;
        if (flinkRuns > 0) {
            note += ", Flink: 1 run, no warm-up (~2 min per run)";
        }
        return new Comparison(spec.label(), input.length(), note, ResultKind.WINDOW,
                List.of(new CepheusWindowContender(input, spec)), new FlinkWindowContender(input, spec), false,
                result -> countedOnce(result, expectedCounted), flinkRuns);
    }

    private static List<String> countedOnce(RunResult result, long expected) {
        List<String> out = new ArrayList<>();
        if (result.timeouts() != expected) {
            out.add(String.format(Locale.ROOT, "elements counted over all windows: expected %,d, got %,d", expected,
                    result.timeouts()));
        }
        return out;
    }
}
