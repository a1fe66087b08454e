package io.cepheus.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.benchmarks.workloads.BenchEvent;
import io.cepheus.benchmarks.workloads.ManyRulesWorkload;
import io.cepheus.benchmarks.workloads.MatchChecksum;
import io.cepheus.benchmarks.workloads.WorkloadStream;
import io.cepheus.pattern.Pattern;
import io.cepheus.rules.Rule;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * W5 reproduces WORKLOADS.md exactly: R rules as JSON rule files in one rule set of the engine (one shard, a
 * watermark every 1,000 events), every rule's matches counted and checksummed. Benchmark numbers for many rules
 * mean nothing unless this passes.
 */
class ManyRulesCountsTest {

    private static WorkloadStream stream;

    @BeforeAll
    static void generate() {
        stream = ManyRulesWorkload.stream();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 10, 100, 1_000})
    void theRuleSetGivesTheCountsOfWorkloadsMd(int ruleCount) {
        List<Pattern<BenchEvent>> patterns = new ArrayList<>();
        for (Rule r : ManyRulesWorkload.rules(ruleCount)) {
            patterns.add(r.compile(BenchEvent.class));
        }
        long[] result = ManyRulesBench.run(stream, patterns, stream.size());
        assertEquals(ManyRulesWorkload.expectedMatches(ruleCount), result[0], "matches of " + ruleCount + " rules");
        assertEquals(MatchChecksum.hex(ManyRulesWorkload.expectedChecksum(ruleCount)), MatchChecksum.hex(result[1]),
                "checksum of " + ruleCount + " rules");
    }
}
