package io.cepheus.benchmarks.kafka;

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

    /** What one run gave and took. */
    public record Outcome(RunResult result, long nanos, long changelogRecords) {
        /** @return events per second */
        public double eventsPerSecond(int events) {
            return events / (nanos / 1e9);
        }
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
            long start = System.nanoTime();
            for (int i = 0; i < events.length; i++) {
                in.pipeInput(events[i].key(), events[i], events[i].ts());
                if ((i & 0x3fff) == 0) {
                    changelogRecords += changelog.getQueueSize(); // the driver keeps what it captured: let it go
                    changelog.readRecordsToList();
                }
            }
            long last = events[events.length - 1].ts();
            in.pipeInput(CLOSING_KEY, new BenchEvent(CLOSING_KEY, '-', 0, last + workload.windowMs() + 1),
                    last + workload.windowMs() + 1);
            nanos = System.nanoTime() - start;
            changelogRecords += changelog.getQueueSize();
        } finally {
            deleteTree(stateDir);
        }
        return new Outcome(tally.result(), nanos, changelogRecords);
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
