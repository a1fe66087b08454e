package io.cepheus.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.benchmarks.workloads.Workload;
import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * W1-W4 written as rule files ({@code src/main/resources/rules/wN.json}) reproduce WORKLOADS.md through the engine, on
 * record events ({@code rule:Wn}) and on map events ({@code map:Wn}, what the command line reads): the counts and
 * checksums every speed reported for those specs depends on.
 */
class WorkloadsAsRulesCountsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({"rule:W1", "rule:W2", "rule:W3", "rule:W4", "map:W1", "map:W2", "map:W3", "map:W4"})
    void countsAndChecksumAreThoseOfWorkloadsMd(String spec) {
        Workload workload = Workload.valueOf(spec.substring(spec.indexOf(':') + 1));

        String fingerprint = new PairedBuildRun(spec).runOnce();

        assertEquals(String.format(Locale.ROOT, "matches=%d,timeouts=%d,checksum=%x", workload.expectedMatches(),
                workload.countsTimeouts() ? workload.expectedTimeouts() : 0, workload.expectedChecksum()),
                fingerprint, spec);
    }
}
