package io.cepheus.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.kafka.conformance.EvSerde;
import io.cepheus.kafka.conformance.EvTopologies;
import io.cepheus.nfa.conformance.Ev;
import io.cepheus.pattern.Pattern;
import io.cepheus.rules.Rules;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * What the processor does beyond the conformance suites: processing-time patterns follow the driver's wall clock, a
 * state store of another format is refused by name, and a refused rule record leaves the version in force running.
 */
class ProcessorBehaviourTest {

    private static final Instant START = Instant.parse("2026-12-02T10:00:00Z");

    private static TopologyTestDriver driver(Topology topology) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "behaviour");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return new TopologyTestDriver(topology, props, START);
    }

    private static TestOutputTopic<String, CepOutput<Ev>> results(TopologyTestDriver d) {
        return d.createOutputTopic("results", Serdes.String().deserializer(),
                CepSerdes.output(new EvSerde()).deserializer());
    }

    private static TestInputTopic<String, Ev> events(TopologyTestDriver d) {
        return d.createInputTopic("events", Serdes.String().serializer(), new EvSerde().serializer());
    }

    @Test
    void aProcessingTimePatternTimesOutByTheWallClockWithoutAnotherRecord() {
        Pattern<Ev> aThenB = Pattern.<Ev>begin("a").where(e -> e.type() == 'A').followedBy("b")
                .where(e -> e.type() == 'B').within(Duration.ofSeconds(10));
        try (TopologyTestDriver d = driver(EvTopologies.topology(CepProcessorSupplier
                .builder("clock", Serdes.String(), new EvSerde()).inMemoryStore()
                .wallClockInterval(Duration.ofSeconds(1))
                .patternInProcessingTime("a-then-b", aThenB).build()))) {
            TestInputTopic<String, Ev> in = events(d);
            TestOutputTopic<String, CepOutput<Ev>> out = results(d);
            in.pipeInput("k", Ev.of('A', 1, 0), 0L); // record timestamps do not matter in processing time
            d.advanceWallClockTime(Duration.ofSeconds(5));
            in.pipeInput("k", Ev.of('B', 2, 0), 0L);
            PatternMatch<Ev> match = assertInstanceOf(PatternMatch.class, out.readValue());
            assertEquals("{a=[A1@0], b=[B2@0]}", match.match().toString());
            in.pipeInput("k", Ev.of('A', 3, 0), 0L);
            d.advanceWallClockTime(Duration.ofSeconds(9));
            assertTrue(out.isEmpty(), "the window is still open");
            d.advanceWallClockTime(Duration.ofSeconds(2));
            TestRecord<String, CepOutput<Ev>> timedOut = out.readRecord();
            assertInstanceOf(PatternTimeout.class, timedOut.value());
            assertEquals(START.toEpochMilli() + 5_000 + 10_000, timedOut.timestamp(),
                    "the partial match started at the wall clock's 5 s, its window 10 s");
        }
    }

    @Test
    void aStateStoreOfAnotherFormatIsRefusedByName() {
        DurableStore store = new DurableStore("formats-state");
        store.contents().put(Bytes.wrap(new byte[] {'H'}), ByteBuffer.allocate(4).putInt(99).array());
        RuntimeException failure = assertThrows(RuntimeException.class, () -> driver(EvTopologies.topology(
                CepProcessorSupplier
                .builder("formats", Serdes.String(), new EvSerde()).store(store)
                .pattern("p", Pattern.<Ev>begin("a").where(e -> true)).build())));
        String messages = messages(failure);
        assertTrue(messages.contains("formats-state") && messages.contains("format 99")
                && messages.contains("reads format 1"), messages);
    }

    @Test
    void aRefusedRuleRecordLeavesTheVersionInForceRunning() {
        String v1 = Rules.toJson("r", 1, Pattern.<Ev>begin("a").where(Rules.expression("type == 'A'", Ev.class))
                .followedBy("b").where(Rules.expression("type == 'B'", Ev.class)));
        try (TopologyTestDriver d = driver(EvTopologies.topology(CepProcessorSupplier
                .builder("refused", Serdes.String(), new EvSerde()).inMemoryStore().maxTimestampAhead(null)
                .rules("rules", rule -> rule.compile(Ev.class)).build()))) {
            TestInputTopic<String, String> rules = d.createInputTopic("rules", Serdes.String().serializer(),
                    Serdes.String().serializer());
            TestInputTopic<String, Ev> in = events(d);
            TestOutputTopic<String, CepOutput<Ev>> out = results(d);
            rules.pipeInput("r", v1);
            d.advanceWallClockTime(Duration.ofSeconds(1));
            rules.pipeInput("r", v1.replace("\"version\":1", "\"version\":2").replace("type == 'B'", "type =="));
            d.advanceWallClockTime(Duration.ofSeconds(1));
            RuleRejected<Ev> refused = assertInstanceOf(RuleRejected.class, out.readValue());
            assertEquals("r", refused.rule());
            d.advanceWallClockTime(Duration.ofSeconds(1));
            assertTrue(out.isEmpty(), "a refused record is reported once");
            in.pipeInput("k", Ev.of('A', 1, 1), 1L);
            in.pipeInput("k", Ev.of('B', 2, 2), 2L);
            in.pipeInput("k", Ev.of('X', 3, 10), 10L);
            List<CepOutput<Ev>> matched = out.readValuesToList();
            RuleMatch<Ev> match = assertInstanceOf(RuleMatch.class, matched.get(0));
            assertEquals(1, match.version());
            assertEquals(1, matched.size(), matched.toString());
        }
    }

    private static String messages(Throwable t) {
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            all.append(c.getMessage()).append(" / ");
        }
        return all.toString();
    }
}
