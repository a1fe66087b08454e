package io.cepheus.benchmarks.kafka;

import io.cepheus.benchmarks.StopwatchClock;
import io.cepheus.benchmarks.workloads.BenchEvent;
import io.cepheus.benchmarks.workloads.MatchChecksum;
import io.cepheus.benchmarks.workloads.RunResult;
import io.cepheus.benchmarks.workloads.Workload;
import io.cepheus.benchmarks.workloads.WorkloadStream;
import io.cepheus.benchmarks.workloads.Workloads;
import io.cepheus.kafka.CepOutput;
import io.cepheus.kafka.CepProcessorSupplier;
import io.cepheus.kafka.PatternMatch;
import io.cepheus.kafka.PatternTimeout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.IntegerSerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Runs a benchmark workload through the Kafka Streams adapter ({@link CepProcessorSupplier}) on
 * {@link TopologyTestDriver}: the real Kafka Streams runtime on the caller's thread (a stream thread's work on one
 * task: deserialization, the processor, the cached and changelogged state store, a commit after every record), no
 * broker. The watermark follows the records (bounded out-of-orderness of zero: the workloads are in order), and a
 * closing record of a key and type no pattern knows, one window after the last event, closes every window, as the
 * end of a bounded input does.
 *
 * <p>Runs on the caller's thread.
 */
public final class KafkaWorkloadRunner {

    /** The key of the closing record. */
    static final int CLOSING_KEY = -1;

    private KafkaWorkloadRunner() {
    }

    /**
     * The processor's state store at the middle of the stream: its key entries (each a live key's matching state)
     * and its buffered events.
     *
     * @param keys         key entries
     * @param keyBytes     their bytes, keys and values
     * @param events       buffered-event entries
     * @param eventBytes   their bytes
     */
    public record StoreSample(long keys, long keyBytes, long events, long eventBytes) {
        /** @return bytes per key entry */
        public double bytesPerKey() {
            return keys == 0 ? 0 : (double) keyBytes / keys;
        }
    }

    /** What one run gave and took. */
    public record Outcome(RunResult result, long nanos, long changelogRecords, StoreSample middle) {
        /** @return events per second */
        public double eventsPerSecond(int events) {
            return events / (nanos / 1e9);
        }
    }

    /**
     * Runs a workload and prints its counts, speed and mid-stream store size.
     *
     * <pre>java -cp benchmarks/target/benchmarks.jar io.cepheus.benchmarks.kafka.KafkaWorkloadRunner W2 [rocksdb]</pre>
     *
     * @param args the workload, then {@code rocksdb} for a persistent store (default in memory)
     */
    public static void main(String[] args) {
        Workload workload = Workload.valueOf(args.length > 0 ? args[0] : "W2");
        boolean inMemory = args.length < 2 || !args[1].equals("rocksdb");
        WorkloadStream stream = io.cepheus.benchmarks.workloads.WorkloadGenerator.generate(workload);
        Outcome o = run(stream, inMemory);
        System.out.printf(java.util.Locale.ROOT, "%s on TopologyTestDriver (%s store): %s, %.0f events/s, %,d changelog"
                + " records, mid-stream store %s (%.0f B per key entry)%n", workload, inMemory ? "in-memory"
                : "RocksDB", o.result(), o.eventsPerSecond(stream.size()), o.changelogRecords(), o.middle(),
                o.middle().bytesPerKey());
    }

    /**
     * @param stream   the workload's events
     * @param inMemory whether the state store is in memory (else RocksDB)
     * @return the counts, the time the records took, and how many changelog records they wrote
     */
    public static Outcome run(WorkloadStream stream, boolean inMemory) {
        Workload workload = stream.workload();
        Tally tally = new Tally();
        CepProcessorSupplier.Builder<Integer, BenchEvent> builder = CepProcessorSupplier
                .builder("bench", Serdes.Integer(), new BenchEventSerde())
                .maxTimestampAhead(null)
                .pattern(workload.name(), Workloads.pattern(workload));
        if (inMemory) {
            builder.inMemoryStore();
        }
        CepProcessorSupplier<Integer, BenchEvent> cep = builder.build();
        StreamsBuilder topology = new StreamsBuilder();
        topology.stream("events", Consumed.with(Serdes.Integer(), new BenchEventSerde())).process(cep)
                .process(() -> new Processor<Integer, CepOutput<BenchEvent>, Void, Void>() {
                    @Override
                    public void process(Record<Integer, CepOutput<BenchEvent>> record) {
                        tally.add(record.value());
                    }
                });
        Topology built = topology.build();
        Path stateDir = tempDir();
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "cepheus-bench");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        long changelogRecords = 0;
        long nanos;
        try (TopologyTestDriver driver = new TopologyTestDriver(built, props, Instant.EPOCH)) {
            TestInputTopic<Integer, BenchEvent> in = driver.createInputTopic("events", new IntegerSerializer(),
                    new BenchEventSerde().serializer());
            TestOutputTopic<byte[], byte[]> changelog = driver.createOutputTopic(
                    "cepheus-bench-" + cep.storeName() + "-changelog", new ByteArrayDeserializer(),
                    new ByteArrayDeserializer());
            BenchEvent[] events = stream.events();
            StoreSample middle = null;
            long start = StopwatchClock.nanos();
            long sampling = 0;
            for (int i = 0; i < events.length; i++) {
                if (i == events.length / 2) {
                    long s0 = StopwatchClock.nanos();
                    middle = sample(driver.getKeyValueStore(cep.storeName()));
                    sampling = StopwatchClock.nanos() - s0;
                }
                in.pipeInput(events[i].key(), events[i], events[i].ts());
                if ((i & 0x3fff) == 0) {
                    changelogRecords += changelog.getQueueSize(); // the driver keeps what it captured: let it go
                    changelog.readRecordsToList();
                }
            }
            long last = events[events.length - 1].ts();
            in.pipeInput(CLOSING_KEY, new BenchEvent(CLOSING_KEY, '-', 0, last + workload.windowMs() + 1),
                    last + workload.windowMs() + 1);
            nanos = StopwatchClock.nanos() - start - sampling;
            changelogRecords += changelog.getQueueSize();
            return new Outcome(tally.result(), nanos, changelogRecords, middle);
        } finally {
            deleteTree(stateDir);
        }
    }

    private static StoreSample sample(org.apache.kafka.streams.state.KeyValueStore<Object, Object> store) {
        long keys = 0;
        long keyBytes = 0;
        long buffered = 0;
        long eventBytes = 0;
        try (org.apache.kafka.streams.state.KeyValueIterator<Object, Object> it = store.all()) {
            while (it.hasNext()) {
                org.apache.kafka.streams.KeyValue<Object, Object> e = it.next();
                byte[] k = ((org.apache.kafka.common.utils.Bytes) e.key).get();
                long size = k.length + ((byte[]) e.value).length;
                if (k[0] == 'K') {
                    keys++;
                    keyBytes += size;
                } else if (k[0] == 'E') {
                    buffered++;
                    eventBytes += size;
                }
            }
        }
        return new StoreSample(keys, keyBytes, buffered, eventBytes);
    }

    /** Counts the matches and timeouts as the workloads define them. */
    private static final class Tally {
        long matches;
        long timeouts;
        long checksum;

        void add(CepOutput<BenchEvent> output) {
            if (output instanceof PatternMatch<BenchEvent> m) {
                matches++;
                checksum += MatchChecksum.mix(m.match().firstTimestamp(), m.match().lastTimestamp());
            } else if (output instanceof PatternTimeout<BenchEvent>) {
                timeouts++;
            }
        }

        RunResult result() {
            return new RunResult(matches, timeouts, checksum);
        }
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("cepheus-kafka-bench");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
