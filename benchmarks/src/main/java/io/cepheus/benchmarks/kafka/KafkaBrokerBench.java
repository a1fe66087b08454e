package io.cepheus.benchmarks.kafka;

import io.cepheus.benchmarks.StopwatchClock;
import io.cepheus.benchmarks.RuntimeWorkloadRunner;
import io.cepheus.benchmarks.workloads.BenchEvent;
import io.cepheus.benchmarks.workloads.MatchChecksum;
import io.cepheus.benchmarks.workloads.RunResult;
import io.cepheus.benchmarks.workloads.Workload;
import io.cepheus.benchmarks.workloads.WorkloadGenerator;
import io.cepheus.benchmarks.workloads.WorkloadStream;
import io.cepheus.benchmarks.workloads.Workloads;
import io.cepheus.kafka.CepOutput;
import io.cepheus.kafka.CepProcessorSupplier;
import io.cepheus.kafka.KafkaBroker;
import io.cepheus.kafka.PatternMatch;
import io.cepheus.kafka.PatternTimeout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.IntegerSerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;

/**
 * A workload through the Kafka Streams adapter on a real broker (Kafka's own, KRaft, in this JVM), beside the
 * in-JVM engine on the same events: the events are produced to a topic of two partitions first (keyed by the
 * workload's key, one closing record per partition after them), then an application with 1 and then 2 stream
 * threads, {@code exactly_once_v2}, RocksDB stores, reads them; the time runs from the application's RUNNING state to
 * the moment it has emitted every match and timeout the workload defines, and each run must reproduce the published
 * counts and checksum before its speed is reported.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.cepheus.benchmarks.kafka.KafkaBrokerBench [W1|W2|W3|W4] [THREADS...]
 * </pre>
 * (stream threads default: 1 then 2).
 */
public final class KafkaBrokerBench {

    private static final int PARTITIONS = 2;

    private KafkaBrokerBench() {
    }

    /**
     * @param args the workload (default W2), then the stream-thread counts to run (default 1 2)
     * @throws Exception if the broker or a run fails
     */
    public static void main(String[] args) throws Exception {
        Workload workload = Workload.valueOf(args.length > 0 ? args[0] : "W2");
        WorkloadStream stream = WorkloadGenerator.generate(workload);
        RuntimeWorkloadRunner engine = RuntimeWorkloadRunner.forWorkload(workload, 1);
        long e0 = StopwatchClock.nanos();
        RunResult inJvm = engine.run(stream);
        double inJvmRate = stream.size() / ((StopwatchClock.nanos() - e0) / 1e9);
        System.out.printf(Locale.ROOT, "%s in-JVM engine, 1 shard: %s, %.0f events/s%n", workload, inJvm, inJvmRate);

        Path dir = Files.createTempDirectory("cepheus-kafka-bench");
        try (KafkaBroker broker = KafkaBroker.start(dir.resolve("broker"))) {
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrap()))) {
                admin.createTopics(List.of(new NewTopic("events", PARTITIONS, (short) 1))).all().get();
            }
            long p0 = StopwatchClock.nanos();
            produce(broker.bootstrap(), stream);
            System.out.printf(Locale.ROOT, "produced %,d events in %.1f s%n", stream.size(),
                    (StopwatchClock.nanos() - p0) / 1e9);
            int[] threadCounts = args.length > 1
                    ? java.util.Arrays.stream(args, 1, args.length).mapToInt(Integer::parseInt).toArray()
                    : new int[] {1, 2};
            for (int threads : threadCounts) {
                baseline(broker.bootstrap(), stream, threads, false, dir.resolve("plain-" + threads));
                baseline(broker.bootstrap(), stream, threads, true, dir.resolve("stored-" + threads));
                run(broker.bootstrap(), workload, stream, threads, dir.resolve("state-" + threads));
            }
        }
    }

    private static void produce(String bootstrap, WorkloadStream stream) {
        try (KafkaProducer<Integer, BenchEvent> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.LINGER_MS_CONFIG, 20,
                ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024, ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                IntegerSerializer.class, ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                BenchEventSerde.class.getName() + "$Writer"))) {
            for (BenchEvent e : stream.events()) {
                producer.send(new ProducerRecord<>("events", null, e.ts(), e.key(), e));
            }
            long last = stream.events()[stream.size() - 1].ts() + stream.workload().windowMs() + 1;
            for (int p = 0; p < PARTITIONS; p++) {
                BenchEvent closing = new BenchEvent(KafkaWorkloadRunner.CLOSING_KEY, '-', 0, last);
                producer.send(new ProducerRecord<>("events", p, last, KafkaWorkloadRunner.CLOSING_KEY, closing));
            }
            producer.flush();
        }
    }

    /**
     * What Kafka Streams costs without Cepheus, on the same records and settings: a processor that only counts them,
     * and ({@code stores}) one that also writes 220 bytes per record to a RocksDB store with caching and a changelog,
     * as much as the Cepheus processor keeps per live key of this workload.
     */
    private static void baseline(String bootstrap, WorkloadStream stream, int threads, boolean stores, Path stateDir)
            throws InterruptedException {
        AtomicLong seen = new AtomicLong();
        CountDownLatch done = new CountDownLatch(1);
        long expected = stream.size() + PARTITIONS;
        StreamsBuilder builder = new StreamsBuilder();
        String store = "baseline-store";
        if (stores) {
            builder.addStateStore(org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
                    org.apache.kafka.streams.state.Stores.persistentKeyValueStore(store), Serdes.Integer(),
                    Serdes.ByteArray()).withCachingEnabled());
        }
        byte[] state = new byte[220];
        builder.stream("events", Consumed.with(Serdes.Integer(), new BenchEventSerde()))
                .process(() -> new Processor<Integer, BenchEvent, Void, Void>() {
                    private org.apache.kafka.streams.state.KeyValueStore<Integer, byte[]> kv;

                    @Override
                    public void init(org.apache.kafka.streams.processor.api.ProcessorContext<Void, Void> context) {
                        kv = stores ? context.getStateStore(store) : null;
                    }

                    @Override
                    public void process(Record<Integer, BenchEvent> record) {
                        if (kv != null) {
                            kv.put(record.key(), state);
                        }
                        if (seen.incrementAndGet() >= expected) {
                            done.countDown();
                        }
                    }
                }, stores ? new String[] {store} : new String[0]);
        String what = stores ? "a store put per record" : "a counting processor";
        timed(bootstrap, builder, "baseline-" + (stores ? "stored-" : "plain-") + threads, threads, stateDir, done,
                () -> "  ... " + seen.get() + " records", nanos -> System.out.printf(Locale.ROOT,
                        "baseline, %s, %d stream thread(s), exactly_once_v2: %.0f records/s (%.1f s from RUNNING)%n",
                        what, threads, expected / (nanos / 1e9), nanos / 1e9));
    }

    /** Runs an application until {@code done}, timing it from its RUNNING state. */
    private static void timed(String bootstrap, StreamsBuilder builder, String applicationId, int threads,
            Path stateDir, CountDownLatch done, java.util.function.Supplier<String> progress,
            java.util.function.LongConsumer report) throws InterruptedException {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, threads);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        long[] running = {0};
        KafkaStreams streams = new KafkaStreams(builder.build(), p);
        try {
            streams.setStateListener((now, before) -> {
                if (now == KafkaStreams.State.RUNNING && running[0] == 0) {
                    running[0] = StopwatchClock.nanos();
                }
            });
            long started = StopwatchClock.nanos();
            streams.start();
            while (!done.await(10, TimeUnit.SECONDS)) {
                System.out.println(progress.get() + " (" + streams.state() + ")");
                if (StopwatchClock.nanos() - started > TimeUnit.MINUTES.toNanos(10)) {
                    throw new IllegalStateException(applicationId + " did not finish within 10 minutes");
                }
            }
            report.accept(StopwatchClock.nanos() - running[0]);
        } finally {
            streams.close(java.time.Duration.ofSeconds(30));
        }
    }

    private static void run(String bootstrap, Workload workload, WorkloadStream stream, int threads, Path stateDir)
            throws InterruptedException {
        AtomicLong matches = new AtomicLong();
        AtomicLong timeouts = new AtomicLong();
        AtomicLong checksum = new AtomicLong();
        long expected = workload.expectedMatches() + (workload.countsTimeouts() ? workload.expectedTimeouts() : 0);
        CountDownLatch done = new CountDownLatch(1);
        CepProcessorSupplier<Integer, BenchEvent> cep = CepProcessorSupplier
                .builder("bench", Serdes.Integer(), new BenchEventSerde())
                .maxTimestampAhead(null)
                .pattern(workload.name(), Workloads.pattern(workload))
                .build();
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("events", Consumed.with(Serdes.Integer(), new BenchEventSerde())).process(cep)
                .process(() -> new Processor<Integer, CepOutput<BenchEvent>, Void, Void>() {
                    @Override
                    public void process(Record<Integer, CepOutput<BenchEvent>> record) {
                        if (record.value() instanceof PatternMatch<BenchEvent> m) {
                            matches.incrementAndGet();
                            checksum.addAndGet(MatchChecksum.mix(m.match().firstTimestamp(),
                                    m.match().lastTimestamp()));
                        } else if (record.value() instanceof PatternTimeout<BenchEvent>) {
                            timeouts.incrementAndGet();
                        }
                        long counted = matches.get() + (workload.countsTimeouts() ? timeouts.get() : 0);
                        if (counted >= expected) {
                            done.countDown();
                        }
                    }
                });
        timed(bootstrap, builder, "cepheus-bench-" + workload + "-" + threads, threads, stateDir, done,
                () -> String.format(Locale.ROOT, "  ... %,d matches, %,d timeouts", matches.get(), timeouts.get()),
                nanos -> {
                    RunResult result = new RunResult(matches.get(), timeouts.get(), checksum.get());
                    List<String> wrong = result.differencesFrom(workload);
                    if (!wrong.isEmpty()) {
                        throw new IllegalStateException(workload + " through the broker: " + wrong);
                    }
                    System.out.printf(Locale.ROOT, "%s through the Cepheus processor, %d stream thread(s),"
                            + " exactly_once_v2, RocksDB: %s, %.0f events/s (%.1f s from RUNNING)%n", workload,
                            threads, result, stream.size() / (nanos / 1e9), nanos / 1e9);
                });
    }
}
