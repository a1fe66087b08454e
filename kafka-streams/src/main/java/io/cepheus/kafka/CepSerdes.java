package io.cepheus.kafka;

import org.apache.kafka.common.serialization.Serde;

/** The serdes of what the Cepheus processor emits. */
public final class CepSerdes {

    private CepSerdes() {
    }

    /**
     * @param values the input values' serde
     * @param <V>    the value type
     * @return the serde of the processor's output ({@link CepOutput}: every kind of record), written with
     *         {@code values} for the events it holds, with a format version
     */
    public static <V> Serde<CepOutput<V>> output(Serde<V> values) {
        return new io.cepheus.kafka.internal.CepOutputSerde<>(values);
    }
}
