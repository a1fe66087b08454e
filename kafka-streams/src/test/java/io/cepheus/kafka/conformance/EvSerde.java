package io.cepheus.kafka.conformance;

import io.cepheus.nfa.conformance.Ev;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** The conformance events' serde: type, value, timestamp and token. */
public final class EvSerde implements Serde<Ev> {

    @Override
    public Serializer<Ev> serializer() {
        return (topic, ev) -> {
            if (ev == null) {
                return null;
            }
            byte[] token = ev.token().getBytes(StandardCharsets.UTF_8);
            return ByteBuffer.allocate(2 + 4 + 8 + token.length).putChar(ev.type()).putInt(ev.value()).putLong(ev.ts())
                    .put(token).array();
        };
    }

    @Override
    public Deserializer<Ev> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            ByteBuffer b = ByteBuffer.wrap(bytes);
            char type = b.getChar();
            int value = b.getInt();
            long ts = b.getLong();
            byte[] token = new byte[b.remaining()];
            b.get(token);
            return new Ev(type, value, ts, new String(token, StandardCharsets.UTF_8));
        };
    }
}
