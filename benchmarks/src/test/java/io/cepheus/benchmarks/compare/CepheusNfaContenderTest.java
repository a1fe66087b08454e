package io.cepheus.benchmarks.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.benchmarks.workloads.RunResult;
import io.cepheus.benchmarks.workloads.Workload;
import io.cepheus.benchmarks.workloads.WorkloadGenerator;
import io.cepheus.benchmarks.workloads.WorkloadStream;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The comparison's Cepheus side repeats {@link io.cepheus.benchmarks.workloads.WorkloadRunner}'s loop (so that its
 * state stays reachable after the run): on the full streams it must reproduce WORKLOADS.md, as the runner does.
 * The harness checks this on every full-stream run too; this catches a slip before anyone benchmarks.
 */
class CepheusNfaContenderTest {

    @ParameterizedTest
    @EnumSource(Workload.class)
    void reproducesWorkloadsMdOnTheFullStream(Workload workload) throws Exception {
        WorkloadStream stream = WorkloadGenerator.generate(workload);

        RunResult full = runOnce(new CepheusNfaContender(CepInput.prefix(stream, stream.size())));

        assertEquals(List.of(), full.differencesFrom(workload), workload + " full stream");
    }

    private static RunResult runOnce(Contender contender) throws Exception {
        try (Trial trial = contender.prepare()) {
            return trial.feed();
        }
    }
}
