package io.cepheus.kafka.conformance;

import io.cepheus.kafka.CepOutput;
import io.cepheus.kafka.LateEvent;
import io.cepheus.kafka.RuleMatch;
import io.cepheus.kafka.RuleRejected;
import io.cepheus.kafka.RuleTimeout;
import io.cepheus.kafka.TestDriverRig;
import io.cepheus.nfa.conformance.CaseFileRunner;
import io.cepheus.nfa.conformance.CaseOutcome;
import io.cepheus.nfa.conformance.CaseVerdict;
import io.cepheus.nfa.conformance.ConformanceDirectory;
import io.cepheus.nfa.conformance.Ev;
import io.cepheus.nfa.conformance.InputToken;
import io.cepheus.nfa.conformance.MatchFormat;
import io.cepheus.rules.conformance.RuleCase;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every rule conformance case through the Kafka Streams adapter on TopologyTestDriver: the case's rule is a record
 * of the rules topic, which the processor's task puts in force from the rules' global store at its first check, and
 * the case's events follow; a refused rule is the task's {@link RuleRejected} record, which the case's {@code ERROR}
 * line must match. Closing line {@code rules conformance: N passed, M failed};
 * {@code -Dcepheus.rules.conformance.dir=PATH} runs another folder.
 */
class KafkaRuleConformanceTest {

    private static final List<CaseVerdict> VERDICTS = new ArrayList<>();
    private static final String STORE = "rules-case-state";

    @TestFactory
    Stream<DynamicTest> everyRuleCaseFromTheRulesTopic() throws IOException {
        String property = "cepheus.rules.conformance.dir";
        return CaseFiles.each(ConformanceDirectory.locate(System.getProperty(property), Path.of("").toAbsolutePath(),
                "rules"), property, file -> CaseFileRunner.run(file, RuleCase::read, RuleCase::name,
                        KafkaRuleConformanceTest::run), VERDICTS);
    }

    @AfterAll
    static void summary() {
        System.out.println(CaseFiles.closingLine("rules conformance (Kafka Streams processor, rules from a topic)",
                VERDICTS));
        System.out.println(CaseFiles.closingLine("rules conformance", VERDICTS));
    }

    /** Runs one case: its rule on the rules topic, then its events. */
    static CaseOutcome run(RuleCase c) {
        List<String> out = new ArrayList<>();
        out.add("== " + c.name());
        TestDriverRig<String, Ev, CepOutput<Ev>> rig = EvTopologies.rig(store -> EvTopologies.topology(
                EvTopologies.caseProcessor("rules-case", store).rules("rules", rule -> rule.compile(Ev.class))
                        .rulesCheckInterval(Duration.ofSeconds(1)).build()), STORE);
        try {
            TestInputTopic<String, String> rules = rig.driver().createInputTopic("rules",
                    Serdes.String().serializer(), Serdes.String().serializer());
            rules.pipeInput(c.name(), c.rule());
            rig.driver().advanceWallClockTime(Duration.ofSeconds(1)); // the task's check finds it
            for (InputToken token : c.input()) {
                if (token instanceof InputToken.Event e) {
                    rig.pipe("k0", e.event(), e.event().ts());
                } else if (token instanceof InputToken.Watermark w) {
                    rig.pipe(WatermarkMarkers.KEY, WatermarkMarkers.marker(w.time()), 0L);
                }
            }
            if (c.endWatermark().isPresent()) {
                rig.pipe(WatermarkMarkers.KEY, WatermarkMarkers.marker(c.endWatermark().getAsLong()), 0L);
            }
            rig.close();
        } catch (RuntimeException e) {
            out.addAll(lines(rig.results()));
            out.add("CRASH " + e.getClass().getSimpleName() + ": " + e.getMessage());
            return new CaseOutcome(c.name(), out, e);
        }
        out.addAll(lines(rig.results()));
        return new CaseOutcome(c.name(), out, null);
    }

    private static List<String> lines(List<TestRecord<String, CepOutput<Ev>>> results) {
        List<String> out = new ArrayList<>();
        for (TestRecord<String, CepOutput<Ev>> r : results) {
            CepOutput<Ev> v = r.value();
            if (v instanceof RuleRejected<Ev> rejected) {
                out.add("ERROR " + rejected.reason());
            } else if (!"k0".equals(r.key())) {
                continue;
            } else if (v instanceof RuleMatch<Ev> m) {
                out.add("MATCH " + MatchFormat.format(m.match().asMap()));
            } else if (v instanceof RuleTimeout<Ev> t) {
                out.add("TIMEOUT@" + r.timestamp() + " " + MatchFormat.format(t.partialMatch().asMap()));
            } else if (v instanceof LateEvent<Ev> l) {
                out.add("LATE " + l.event().token());
            } else {
                out.add("UNEXPECTED " + v);
            }
        }
        return out;
    }
}
