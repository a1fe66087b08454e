package io.cepheus.benchmarks.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.benchmarks.workloads.Workload;
import io.cepheus.benchmarks.workloads.WorkloadGenerator;
import io.cepheus.benchmarks.workloads.WorkloadStream;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * W1–W4 through the Kafka Streams adapter on TopologyTestDriver give the counts and checksums WORKLOADS.md
 * publishes.
 */
class KafkaWorkloadCountsTest {

    @ParameterizedTest
    @EnumSource(value = Workload.class, names = {"W1", "W2", "W3", "W4"})
    void publishedCounts(Workload workload) {
        WorkloadStream stream = WorkloadGenerator.generate(workload);
        KafkaWorkloadRunner.Outcome outcome = KafkaWorkloadRunner.run(stream, true);
        System.out.printf("%s through the Kafka Streams processor on TopologyTestDriver: %s, %.0f events/s, %,d"
                + " changelog records; mid-stream store: %s, %.0f B per key%n", workload, outcome.result(),
                outcome.eventsPerSecond(stream.size()), outcome.changelogRecords(), outcome.middle(),
                outcome.middle().bytesPerKey());
        assertEquals(List.of(), outcome.result().differencesFrom(workload));
    }
}
