package io.cepheus.benchmarks.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.benchmarks.workloads.RunResult;
import io.cepheus.benchmarks.workloads.Workload;
import io.cepheus.benchmarks.workloads.WorkloadGenerator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The guard that the Flink side of the comparison is a faithful translation: on a prefix of every workload,
 * Flink's real {@code CepOperator} (through the operator test harness, heap state) produces the same matches,
 * timeouts and checksum as Cepheus's bare NFA, and so does Cepheus's engine (one shard under
 * {@code CepTestHarness}, the comparison's engine row). The prefixes are short so the test stays fast, but long enough
 * that every workload matches many times (and W4 times out many times) and its windows expire inside the
 * prefix (W1-W3 span several windows; W4's last hour is flushed by the final watermark).
 */
class FlinkTranslationTest {

    @ParameterizedTest(name = "{0}: first {1} events")
    @CsvSource({"W1, 40000", "W2, 20000", "W3, 8000", "W4, 20000"})
    void flinkCepOperatorAgreesWithCepheusOnAPrefix(Workload workload, int events) throws Exception {
        CepInput input = CepInput.prefix(WorkloadGenerator.generate(workload), events);

        RunResult cepheus = runOnce(new CepheusNfaContender(input));
        RunResult engine = runOnce(new CepheusEngineContender(input));
        RunResult flink = runOnce(new FlinkCepContender(input));

        assertTrue(cepheus.matches() >= 20, workload + ": too few matches on the prefix to check anything: " + cepheus);
        if (workload.countsTimeouts()) {
            assertTrue(cepheus.timeouts() >= 20, workload + ": too few timeouts on the prefix: " + cepheus);
        }
        assertEquals(cepheus, flink, workload + " on the first " + events + " events: Cepheus vs Flink");
        assertEquals(cepheus, engine, workload + " on the first " + events + " events: Cepheus's engine (one"
                + " shard, harness) vs its bare NFA");
    }

    private static RunResult runOnce(Contender contender) throws Exception {
        try (Trial trial = contender.prepare()) {
            return trial.feed();
        }
    }
}
