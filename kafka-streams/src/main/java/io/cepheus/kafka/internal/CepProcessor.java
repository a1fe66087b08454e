package io.cepheus.kafka.internal;

import io.cepheus.kafka.CepOutput;
import io.cepheus.kafka.DeadLetterEvent;
import io.cepheus.kafka.LateEvent;
import io.cepheus.kafka.PatternMatch;
import io.cepheus.kafka.PatternTimeout;
import io.cepheus.kafka.RuleMatch;
import io.cepheus.kafka.RuleRejected;
import io.cepheus.kafka.RuleTimeout;
import io.cepheus.nfa.CompiledPattern;
import io.cepheus.runtime.internal.cep.RuleSetOperator;
import io.cepheus.runtime.internal.shard.ShardContext;
import io.cepheus.runtime.rules.RestoredRules;
import io.cepheus.runtime.rules.RuleVersion;
import java.util.Map;
import io.cepheus.nfa.Match;
import io.cepheus.nfa.SkipStrategyException;
import io.cepheus.runtime.internal.cep.CepOperator;
import io.cepheus.runtime.internal.hosted.HostedShard;
import io.cepheus.runtime.time.TimestampAssigner;
import io.cepheus.runtime.time.WatermarkGenerator;
import io.cepheus.runtime.time.WatermarkOutput;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The Cepheus processor of one Kafka Streams task: the engine's pattern operators on a {@link HostedShard}, fed the
 * task's records, its watermark and the wall clock, with every key's state in the task's state store.
 *
 * <ul>
 *   <li>Time. Each record's event time is its Kafka timestamp (or what the watermark strategy's timestamp assigner
 *       makes of it). The task's watermark comes from the strategy's generator, asked after every record (for the
 *       default bounded out-of-orderness: the highest timestamp seen minus the bound, minus 1 ms); a record at or
 *       before it is late. Timeouts fire as the watermark passes them, so a key that receives nothing more still
 *       times out once the task's other records move the watermark on. Processing-time patterns follow the wall
 *       clock, checked by a wall-clock punctuation.</li>
 *   <li>State. After each record (and punctuation) the keys whose matching state changed are written to the store,
 *       or deleted when they hold none; each event the watermark has not passed yet is written under its arrival
 *       number, and deleted once released; the header (watermark, counters) is written last. The store is
 *       changelogged, so what a task holds is in Kafka when its offsets commit, inside the same transaction under
 *       {@code exactly_once_v2}. {@link #init} builds the operators afresh and reads the store back: a restart, a
 *       rebalance and a revived task all go on from the committed state.</li>
 *   <li>Bad input (no key, no value, a timestamp too far ahead of the wall clock), a condition that throws, a key's
 *       bound on partial matches under {@code OverflowPolicy.FAIL} and a skip strategy's miss become
 *       {@link DeadLetterEvent}s; the stream thread goes on and the state stays consistent.</li>
 * </ul>
 *
 * <p>Owned by the stream thread running the task, as Kafka Streams gives each processor instance.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class CepProcessor<K, V> implements Processor<K, V, K, CepOutput<V>> {

    private final ProcessorSpec<K, V> spec;
    /** Whether some pattern runs in processing time (asked once, not per record). */
    private final boolean inProcessingTime;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    private final DataOutputStream out = new DataOutputStream(bytes);
    private ProcessorContext<K, CepOutput<V>> context;
    private KeyValueStore<Bytes, byte[]> store;
    private HostedShard<V> host;
    private SerdeEventCodec<V> events;
    private WatermarkGenerator<V> generator;
    private TimestampAssigner<V> timestamps;
    private long emittedWatermark = Long.MIN_VALUE;
    /** The rules' changes, applied from the global store; null without rules. */
    private RuleSync<V> rules;
    private final WatermarkOutput watermarkOutput = new WatermarkOutput() {
        @Override
        public void emitWatermark(long watermark) {
            emittedWatermark = Math.max(emittedWatermark, watermark);
        }

        @Override
        public void markIdle() {
        }

        @Override
        public void markActive() {
        }
    };

    /** @param spec what the processor is made of */
    public CepProcessor(ProcessorSpec<K, V> spec) {
        this.spec = spec;
        this.inProcessingTime = spec.inProcessingTime();
    }

    @Override
    public void init(ProcessorContext<K, CepOutput<V>> context) {
        this.context = context;
        this.store = context.getStateStore(spec.storeName());
        this.events = new SerdeEventCodec<>(spec.values(), spec.storeName());
        this.host = new HostedShard<>(context::currentSystemTimeMs);
        for (PatternSpec<V> p : spec.patterns()) {
            host.addPattern(p.name(), p.pattern(), p.options(), p.tieBreaker(), p.processingTime(),
                    new Output(p.name()));
        }
        this.rules = null;
        if (spec.rules() != null) {
            RulesSpec<V> r = spec.rules();
            KeyValueStore<String, String> topic = context.getStateStore(r.storeName());
            this.rules = new RuleSync<>(r, topic, host.addRuleSet(r.options(), r.tieBreaker(), new RuleOutputs()),
                    this::rejected);
        }
        this.generator = spec.watermarks().createGenerator(context::currentSystemTimeMs);
        this.timestamps = spec.watermarks().timestampAssigner();
        this.emittedWatermark = Long.MIN_VALUE;
        try {
            restore();
        } catch (IOException | RuntimeException e) {
            throw new StreamsException("Cepheus processor '" + spec.name() + "', task " + context.taskId()
                    + ": state store " + spec.storeName() + " cannot be read back: " + e.getMessage(), e);
        }
        if (rules != null) {
            rules.sync(); // the rules in force when the task starts
            persist();
            context.schedule(Duration.ofMillis(spec.rules().checkIntervalMillis()), PunctuationType.WALL_CLOCK_TIME,
                    now -> {
                        if (rules.sync()) {
                            persist();
                        }
                    });
        }
        if (inProcessingTime) {
            context.schedule(Duration.ofMillis(spec.wallClockIntervalMillis()), PunctuationType.WALL_CLOCK_TIME,
                    now -> {
                        if (host.advanceProcessingTime() > 0) {
                            persist();
                        }
                    });
        }
    }

    private void restore() throws IOException {
        byte[] header = store.get(StateKeys.HEADER_KEY);
        if (header == null) {
            return; // a new task, or one that never held anything
        }
        DataInputStream headerIn = new DataInputStream(new ByteArrayInputStream(header));
        if (rules != null) {
            rules.readDefinitions(headerIn);
            host.readHeader(headerIn, rules::compiledForRestore);
        } else {
            host.readHeader(headerIn, version -> null);
        }
        try (KeyValueIterator<Bytes, byte[]> it = store.prefixScan(StateKeys.KEY_PREFIX, new BytesSerializer())) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> entry = it.next();
                K key = spec.keys().deserializer().deserialize(spec.storeName(), StateKeys.keyBytes(entry.key));
                host.readKey(key, new DataInputStream(new ByteArrayInputStream(entry.value)), events);
            }
        }
        try (KeyValueIterator<Bytes, byte[]> it = store.prefixScan(StateKeys.EVENT_PREFIX, new BytesSerializer())) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> entry = it.next();
                DataInputStream in = new DataInputStream(new ByteArrayInputStream(entry.value));
                K key = spec.keys().deserializer().deserialize(spec.storeName(), SerdeEventCodec.readBytes(in));
                long timestamp = in.readLong();
                host.restoreBuffered(key, events.read(in), timestamp, StateKeys.arrival(entry.key));
            }
        }
        host.finishRestore();
        emittedWatermark = host.watermark();
    }

    @Override
    public void process(Record<K, V> record) {
        K key = record.key();
        V value = record.value();
        if (key == null || value == null) {
            deadLetter(record, null, key == null ? "a record without a key: the patterns match per key"
                    : "a record without a value (a tombstone): there is no event to match");
            return;
        }
        long timestamp = timestamps.extractTimestamp(value, record.timestamp());
        long wallClock = context.currentSystemTimeMs();
        if (spec.maxAheadMillis() >= 0 && timestamp - wallClock > spec.maxAheadMillis()) {
            deadLetter(record, null, "timestamp " + timestamp + " is more than " + spec.maxAheadMillis()
                    + " ms ahead of the wall clock (" + wallClock + "): it would move the watermark past every"
                    + " record to come");
            return;
        }
        if (host.inEventTime() && timestamp <= host.watermark()) {
            context.forward(new Record<>(key, new LateEvent<>(value, host.watermark()), record.timestamp()));
        }
        long arrival = host.processElement(key, value, timestamp);
        if (arrival >= 0) {
            store.put(StateKeys.event(arrival), bufferedEvent(key, value, timestamp));
        }
        generator.onEvent(value, timestamp, watermarkOutput);
        generator.onPeriodicEmit(watermarkOutput);
        if (emittedWatermark > host.watermark()) {
            host.advanceWatermark(emittedWatermark, a -> store.delete(StateKeys.event(a)));
        }
        if (inProcessingTime) {
            host.advanceProcessingTime();
        }
        persist();
    }

    private void deadLetter(Record<K, V> record, String pattern, String reason) {
        context.forward(new Record<K, CepOutput<V>>(record.key(), new DeadLetterEvent<>(pattern, record.value(),
                reason), Math.max(0, record.timestamp())));
    }

    /** Writes the keys that changed, then the header. */
    private void persist() {
        host.drainChangedKeys(this::writeKey);
        try {
            bytes.reset();
            if (rules != null) {
                rules.writeDefinitions(out);
            }
            host.writeHeader(out);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        store.put(StateKeys.HEADER_KEY, bytes.toByteArray());
    }

    @SuppressWarnings("unchecked")
    private void writeKey(Object key) {
        Bytes entry = StateKeys.key(spec.keys().serializer().serialize(spec.storeName(), (K) key));
        boolean holds;
        try {
            bytes.reset();
            holds = host.writeKey(key, out, events);
            out.flush();
        } catch (IOException e) {
            throw new StreamsException("Cepheus processor '" + spec.name() + "': cannot write the state of key "
                    + key, e);
        }
        if (holds) {
            store.put(entry, bytes.toByteArray());
        } else {
            store.delete(entry);
        }
    }

    private byte[] bufferedEvent(K key, V value, long timestamp) {
        try {
            bytes.reset();
            byte[] k = spec.keys().serializer().serialize(spec.storeName(), key);
            out.writeInt(k.length);
            out.write(k);
            out.writeLong(timestamp);
            events.write(value, out);
            out.flush();
        } catch (IOException e) {
            throw new StreamsException("Cepheus processor '" + spec.name() + "': cannot write an event of key "
                    + key, e);
        }
        return bytes.toByteArray();
    }

    private void rejected(String ruleId, String reason) {
        context.forward(new Record<K, CepOutput<V>>(null, new RuleRejected<>(ruleId, reason),
                context.currentSystemTimeMs()));
    }

    /** The rule versions' results, forwarded as they come. */
    private final class RuleOutputs implements RuleSetOperator.Spec<V> {
        @Override
        public CepOperator.Output<V> output(RuleVersion rule, ShardContext<V> shard) {
            return new Output(rule);
        }

        @Override
        public RuleSetOperator.LateOutput<V> lateOutput(ShardContext<V> shard) {
            return (key, event, timestamp) -> { }; // reported once per record by the processor
        }

        @Override
        public Map<RuleVersion, CompiledPattern<V>> initial() {
            return Map.of();
        }

        @Override
        public void restored(RestoredRules shardReport) {
        }
    }

    /**
     * One pattern's or rule version's results, forwarded as they come: a pattern's as {@link PatternMatch} and
     * {@link PatternTimeout}, a rule version's as {@link RuleMatch} and {@link RuleTimeout}; dead letters name
     * either.
     */
    private final class Output implements CepOperator.Output<V> {
        /** The pattern's name, or "rule ID vN": what dead letters name. */
        private final String source;
        /** Null for a pattern. */
        private final RuleVersion rule;

        Output(String pattern) {
            this.source = pattern;
            this.rule = null;
        }

        Output(RuleVersion rule) {
            this.source = "rule " + rule.id() + " v" + rule.version();
            this.rule = rule;
        }

        @Override
        public void match(Object key, Match<V> match, long timestamp) {
            forward(key, rule == null ? new PatternMatch<>(source, match)
                    : new RuleMatch<>(rule.id(), rule.version(), match), timestamp);
        }

        @Override
        public void timeout(Object key, Match<V> partialMatch, long timeoutTimestamp) {
            forward(key, rule == null ? new PatternTimeout<>(source, partialMatch)
                    : new RuleTimeout<>(rule.id(), rule.version(), partialMatch), timeoutTimestamp);
        }

        @Override
        public void late(Object key, V event, long timestamp) {
            // reported once per record by the processor, not once per pattern or rule
        }

        @Override
        public void deadLetter(Object key, V event, long timestamp, RuntimeException error) {
            forward(key, new DeadLetterEvent<>(source, event, String.valueOf(error)), timestamp);
        }

        @Override
        public void skipFailed(Object key, long timestamp, SkipStrategyException error) {
            forward(key, new DeadLetterEvent<>(source, null, String.valueOf(error)), timestamp);
        }

        @SuppressWarnings("unchecked")
        private void forward(Object key, CepOutput<V> output, long timestamp) {
            context.forward(new Record<>((K) key, output, timestamp));
        }
    }
}
