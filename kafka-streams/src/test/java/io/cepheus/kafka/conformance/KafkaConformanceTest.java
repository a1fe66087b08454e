package io.cepheus.kafka.conformance;

import io.cepheus.nfa.conformance.CaseFileRunner;
import io.cepheus.nfa.conformance.CaseVerdict;
import io.cepheus.nfa.conformance.ConformanceDirectory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every CEP conformance case through the Kafka Streams adapter, on {@link org.apache.kafka.streams.TopologyTestDriver}
 * ({@link KafkaCaseDriver}), with the suite's closing line; {@code -Dcepheus.conformance.dir=PATH} runs another
 * directory of cases.
 */
class KafkaConformanceTest {

    private static final List<CaseVerdict> VERDICTS = new ArrayList<>();

    @TestFactory
    Stream<DynamicTest> everyCaseThroughTheProcessor() throws IOException {
        return CaseFiles.each(ConformanceDirectory.fromSystem(), ConformanceDirectory.DIR_PROPERTY,
                file -> CaseFileRunner.run(file, KafkaCaseDriver::run), VERDICTS);
    }

    @AfterAll
    static void summary() {
        System.out.println(CaseFiles.closingLine("conformance (Kafka Streams processor on TopologyTestDriver)",
                VERDICTS));
        System.out.println(CaseFiles.closingLine("conformance", VERDICTS));
    }
}
