package io.cepheus.kafka.conformance;

import io.cepheus.kafka.CepOutput;
import io.cepheus.kafka.CepProcessorSupplier;
import io.cepheus.kafka.CepSerdes;
import io.cepheus.kafka.CepStreams;
import io.cepheus.kafka.DurableStore;
import io.cepheus.kafka.TestDriverRig;
import java.util.function.Function;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.nfa.conformance.Ev;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The Kafka tests' topologies over the conformance events: topic {@code events} in, every output to
 * {@code results}.
 */
public final class EvTopologies {

    private EvTopologies() {
    }

    /**
     * @param name  the processor's name
     * @param store its state store
     * @return a processor builder as the conformance drivers set it: watermarks from marker records, the engine
     *         drivers' NFA options, no bound on timestamps ahead of the wall clock
     */
    public static CepProcessorSupplier.Builder<String, Ev> caseProcessor(String name, DurableStore store) {
        return CepProcessorSupplier.builder(name, Serdes.String(), new EvSerde())
                .watermarks(WatermarkMarkers.strategy())
                .nfaOptions(NfaOptions.defaults().withProcessingTime(() -> 0L))
                .maxTimestampAhead(null)
                .store(store);
    }

    /**
     * @param topology  makes the topology with the processor's store
     * @param storeName the processor's store name
     * @return a driver rig on it, keyed by strings, with the conformance events and the processor's outputs
     */
    public static TestDriverRig<String, Ev, CepOutput<Ev>> rig(Function<DurableStore, Topology> topology,
            String storeName) {
        return new TestDriverRig<>(topology, storeName, Serdes.String().serializer(), new EvSerde().serializer(),
                Serdes.String().deserializer(), CepSerdes.output(new EvSerde()).deserializer());
    }

    /** @return the topology: {@code events} through the processor (with its rules' store, if any) to {@code results} */
    public static Topology topology(CepProcessorSupplier<String, Ev> cep) {
        StreamsBuilder builder = new StreamsBuilder();
        CepStreams<String, Ev> results = CepStreams.of(builder,
                builder.stream("events", Consumed.with(Serdes.String(), new EvSerde())), cep);
        results.all().to("results", Produced.with(Serdes.String(), results.outputSerde()));
        return builder.build();
    }
}
