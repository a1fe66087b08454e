package io.cepheus.examples.kafka;

import io.cepheus.examples.FraudEvent;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The demo's events as Kafka record values: one line of text, fields separated by {@code |}
 * ({@code LOGIN|u17||false|0|C|1740816185000}), readable with {@code kafka-console-consumer}. A value that is not
 * such a line fails with a {@link SerializationException} naming what is wrong, which Kafka Streams' deserialization
 * exception handler then deals with.
 */
public final class FraudEventSerde implements Serde<FraudEvent> {

    @Override
    public Serializer<FraudEvent> serializer() {
        return (topic, e) -> e == null ? null : (e.kind() + "|" + e.user() + "|" + (e.card() == null ? "" : e.card())
                + "|" + e.success() + "|" + e.amountCents() + "|" + e.grade() + "|" + e.ts())
                .getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public Deserializer<FraudEvent> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            String line = new String(bytes, StandardCharsets.UTF_8);
            String[] f = line.split("\\|", -1);
            if (f.length != 7) {
                throw new SerializationException("topic " + topic + ": a fraud event has 7 fields separated by |,"
                        + " this value has " + f.length + ": " + abbreviated(line));
            }
            try {
                return new FraudEvent(FraudEvent.Kind.valueOf(f[0]), f[1], f[2].isEmpty() ? null : f[2],
                        Boolean.parseBoolean(f[3]), Long.parseLong(f[4]), f[5], Long.parseLong(f[6]));
            } catch (IllegalArgumentException e) {
                throw new SerializationException("topic " + topic + ": not a fraud event (" + e.getMessage() + "): "
                        + abbreviated(line), e);
            }
        };
    }

    private static String abbreviated(String line) {
        return line.length() <= 80 ? line : line.substring(0, 80) + "...";
    }
}
