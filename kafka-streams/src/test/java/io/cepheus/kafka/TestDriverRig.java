package io.cepheus.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.BytesDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/**
 * A {@link TopologyTestDriver} on a topology whose Cepheus processor keeps its state in a {@link DurableStore}, with
 * one input topic ({@code "events"}) and one output topic ({@code "results"}), that can be closed and reopened at
 * any point of the input: on the state the old driver left ({@link Restart#SAME_STATE}), or on state rebuilt from
 * the changelog topic's records alone ({@link Restart#FROM_CHANGELOG}), which must equal it. Outputs and changelog
 * records are kept across restarts. Used on the test's thread.
 *
 * @param <K> the key type
 * @param <V> the input value type
 * @param <R> the output value type
 */
public final class TestDriverRig<K, V, R> implements AutoCloseable {

    /** How the driver restarts. */
    public enum Restart {
        /** The new driver opens the store the old one closed, as an instance restarted on its state directory. */
        SAME_STATE,
        /** The new driver opens a store rebuilt from the changelog alone, as an instance whose directory was wiped. */
        FROM_CHANGELOG
    }

    /** The application id of the drivers. */
    public static final String APPLICATION = "cepheus-test";

    private final Function<DurableStore, Topology> topology;
    private final String storeName;
    private final Serializer<K> keys;
    private final Serializer<V> values;
    private final Deserializer<K> outKeys;
    private final Deserializer<R> outValues;
    private final List<KeyValue<Bytes, byte[]>> changelog = new ArrayList<>();
    private final List<TestRecord<K, R>> results = new ArrayList<>();
    private DurableStore store;
    private TopologyTestDriver driver;
    private TestInputTopic<K, V> input;
    private TestOutputTopic<K, R> output;
    private TestOutputTopic<Bytes, byte[]> changelogTopic;
    private Path stateDir;
    private int restarts;

    /**
     * @param topology  makes the topology with the processor's store; called once per driver
     * @param storeName the processor's store name
     */
    public TestDriverRig(Function<DurableStore, Topology> topology, String storeName, Serializer<K> keys,
            Serializer<V> values, Deserializer<K> outKeys, Deserializer<R> outValues) {
        this.topology = topology;
        this.storeName = storeName;
        this.keys = keys;
        this.values = values;
        this.outKeys = outKeys;
        this.outValues = outValues;
        open(new DurableStore(storeName));
    }

    private void open(DurableStore next) {
        this.store = next;
        this.stateDir = tempDir();
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        driver = new TopologyTestDriver(topology.apply(store), props, Instant.EPOCH);
        input = driver.createInputTopic("events", keys, values);
        output = driver.createOutputTopic("results", outKeys, outValues);
        changelogTopic = driver.createOutputTopic(APPLICATION + "-" + storeName + "-changelog",
                new BytesDeserializer(), new ByteArrayDeserializer());
    }

    /** Pipes one record. */
    public void pipe(K key, V value, long timestamp) {
        input.pipeInput(key, value, timestamp);
    }

    /** @return the driver, for what the rig does not cover (wall-clock time, stores) */
    public TopologyTestDriver driver() {
        return driver;
    }

    /** @return every output record so far, across restarts */
    public List<TestRecord<K, R>> results() {
        results.addAll(output.readRecordsToList());
        return results;
    }

    /** @return the restarts so far */
    public int restarts() {
        return restarts;
    }

    /**
     * Closes the driver and opens a new one as {@code how} says.
     *
     * @throws IllegalStateException if the changelog does not rebuild the store the driver left
     */
    public void restart(Restart how) {
        closeDriver();
        DurableStore rebuilt = DurableStore.fromChangelog(storeName, changelog);
        if (!rebuilt.sameContents(store)) {
            throw new IllegalStateException("the changelog (" + changelog.size() + " records) rebuilds "
                    + rebuilt.contents().size() + " entries, the store holds " + store.contents().size());
        }
        restarts++;
        open(how == Restart.SAME_STATE ? store : rebuilt);
    }

    private void closeDriver() {
        results.addAll(output.readRecordsToList());
        changelog.addAll(changelogTopic.readKeyValuesToList());
        driver.close();
        changelog.addAll(changelogTopic.readKeyValuesToList());
        results.addAll(output.readRecordsToList());
        deleteTree(stateDir);
    }

    @Override
    public void close() {
        closeDriver();
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("cepheus-kafka-test");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
