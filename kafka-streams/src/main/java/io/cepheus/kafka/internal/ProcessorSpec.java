package io.cepheus.kafka.internal;

import io.cepheus.runtime.time.WatermarkStrategy;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;

/**
 * Everything a task's processor is made from, as the builder collected it. Immutable; shared by the tasks.
 *
 * @param name                   the processor's name, the prefix of its state store's
 * @param keys                   the keys' serde
 * @param values                 the values' serde
 * @param patterns               the patterns, in order
 * @param watermarks             how each task derives its watermark from its records
 * @param maxAheadMillis         how far ahead of the wall clock a record's timestamp may be
 * @param wallClockIntervalMillis how often the processing-time patterns' timers are checked
 * @param store                  makes the state store
 * @param rules                  the rules from a topic, or null for none
 * @param <K>                    the key type
 * @param <V>                    the value type
 */
public record ProcessorSpec<K, V>(String name, Serde<K> keys, Serde<V> values, List<PatternSpec<V>> patterns,
        WatermarkStrategy<V> watermarks, long maxAheadMillis, long wallClockIntervalMillis,
        KeyValueBytesStoreSupplier store, RulesSpec<V> rules) {
    /**
     * @param name                    the processor's name
     * @param keys                    the keys' serde
     * @param values                  the values' serde
     * @param patterns                the patterns, in order
     * @param watermarks              how each task derives its watermark
     * @param maxAheadMillis          how far ahead of the wall clock a record's timestamp may be
     * @param wallClockIntervalMillis how often the processing-time patterns' timers are checked
     * @param store                   makes the state store
     * @param rules                   the rules from a topic, or null for none
     */
    public ProcessorSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(values, "values");
        patterns = List.copyOf(patterns);
        Objects.requireNonNull(watermarks, "watermarks");
        Objects.requireNonNull(store, "store");
    }

    /** @return the name of the processor's state store */
    public String storeName() {
        return store.name();
    }

    /**
     * @param processorName a processor's name
     * @return the name of its state store, unless its builder was given a store of another name
     */
    public static String defaultStoreName(String processorName) {
        return processorName + "-cepheus-state";
    }

    /** @return whether some pattern runs in processing time */
    public boolean inProcessingTime() {
        for (int i = 0; i < patterns.size(); i++) {
            if (patterns.get(i).processingTime()) {
                return true;
            }
        }
        return false;
    }
}
