package io.cepheus.examples.kafka;

import io.cepheus.examples.Alert;
import io.cepheus.examples.FraudDetector;
import io.cepheus.examples.FraudEvent;
import io.cepheus.kafka.CepProcessorSupplier;
import io.cepheus.kafka.CepStreams;
import io.cepheus.kafka.PatternMatch;
import io.cepheus.nfa.Match;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The fraud demo as a Kafka Streams application: the brute-force and card-testing rules of {@link FraudDetector} over
 * a topic of logins and payments, keyed by account ({@link #accountKey}), with each alert written once to the alerts
 * topic under {@code exactly_once_v2}. Run as many instances as the events topic has partitions to spread; each
 * keeps its keys' state in a changelogged store and takes over another's partitions after a crash.
 *
 * <pre>
 * java -cp cepheus-demo.jar io.cepheus.examples.kafka.FraudStreamsApp --bootstrap localhost:9092 \
 *      [--events fraud-events] [--alerts fraud-alerts] [--rejected fraud-rejected] [--state-dir DIR] [--threads N]
 *      [--config NAME=VALUE]...
 * </pre>
 * {@code --config} sets any Kafka Streams setting ({@code consumer.session.timeout.ms=10000}, ...).
 */
public final class FraudStreamsApp {

    /** The events topic unless told otherwise. */
    public static final String EVENTS = "fraud-events";
    /** The alerts topic unless told otherwise. */
    public static final String ALERTS = "fraud-alerts";
    /** The topic of records the rules could not match, unless told otherwise. */
    public static final String REJECTED = "fraud-rejected";
    /** The application id: the consumer group, and the prefix of the changelog topic. */
    public static final String APPLICATION_ID = "cepheus-fraud";
    /** How far out of order events may arrive on a partition before they count as late. */
    public static final Duration OUT_OF_ORDERNESS = Duration.ofSeconds(5);

    private FraudStreamsApp() {
    }

    /**
     * @param event a login or a payment
     * @return its record key: the account its rules match it for ({@code LOGIN:u17}, {@code PAYMENT:c42}), so that
     *         every event of an account goes to one partition
     */
    public static String accountKey(FraudEvent event) {
        FraudDetector.Account account = FraudDetector.accountOf(event);
        return account.kind() + ":" + account.id();
    }

    /**
     * @param events   the events topic, keyed by {@link #accountKey}
     * @param alerts   where alerts go: key the alert's subject, value its one-line description
     * @param rejected where records the rules could not match go, with the reason
     * @return the application's topology
     */
    public static Topology topology(String events, String alerts, String rejected) {
        CepProcessorSupplier<String, FraudEvent> rules = CepProcessorSupplier
                .builder("fraud", Serdes.String(), new FraudEventSerde())
                .watermarks(WatermarkStrategy.<FraudEvent>forBoundedOutOfOrderness(OUT_OF_ORDERNESS)
                        .withTimestampAssigner((event, recordTimestamp) -> event.ts()))
                .pattern(FraudDetector.BRUTE_FORCE, FraudDetector.bruteForceLogins())
                .pattern(FraudDetector.CARD_TESTING, FraudDetector.cardTesting())
                .build();
        StreamsBuilder builder = new StreamsBuilder();
        CepStreams<String, FraudEvent> cep = CepStreams.of(
                builder.stream(events, Consumed.with(Serdes.String(), new FraudEventSerde())), rules);
        cep.matches().map((account, m) -> {
            Alert alert = alertOf(m);
            return KeyValue.pair(alert.key(), alert.describe());
        }).to(alerts, Produced.with(Serdes.String(), Serdes.String()));
        cep.deadLetters().mapValues(d -> d.reason() + (d.event() == null ? "" : ": " + d.event()))
                .to(rejected, Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    /** @return the alert a match of one of the two rules raises */
    static Alert alertOf(PatternMatch<FraudEvent> m) {
        Match<FraudEvent> match = m.match();
        return m.pattern().equals(FraudDetector.BRUTE_FORCE) ? FraudDetector.bruteForceAlert(match.events("failed"))
                : FraudDetector.cardTestingAlert(match.events("probe").get(0), match.events("charge").get(0));
    }

    /**
     * @param bootstrap the Kafka cluster
     * @param stateDir  where the instance keeps its stores
     * @param threads   stream threads
     * @return the application's settings: exactly once, commits every 100 ms (alerts appear that soon)
     */
    public static Properties settings(String bootstrap, String stateDir, int threads) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, threads);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        return p;
    }

    /**
     * Runs one instance until the process is stopped.
     *
     * @param args {@code --bootstrap HOST:PORT} and the options of the class comment
     * @throws InterruptedException if interrupted while running
     */
    public static void main(String[] args) throws InterruptedException {
        String bootstrap = null;
        String events = EVENTS;
        String alerts = ALERTS;
        String rejected = REJECTED;
        String stateDir = System.getProperty("java.io.tmpdir") + "/cepheus-fraud";
        int threads = 1;
        Properties extra = new Properties();
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--bootstrap" -> bootstrap = value;
                case "--events" -> events = value;
                case "--alerts" -> alerts = value;
                case "--rejected" -> rejected = value;
                case "--state-dir" -> stateDir = value;
                case "--threads" -> threads = Integer.parseInt(value);
                case "--config" -> {
                    int eq = value == null ? -1 : value.indexOf('=');
                    if (eq < 1) {
                        throw new IllegalArgumentException("--config takes NAME=VALUE, got " + value);
                    }
                    extra.put(value.substring(0, eq), value.substring(eq + 1));
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
            i++;
        }
        if (bootstrap == null) {
            throw new IllegalArgumentException("--bootstrap HOST:PORT is required");
        }
        Properties settings = settings(bootstrap, stateDir, threads);
        settings.putAll(extra);
        KafkaStreams streams = new KafkaStreams(topology(events, alerts, rejected), settings);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close(Duration.ofSeconds(30));
            stopped.countDown();
        }, "fraud-app-shutdown"));
        streams.start();
        System.out.println("fraud rules running on " + bootstrap + ": " + events + " -> " + alerts);
        stopped.await();
    }
}
