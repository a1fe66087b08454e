package io.cepheus.benchmarks.workloads;

import java.util.EnumMap;
import java.util.Map;

/** Generates each default-seed workload stream once per test JVM; the tests only read them. */
final class TestStreams {

    private static final Map<Workload, WorkloadStream> STREAMS = new EnumMap<>(Workload.class);

    private TestStreams() {
    }

    static synchronized WorkloadStream of(Workload workload) {
        return STREAMS.computeIfAbsent(workload, WorkloadGenerator::generate);
    }
}
