package io.cepheus.benchmarks.kafka;

import io.cepheus.benchmarks.workloads.BenchEvent;
import java.nio.ByteBuffer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** The workloads' events as Kafka record values: key, type, value and timestamp in 18 bytes. */
public final class BenchEventSerde implements Serde<BenchEvent> {

    /** The serializer as a class a producer's configuration can name. */
    public static final class Writer implements Serializer<BenchEvent> {
        @Override
        public byte[] serialize(String topic, BenchEvent e) {
            return new BenchEventSerde().serializer().serialize(topic, e);
        }
    }

    @Override
    public Serializer<BenchEvent> serializer() {
        return (topic, e) -> e == null ? null
                : ByteBuffer.allocate(18).putInt(e.key()).putChar(e.type()).putInt(e.value()).putLong(e.ts()).array();
    }

    @Override
    public Deserializer<BenchEvent> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            ByteBuffer b = ByteBuffer.wrap(bytes);
            return new BenchEvent(b.getInt(), b.getChar(), b.getInt(), b.getLong());
        };
    }
}
