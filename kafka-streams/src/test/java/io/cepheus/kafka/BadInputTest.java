package io.cepheus.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.kafka.conformance.EvSerde;
import io.cepheus.nfa.conformance.Ev;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.SimpleCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Records the processor cannot match become dead letters, with the reason, and the stream goes on: the next records
 * of the same key still match as if the bad one had not come.
 */
class BadInputTest {

    private static final Instant WALL_CLOCK = Instant.parse("2026-12-02T10:00:00Z");
    private static final long NOW = WALL_CLOCK.toEpochMilli();
    private TopologyTestDriver driver;
    private TestInputTopic<String, Ev> in;
    private TestOutputTopic<String, CepOutput<Ev>> out;

    @BeforeEach
    void start() {
        SimpleCondition<Ev> isA = e -> {
            if (e.value() == 13) {
                throw new IllegalArgumentException("value 13 is not allowed");
            }
            return e.type() == 'A';
        };
        Pattern<Ev> aThenB = Pattern.<Ev>begin("a").where(isA).followedBy("b").where(e -> e.type() == 'B')
                .within(Duration.ofMinutes(1));
        CepProcessorSupplier<String, Ev> cep = CepProcessorSupplier.builder("bad", Serdes.String(), new EvSerde())
                .maxTimestampAhead(Duration.ofHours(1))
                .inMemoryStore()
                .pattern("a-then-b", aThenB)
                .build();
        StreamsBuilder builder = new StreamsBuilder();
        CepStreams<String, Ev> results = CepStreams.of(
                builder.stream("events", Consumed.with(Serdes.String(), new EvSerde())), cep);
        results.all().to("results", Produced.with(Serdes.String(), results.outputSerde()));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "bad-input");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(builder.build(), props, WALL_CLOCK);
        in = driver.createInputTopic("events", Serdes.String().serializer(), new EvSerde().serializer());
        out = driver.createOutputTopic("results", Serdes.String().deserializer(),
                CepSerdes.output(new EvSerde()).deserializer());
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    private static Ev ev(char type, int value, long ts) {
        return Ev.of(type, value, ts);
    }

    @Test
    void aRecordWithoutKeyIsADeadLetter() {
        in.pipeInput(null, ev('A', 1, NOW), NOW);
        TestRecord<String, CepOutput<Ev>> r = out.readRecord();
        DeadLetterEvent<Ev> dead = assertInstanceOf(DeadLetterEvent.class, r.value());
        assertNull(dead.pattern());
        assertTrue(dead.reason().contains("without a key"), dead.reason());
        assertMatchesAfterwards();
    }

    @Test
    void aTombstoneIsADeadLetter() {
        in.pipeInput("k", null, NOW);
        DeadLetterEvent<Ev> dead = assertInstanceOf(DeadLetterEvent.class, out.readRecord().value());
        assertTrue(dead.reason().contains("without a value"), dead.reason());
        assertMatchesAfterwards();
    }

    @Test
    void aTimestampFarAheadOfTheWallClockIsADeadLetterAndLeavesTheWatermark() {
        long farAhead = NOW + Duration.ofDays(365).toMillis();
        in.pipeInput("k", ev('A', 1, farAhead), farAhead);
        TestRecord<String, CepOutput<Ev>> r = out.readRecord();
        DeadLetterEvent<Ev> dead = assertInstanceOf(DeadLetterEvent.class, r.value());
        assertTrue(dead.reason().contains("ahead of the wall clock"), dead.reason());
        assertEquals(farAhead, r.timestamp());
        assertMatchesAfterwards(); // not late: the watermark did not move
    }

    @Test
    void aConditionThatThrowsMakesADeadLetterNamingThePattern() {
        in.pipeInput("k", ev('A', 1, NOW), NOW);
        in.pipeInput("k", ev('A', 13, NOW + 1), NOW + 1);
        in.pipeInput("k", ev('B', 2, NOW + 2), NOW + 2);
        in.pipeInput("other", ev('X', 0, NOW + 10), NOW + 10); // moves the watermark past them
        List<CepOutput<Ev>> results = out.readValuesToList();
        DeadLetterEvent<Ev> dead = assertInstanceOf(DeadLetterEvent.class, results.get(0));
        assertEquals("a-then-b", dead.pattern());
        assertEquals(13, dead.event().value());
        assertTrue(dead.reason().contains("value 13 is not allowed"), dead.reason());
        PatternMatch<Ev> match = assertInstanceOf(PatternMatch.class, results.get(1));
        assertEquals("{a=[A1@" + NOW + "], b=[B2@" + (NOW + 2) + "]}", match.match().toString());
        assertEquals(2, results.size(), results.toString());
    }

    @Test
    void aValueThatCannotBeReadGoesToKafkasDeadLetterQueueAndTheStreamGoesOn() {
        driver.close();
        StreamsBuilder builder = new StreamsBuilder();
        CepStreams<String, Ev> results = CepStreams.of(builder.stream("events",
                Consumed.with(Serdes.String(), new EvSerde())), CepProcessorSupplier
                .builder("bad", Serdes.String(), new EvSerde()).inMemoryStore()
                .pattern("a-then-b", Pattern.<Ev>begin("a").where(e -> e.type() == 'A').followedBy("b")
                        .where(e -> e.type() == 'B'))
                .build());
        results.all().to("results", Produced.with(Serdes.String(), results.outputSerde()));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "bad-input-dlq");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                LogAndContinueExceptionHandler.class.getName());
        props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, "events-dlq");
        driver = new TopologyTestDriver(builder.build(), props, WALL_CLOCK);
        out = driver.createOutputTopic("results", Serdes.String().deserializer(),
                CepSerdes.output(new EvSerde()).deserializer());
        in = driver.createInputTopic("events", Serdes.String().serializer(), new EvSerde().serializer());
        TestInputTopic<String, byte[]> raw = driver.createInputTopic("events", Serdes.String().serializer(),
                Serdes.ByteArray().serializer());
        raw.pipeInput("k", new byte[] {1, 2, 3}, NOW);
        TestOutputTopic<String, byte[]> dlq = driver.createOutputTopic("events-dlq", Serdes.String().deserializer(),
                Serdes.ByteArray().deserializer());
        TestRecord<String, byte[]> dead = dlq.readRecord();
        assertEquals("k", dead.key());
        assertTrue(new String(dead.headers().lastHeader("__streams.errors.exception").value(),
                java.nio.charset.StandardCharsets.UTF_8).contains("Exception"));
        assertTrue(out.isEmpty());
        assertMatchesAfterwards();
    }

    /** The key matches as if nothing bad had come. */
    private void assertMatchesAfterwards() {
        in.pipeInput("k", ev('A', 5, NOW + 1), NOW + 1);
        in.pipeInput("k", ev('B', 6, NOW + 2), NOW + 2);
        in.pipeInput("other", ev('X', 0, NOW + 10), NOW + 10);
        List<CepOutput<Ev>> results = out.readValuesToList();
        assertEquals(1, results.size(), results.toString());
        assertInstanceOf(PatternMatch.class, results.get(0));
    }
}
