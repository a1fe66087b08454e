package io.cepheus.benchmarks.compare;

import java.util.List;

/**
 * Every engine's measured runs of one comparison, whose results were found equal.
 *
 * @param comparison what was compared
 * @param cepheus    the Cepheus contenders' runs, in the comparison's order
 * @param flink      Flink's runs
 */
public record ComparisonOutcome(Comparison comparison, List<EngineStats> cepheus, EngineStats flink) {

    /** Copies the list. */
    public ComparisonOutcome {
        cepheus = List.copyOf(cepheus);
    }

    /** @return the first Cepheus contender's median throughput over Flink's */
    public double speedRatio() {
        return speedRatio(cepheus.get(0));
    }

    /**
     * @param stats one of {@link #cepheus()}
     * @return its median throughput over Flink's
     */
    public double speedRatio(EngineStats stats) {
        return stats.medianEventsPerSecond() / flink.medianEventsPerSecond();
    }
}
