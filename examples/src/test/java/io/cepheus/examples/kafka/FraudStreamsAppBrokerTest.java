package io.cepheus.examples.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.examples.Alert;
import io.cepheus.examples.FraudEvent;
import io.cepheus.examples.SampleStream;
import io.cepheus.kafka.KafkaBroker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The fraud demo on a real Kafka broker (KRaft, in the test JVM): its events on a topic of four partitions, two
 * instances of {@link FraudStreamsApp} under {@code exactly_once_v2}, each in a JVM of its own, one killed with
 * {@code SIGKILL} while it works and started again on the same state directory. Read with {@code read_committed},
 * the alerts topic holds each alert the planted fraud raises exactly once: none lost with the killed instance's
 * state, none written twice by its replayed input.
 */
class FraudStreamsAppBrokerTest {

    private static final int PARTITIONS = 4;
    private static final Duration PATIENCE = Duration.ofSeconds(120);
    private static Path dir;
    private static KafkaBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        dir = Files.createTempDirectory("cepheus-broker-test");
        broker = KafkaBroker.start(dir.resolve("broker"));
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrap()))) {
            admin.createTopics(List.of(new NewTopic(FraudStreamsApp.EVENTS, PARTITIONS, (short) 1),
                    new NewTopic(FraudStreamsApp.ALERTS, 1, (short) 1),
                    new NewTopic(FraudStreamsApp.REJECTED, 1, (short) 1))).all().get();
        }
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
        deleteTree(dir);
    }

    @Test
    void eachAlertExactlyOnceAcrossAKilledInstance() throws Exception {
        SampleStream stream = SampleStream.generate(SampleStream.DEFAULT_SEED);
        List<FraudEvent> events = stream.events();
        List<Alert> planted = stream.plantedAlerts();
        // commits 5 s apart: when the instance is killed, the alerts it just wrote are in a transaction still open
        // (at least once, they would be out already, and written again when its input is replayed)
        List<String> settings = List.of("commit.interval.ms=5000", "consumer.session.timeout.ms=6000",
                "consumer.heartbeat.interval.ms=1000", "producer.transaction.timeout.ms=10000");
        Path logs = Path.of("target", "fraud-broker-test");
        Files.createDirectories(logs);
        AppProcess a = AppProcess.start(broker.bootstrap(), dir.resolve("state-a"), logs.resolve("a.log"), settings);
        AppProcess b = AppProcess.start(broker.bootstrap(), dir.resolve("state-b"), logs.resolve("b.log"), settings);
        try (KafkaProducer<String, String> producer = producer();
                KafkaConsumer<String, String> committed = alertsConsumer("read_committed");
                KafkaConsumer<String, String> uncommitted = alertsConsumer("read_uncommitted")) {
            List<String> seen = new ArrayList<>();
            int third = events.size() / 3;
            produce(producer, events.subList(0, third));
            // the alerts completed a minute before the last event sent: every partition's watermark is past them
            awaitAlerts(committed, seen, planted, events.get(third - 1).ts() - 60_000);

            produce(producer, events.subList(third, 2 * third));
            List<String> written = new ArrayList<>();
            awaitAlerts(uncommitted, written, planted, events.get(2 * third - 1).ts() - 60_000);
            b.kill(); // its latest alerts written, their transaction not committed yet
            b = AppProcess.start(broker.bootstrap(), dir.resolve("state-b"), logs.resolve("b.log"), settings);

            produce(producer, events.subList(2 * third, events.size()));
            closeEveryPartition(producer, SampleStream.START + SampleStream.LENGTH.toMillis() + 3_600_000);
            awaitAlerts(committed, seen, planted, Long.MAX_VALUE);
            awaitInputCommitted();
            readToEnd(committed, seen);

            List<String> expected = planted.stream().map(Alert::describe).sorted().toList();
            assertEquals(expected, seen.stream().sorted().toList(), "the alerts topic, read_committed (instance logs"
                    + " in " + logs.toAbsolutePath() + ")");
        } finally {
            a.stop();
            b.stop();
        }
    }

    private static KafkaProducer<String, String> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
    }

    private static KafkaConsumer<String, String> alertsConsumer(String isolation) {
        KafkaConsumer<String, String> c = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class));
        c.assign(List.of(new TopicPartition(FraudStreamsApp.ALERTS, 0)));
        c.seekToBeginning(c.assignment());
        return c;
    }

    /** Sends the events, each under its account's key and with its time as the record's timestamp. */
    private static void produce(KafkaProducer<String, String> producer, List<FraudEvent> events) {
        FraudEventSerde serde = new FraudEventSerde();
        for (FraudEvent e : events) {
            producer.send(new ProducerRecord<>(FraudStreamsApp.EVENTS, null, e.ts(), FraudStreamsApp.accountKey(e),
                    new String(serde.serializer().serialize(FraudStreamsApp.EVENTS, e),
                            java.nio.charset.StandardCharsets.UTF_8)));
        }
        producer.flush();
    }

    /**
     * The end of the input: a successful login at {@code time} on every partition, which moves each task's
     * watermark past the last events (a successful login raises nothing).
     */
    private static void closeEveryPartition(KafkaProducer<String, String> producer, long time) {
        FraudEventSerde serde = new FraudEventSerde();
        for (int p = 0; p < PARTITIONS; p++) {
            FraudEvent end = FraudEvent.login(time, "end-of-input-" + p, "A", true);
            producer.send(new ProducerRecord<>(FraudStreamsApp.EVENTS, p, time, FraudStreamsApp.accountKey(end),
                    new String(serde.serializer().serialize(FraudStreamsApp.EVENTS, end),
                            java.nio.charset.StandardCharsets.UTF_8)));
        }
        producer.flush();
    }

    /** Reads alerts until every planted alert completed by an event at or before {@code upTo} is there. */
    private static void awaitAlerts(KafkaConsumer<String, String> alerts, List<String> seen, List<Alert> planted,
            long upTo) {
        List<String> due = planted.stream().filter(x -> x.time() <= upTo).map(Alert::describe).toList();
        awaitCondition(() -> {
            alerts.poll(Duration.ofMillis(200)).forEach(r -> seen.add(r.value()));
            return seen.containsAll(due);
        }, () -> "alerts due " + due.size() + ", seen " + seen);
    }

    /** Waits until the application committed its whole input: nothing of it will be processed again. */
    private static void awaitInputCommitted() {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrap()))) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < PARTITIONS; p++) {
                latest.put(new TopicPartition(FraudStreamsApp.EVENTS, p), OffsetSpec.latest());
            }
            awaitCondition(() -> {
                try {
                    Map<TopicPartition, Long> ends = new HashMap<>();
                    admin.listOffsets(latest).all().get().forEach((tp, info) -> ends.put(tp, info.offset()));
                    Map<TopicPartition, OffsetAndMetadata> committed = admin
                            .listConsumerGroupOffsets(FraudStreamsApp.APPLICATION_ID)
                            .partitionsToOffsetAndMetadata().get();
                    return ends.entrySet().stream().allMatch(e -> committed.get(e.getKey()) != null
                            && committed.get(e.getKey()).offset() >= e.getValue());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, () -> "the application's committed offsets never reached the end of " + FraudStreamsApp.EVENTS);
        }
    }

    /** Reads the alerts topic up to its last committed record. */
    private static void readToEnd(KafkaConsumer<String, String> alerts, List<String> seen) {
        TopicPartition tp = new TopicPartition(FraudStreamsApp.ALERTS, 0);
        long end = alerts.endOffsets(List.of(tp)).get(tp); // read_committed: the last stable offset
        awaitCondition(() -> {
            for (ConsumerRecord<String, String> r : alerts.poll(Duration.ofMillis(200))) {
                seen.add(r.value());
            }
            return alerts.position(tp) >= end;
        }, () -> "the alerts topic was not read to its end " + end);
    }

    /**
     * Asks {@code done} until it holds, for at most {@link #PATIENCE}: a bounded wait on the broker and the instances,
     * real processes whose pace the test does not set. Between questions it waits 50 ms, so as not to flood the
     * broker with requests.
     */
    private static void awaitCondition(BooleanSupplier done, java.util.function.Supplier<String> failure) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, failure);
            java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
        }
    }

    private static void deleteTree(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
