package io.cepheus.kafka;

import io.cepheus.kafka.internal.CepProcessor;
import io.cepheus.kafka.internal.PatternSpec;
import io.cepheus.kafka.internal.ProcessorSpec;
import io.cepheus.kafka.internal.RulesSpec;
import io.cepheus.kafka.internal.RulesTopicProcessor;
import io.cepheus.rules.Rule;
import io.cepheus.runtime.rules.RetirePolicy;
import java.util.function.Function;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import io.cepheus.nfa.NfaCompiler;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Cepheus patterns and rules as a Kafka Streams processor: {@code stream.process(supplier)} matches every pattern
 * (and every rule of a rules topic, {@link Builder#rules}) on the stream, per key, and returns a stream of
 * {@link CepOutput}s (matches, timeouts, late records, dead letters) keyed as the input; {@link CepStreams} splits
 * them by kind. The processor declares its own state store
 * ({@link #stores()}), changelogged, in which each key's state is kept as it changes: partitions move between
 * instances, and each task goes on from its committed state. Matching is the in-JVM engine's, with Apache Flink's
 * semantics, per task: each task has its own watermark, from its own records.
 *
 * <pre>{@code
 * CepProcessorSupplier<String, Txn> fraud = CepProcessorSupplier.builder("fraud", Serdes.String(), txnSerde)
 *         .watermarks(WatermarkStrategy.forBoundedOutOfOrderness(Duration.ofSeconds(5)))
 *         .pattern("small-then-large", smallThenLarge)
 *         .build();
 * KStream<String, CepOutput<Txn>> results = builder.stream("txns", Consumed.with(Serdes.String(), txnSerde))
 *         .process(fraud);
 * }</pre>
 *
 * <p>Immutable and thread-safe: Kafka Streams asks it for one processor per task, from any thread.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class CepProcessorSupplier<K, V> implements ProcessorSupplier<K, V, K, CepOutput<V>> {

    private final ProcessorSpec<K, V> spec;

    private CepProcessorSupplier(ProcessorSpec<K, V> spec) {
        this.spec = spec;
    }

    /**
     * @param name   the processor's name: its state store is {@code name + "-cepheus-state"}, and its changelog topic
     *               is named after it; keep it when the application is redeployed
     * @param keys   the input keys' serde
     * @param values the input values' serde
     * @param <K>    the key type
     * @param <V>    the value type
     * @return a builder
     */
    public static <K, V> Builder<K, V> builder(String name, Serde<K> keys, Serde<V> values) {
        return new Builder<>(name, keys, values);
    }

    @Override
    public Processor<K, V, K, CepOutput<V>> get() {
        return new CepProcessor<>(spec);
    }

    /** @return the processor's state store, which Kafka Streams adds to the topology with the processor */
    @Override
    public Set<StoreBuilder<?>> stores() {
        StoreBuilder<KeyValueStore<Bytes, byte[]>> store = Stores.keyValueStoreBuilder(spec.store(),
                org.apache.kafka.common.serialization.Serdes.Bytes(),
                org.apache.kafka.common.serialization.Serdes.ByteArray())
                .withCachingEnabled(); // a key changed by many records in a commit interval reaches the changelog once
        return Set.of(store);
    }

    /** @return the processor's name */
    public String name() {
        return spec.name();
    }

    /** @return the name of the processor's state store */
    public String storeName() {
        return spec.storeName();
    }

    /** @return the serde of the processor's output */
    public Serde<CepOutput<V>> outputSerde() {
        return CepSerdes.output(spec.values());
    }

    /**
     * Adds the rules' global store to the topology, fed by the rules topic (every instance reads all of it); needed
     * once per processor with {@link Builder#rules rules}, before the topology is built. {@link CepStreams#of(
     * StreamsBuilder, KStream, CepProcessorSupplier)} does it.
     *
     * @param builder the topology's builder
     * @throws IllegalStateException if the processor has no rules
     */
    public void addRulesStore(StreamsBuilder builder) {
        RulesSpec<V> rules = spec.rules();
        if (rules == null) {
            throw new IllegalStateException("processor " + spec.name() + " has no rules topic");
        }
        builder.addGlobalStore(Stores.keyValueStoreBuilder(rules.store(),
                        org.apache.kafka.common.serialization.Serdes.String(),
                        org.apache.kafka.common.serialization.Serdes.String()),
                rules.topic(), Consumed.with(org.apache.kafka.common.serialization.Serdes.String(),
                        org.apache.kafka.common.serialization.Serdes.String()),
                () -> new RulesTopicProcessor(rules.storeName()));
    }

    /** @return whether the processor takes rules from a topic */
    public boolean hasRules() {
        return spec.rules() != null;
    }

    /** @return the names of the patterns, in order */
    public List<String> patternNames() {
        return spec.patterns().stream().map(PatternSpec::name).toList();
    }

    /**
     * Collects the patterns and settings of a {@link CepProcessorSupplier}. Not thread-safe.
     *
     * @param <K> the key type
     * @param <V> the value type
     */
    public static final class Builder<K, V> {
        private final String name;
        private final Serde<K> keys;
        private final Serde<V> values;
        private final List<PatternSpec<V>> patterns = new ArrayList<>();
        private final Set<String> names = new HashSet<>();
        private WatermarkStrategy<V> watermarks = WatermarkStrategy.forBoundedOutOfOrderness(Duration.ZERO);
        private NfaOptions options = NfaOptions.defaults();
        private Comparator<? super V> tieBreaker;
        private Duration maxAhead = Duration.ofDays(1);
        private Duration wallClockInterval = Duration.ofMillis(100);
        private KeyValueBytesStoreSupplier store;
        private String rulesTopic;
        private Function<Rule, Pattern<V>> rulesCompiler;
        private NfaOptions rulesOptions;
        private Comparator<? super V> rulesTieBreaker;
        private RetirePolicy retirePolicy = RetirePolicy.DRAIN;
        private Duration rulesCheckInterval = Duration.ofSeconds(1);
        private KeyValueBytesStoreSupplier rulesStore;

        private Builder(String name, Serde<K> keys, Serde<V> values) {
            this.name = requireName(name, "the processor's name");
            this.keys = Objects.requireNonNull(keys, "keys");
            this.values = Objects.requireNonNull(values, "values");
        }

        /**
         * How each task derives its watermark from its records (default: bounded out-of-orderness of zero, so a
         * record older than the newest one the task has seen is late). The generator is asked after every record;
         * its timestamp assigner, if any, replaces the records' Kafka timestamps as event time.
         *
         * @param strategy the strategy
         * @return this builder
         */
        public Builder<K, V> watermarks(WatermarkStrategy<V> strategy) {
            this.watermarks = Objects.requireNonNull(strategy, "strategy");
            return this;
        }

        /**
         * The NFA options of the patterns added after this call (default {@link NfaOptions#defaults()}).
         *
         * @param nfaOptions the options
         * @return this builder
         */
        public Builder<K, V> nfaOptions(NfaOptions nfaOptions) {
            this.options = Objects.requireNonNull(nfaOptions, "nfaOptions");
            return this;
        }

        /**
         * Orders events of equal timestamp before their arrival order, for the event-time patterns added after this
         * call (Flink's {@code CEP.pattern(input, pattern, comparator)}).
         *
         * @param comparator the order, or null for arrival order only
         * @return this builder
         */
        public Builder<K, V> tieBreaker(Comparator<? super V> comparator) {
            this.tieBreaker = comparator;
            return this;
        }

        /**
         * Adds a pattern matched in event time.
         *
         * @param patternName the pattern's name, unique in this processor; outputs carry it, and a restore checks it
         * @param pattern     the pattern
         * @return this builder
         * @throws IllegalArgumentException if the name is taken or the pattern does not compile
         */
        public Builder<K, V> pattern(String patternName, Pattern<V> pattern) {
            return add(patternName, pattern, false);
        }

        /**
         * Adds a pattern matched in processing time (Flink's {@code inProcessingTime()}): events are matched as they
         * arrive, stamped with the wall clock, and windows close by the wall clock, checked every
         * {@link #wallClockInterval}.
         *
         * @param patternName the pattern's name, unique in this processor
         * @param pattern     the pattern
         * @return this builder
         */
        public Builder<K, V> patternInProcessingTime(String patternName, Pattern<V> pattern) {
            return add(patternName, pattern, true);
        }

        private Builder<K, V> add(String patternName, Pattern<V> pattern, boolean processingTime) {
            requireName(patternName, "a pattern's name");
            Objects.requireNonNull(pattern, "pattern");
            if (!names.add(patternName)) {
                throw new IllegalArgumentException("processor " + name + " has two patterns named " + patternName);
            }
            if (processingTime && tieBreaker != null) {
                throw new IllegalArgumentException("pattern " + patternName + ": a processing-time pattern takes no"
                        + " tie-breaker here (set tieBreaker(null) before adding it)");
            }
            patterns.add(new PatternSpec<>(patternName, NfaCompiler.compile(pattern), options,
                    processingTime ? null : tieBreaker, processingTime));
            return this;
        }

        /**
         * Takes rules from a compacted topic as well ({@code FORMAT.md}'s JSON, key the rule id, a tombstone removes
         * it): every instance reads the whole topic into a global store, and each task applies what changed between
         * two of its records, checking every {@link #rulesCheckInterval} of wall-clock time. A rule's versions run
         * with the NFA options and tie-breaker set before this call. Add the global store with
         * {@link CepProcessorSupplier#addRulesStore} (or build with {@link CepStreams#of(StreamsBuilder, KStream,
         * CepProcessorSupplier)}).
         *
         * @param topic    the rules topic
         * @param compiler makes a rule's pattern for the values, e.g. {@code rule -> rule.compile(Txn.class)}
         * @return this builder
         */
        public Builder<K, V> rules(String topic, Function<Rule, Pattern<V>> compiler) {
            this.rulesTopic = requireName(topic, "the rules topic");
            this.rulesCompiler = Objects.requireNonNull(compiler, "compiler");
            this.rulesOptions = options;
            this.rulesTieBreaker = tieBreaker;
            return this;
        }

        /**
         * How a rule version ends when a higher version replaces it or its rule is removed (default
         * {@link RetirePolicy#DRAIN}: it completes the partial matches it holds, starting none).
         *
         * @param policy the policy
         * @return this builder
         */
        public Builder<K, V> retirePolicy(RetirePolicy policy) {
            this.retirePolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * How often each task looks for rule changes (default one second of wall-clock time).
         *
         * @param interval the interval, at least 1 ms
         * @return this builder
         */
        public Builder<K, V> rulesCheckInterval(Duration interval) {
            if (interval.isNegative() || interval.toMillis() < 1) {
                throw new IllegalArgumentException("rulesCheckInterval must be at least 1 ms, got " + interval);
            }
            this.rulesCheckInterval = interval;
            return this;
        }

        /**
         * The store the rules topic is kept in on each instance (default: in memory, named
         * {@code name + "-cepheus-rules"}, read from the topic again at every start); its name becomes the rules'
         * store name.
         *
         * @param supplier makes the global store
         * @return this builder
         */
        public Builder<K, V> rulesStore(KeyValueBytesStoreSupplier supplier) {
            this.rulesStore = Objects.requireNonNull(supplier, "supplier");
            return this;
        }

        /**
         * How far ahead of the wall clock a record's event time may be (default one day); a record beyond it is a
         * {@link DeadLetterEvent}, as it would move the watermark past every record to come.
         *
         * @param maxAheadOfWallClock the bound, or null for none
         * @return this builder
         */
        public Builder<K, V> maxTimestampAhead(Duration maxAheadOfWallClock) {
            if (maxAheadOfWallClock != null && maxAheadOfWallClock.isNegative()) {
                throw new IllegalArgumentException("maxTimestampAhead must not be negative, got "
                        + maxAheadOfWallClock);
            }
            this.maxAhead = maxAheadOfWallClock;
            return this;
        }

        /**
         * How often the processing-time patterns' windows are checked against the wall clock (default 100 ms).
         *
         * @param interval the interval, at least 1 ms
         * @return this builder
         */
        public Builder<K, V> wallClockInterval(Duration interval) {
            if (interval.isNegative() || interval.toMillis() < 1) {
                throw new IllegalArgumentException("wallClockInterval must be at least 1 ms, got " + interval);
            }
            this.wallClockInterval = interval;
            return this;
        }

        /**
         * Keeps the state in an in-memory store (still changelogged) instead of a persistent (RocksDB) one: a restart
         * reads the whole changelog back, but nothing is written to local disk.
         *
         * @return this builder
         */
        public Builder<K, V> inMemoryStore() {
            return store(Stores.inMemoryKeyValueStore(ProcessorSpec.defaultStoreName(name)));
        }

        /**
         * The store the state lives in (default: a persistent RocksDB store named {@code name + "-cepheus-state"}),
         * for a store tuned or made otherwise; its name becomes the processor's store name. Kafka Streams wraps it
         * with caching and the changelog.
         *
         * @param supplier makes the store, once per task
         * @return this builder
         */
        public Builder<K, V> store(KeyValueBytesStoreSupplier supplier) {
            this.store = Objects.requireNonNull(supplier, "supplier");
            return this;
        }

        /**
         * @return the processor supplier
         * @throws IllegalStateException if no pattern was added
         */
        public CepProcessorSupplier<K, V> build() {
            if (patterns.isEmpty() && rulesTopic == null) {
                throw new IllegalStateException("processor " + name + " has no pattern and no rules topic");
            }
            RulesSpec<V> rules = rulesTopic == null ? null : new RulesSpec<>(rulesTopic, rulesCompiler, retirePolicy,
                    rulesOptions, rulesTieBreaker, rulesCheckInterval.toMillis(), rulesStore != null ? rulesStore
                            : Stores.inMemoryKeyValueStore(name + "-cepheus-rules"));
            long ahead = maxAhead == null ? -1 : saturatedMillis(maxAhead);
            KeyValueBytesStoreSupplier supplier = store != null ? store
                    : Stores.persistentKeyValueStore(ProcessorSpec.defaultStoreName(name));
            return new CepProcessorSupplier<>(new ProcessorSpec<>(name, keys, values, patterns, watermarks, ahead,
                    wallClockInterval.toMillis(), supplier, rules));
        }

        private static long saturatedMillis(Duration d) {
            try {
                return d.toMillis();
            } catch (ArithmeticException e) {
                return Long.MAX_VALUE;
            }
        }

        private static String requireName(String name, String what) {
            Objects.requireNonNull(name, what);
            if (name.isBlank()) {
                throw new IllegalArgumentException(what + " must not be blank");
            }
            return name;
        }
    }
}
