package io.cepheus.kafka.internal;

import io.cepheus.nfa.EventCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;

/**
 * The project's {@link EventCodec} over a Kafka {@link Serde}: each value as its serialized length and bytes, so that
 * the state the processor keeps holds events exactly as the input topic does. A serde that reads {@code null} back
 * from bytes it wrote breaks the codec's contract and fails the read.
 *
 * <p>Stateless apart from the serde; used on the stream thread that owns the task.
 *
 * @param <T> the value type
 */
public final class SerdeEventCodec<T> implements EventCodec<T> {

    private final Serde<T> serde;
    private final String topic;

    /**
     * @param serde the values' serde
     * @param topic the topic name handed to the serde (the state store's name)
     */
    public SerdeEventCodec(Serde<T> serde, String topic) {
        this.serde = Objects.requireNonNull(serde, "serde");
        this.topic = Objects.requireNonNull(topic, "topic");
    }

    @Override
    public void write(T event, DataOutput out) throws IOException {
        byte[] bytes = serde.serializer().serialize(topic, event);
        if (bytes == null) {
            throw new IOException("the serde wrote no bytes for " + event);
        }
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    @Override
    public T read(DataInput in) throws IOException {
        byte[] bytes = readBytes(in);
        T event = serde.deserializer().deserialize(topic, bytes);
        if (event == null) {
            throw new IOException("the serde read nothing from " + bytes.length + " bytes it wrote");
        }
        return event;
    }

    /** Reads a length, then as many bytes. */
    static byte[] readBytes(DataInput in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > 64 << 20) {
            throw new IOException("a serialized value of " + length + " bytes");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }
}
