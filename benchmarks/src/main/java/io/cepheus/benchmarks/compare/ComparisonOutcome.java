package io.cepheus.benchmarks.compare;

/**
 * Both engines' measured runs of one comparison, whose results were found equal.
 *
 * @param comparison what was compared
 * @param cepheus    Cepheus's runs
 * @param flink      Flink's runs
 */
public record ComparisonOutcome(Comparison comparison, EngineStats cepheus, EngineStats flink) {

    /** @return Cepheus's median throughput over Flink's */
    public double speedRatio() {
        return cepheus.medianEventsPerSecond() / flink.medianEventsPerSecond();
    }
}
