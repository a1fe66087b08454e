package io.cepheus.kafka;

import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;

/**
 * The results of a {@link CepProcessorSupplier} on a stream, by kind: {@code CepStreams.of(input, supplier)} adds
 * the processor (with its state store) after {@code input}, and {@link #matches()}, {@link #timeouts()},
 * {@link #late()} and {@link #deadLetters()} are its outputs of each kind, keyed as the input, with the record
 * timestamps {@link CepOutput} describes.
 *
 * <pre>{@code
 * CepStreams<String, Txn> cep = CepStreams.of(txns, fraud);
 * cep.matches().mapValues(m -> Alert.of(m.match())).to("alerts", Produced.with(Serdes.String(), alertSerde));
 * cep.deadLetters().to("txns-rejected", Produced.with(Serdes.String(), cep.outputSerde()));
 * }</pre>
 *
 * <p>Used while building the topology, on one thread.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class CepStreams<K, V> {

    private final KStream<K, CepOutput<V>> all;
    private final Serde<CepOutput<V>> serde;

    private CepStreams(KStream<K, CepOutput<V>> all, Serde<CepOutput<V>> serde) {
        this.all = all;
        this.serde = serde;
    }

    /**
     * @param input     the stream to match, keyed as the patterns match (repartition it first if it is not)
     * @param processor the patterns
     * @param <K>       the key type
     * @param <V>       the value type
     * @return the processor's results
     */
    public static <K, V> CepStreams<K, V> of(KStream<K, V> input, CepProcessorSupplier<K, V> processor) {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(processor, "processor");
        if (processor.hasRules()) {
            throw new IllegalArgumentException("processor " + processor.name() + " takes rules from a topic: use"
                    + " of(builder, input, processor), which adds the rules' global store");
        }
        return process(input, processor);
    }

    /**
     * As {@link #of(KStream, CepProcessorSupplier)}, and adds the rules' global store when the processor takes rules
     * from a topic.
     *
     * @param builder   the topology's builder
     * @param input     the stream to match
     * @param processor the patterns and rules
     * @param <K>       the key type
     * @param <V>       the value type
     * @return the processor's results
     */
    public static <K, V> CepStreams<K, V> of(StreamsBuilder builder, KStream<K, V> input,
            CepProcessorSupplier<K, V> processor) {
        Objects.requireNonNull(builder, "builder");
        Objects.requireNonNull(input, "input");
        if (processor.hasRules()) {
            processor.addRulesStore(builder);
        }
        return process(input, processor);
    }

    private static <K, V> CepStreams<K, V> process(KStream<K, V> input, CepProcessorSupplier<K, V> processor) {
        return new CepStreams<>(input.process(processor, Named.as(processor.name() + "-cepheus")),
                processor.outputSerde());
    }

    /** @return every output, of every kind, in the order the processor emitted them */
    public KStream<K, CepOutput<V>> all() {
        return all;
    }

    /** @return the patterns' complete matches (the rules' are {@link #ruleMatches()}) */
    public KStream<K, PatternMatch<V>> matches() {
        return all.filter((k, v) -> v instanceof PatternMatch).mapValues(v -> (PatternMatch<V>) v);
    }

    /** @return the rules' complete matches */
    public KStream<K, RuleMatch<V>> ruleMatches() {
        return all.filter((k, v) -> v instanceof RuleMatch).mapValues(v -> (RuleMatch<V>) v);
    }

    /** @return the rules' partial matches that timed out */
    public KStream<K, RuleTimeout<V>> ruleTimeouts() {
        return all.filter((k, v) -> v instanceof RuleTimeout).mapValues(v -> (RuleTimeout<V>) v);
    }

    /** @return the rule records a task refused (keyed null), and why */
    public KStream<K, RuleRejected<V>> rejectedRules() {
        return all.filter((k, v) -> v instanceof RuleRejected).mapValues(v -> (RuleRejected<V>) v);
    }

    /** @return the partial matches that timed out */
    public KStream<K, PatternTimeout<V>> timeouts() {
        return all.filter((k, v) -> v instanceof PatternTimeout).mapValues(v -> (PatternTimeout<V>) v);
    }

    /** @return the records that came after the watermark */
    public KStream<K, LateEvent<V>> late() {
        return all.filter((k, v) -> v instanceof LateEvent).mapValues(v -> (LateEvent<V>) v);
    }

    /** @return the records the processor could not match, and why */
    public KStream<K, DeadLetterEvent<V>> deadLetters() {
        return all.filter((k, v) -> v instanceof DeadLetterEvent).mapValues(v -> (DeadLetterEvent<V>) v);
    }

    /** @return the serde of {@link #all()}'s values (every kind's record is a {@link CepOutput}) */
    public Serde<CepOutput<V>> outputSerde() {
        return serde;
    }
}
