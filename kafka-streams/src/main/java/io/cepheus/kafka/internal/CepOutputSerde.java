package io.cepheus.kafka.internal;

import io.cepheus.kafka.CepOutput;
import io.cepheus.kafka.DeadLetterEvent;
import io.cepheus.kafka.LateEvent;
import io.cepheus.kafka.PatternMatch;
import io.cepheus.kafka.PatternTimeout;
import io.cepheus.kafka.RuleMatch;
import io.cepheus.kafka.RuleRejected;
import io.cepheus.kafka.RuleTimeout;
import io.cepheus.nfa.Match;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The serde of {@link CepOutput}: a format version, the kind, then the kind's fields; events are written with the
 * input's value serde. Stateless apart from the value serde.
 *
 * @param <V> the value type
 */
public final class CepOutputSerde<V> implements Serde<CepOutput<V>> {

    private static final int FORMAT = 1;
    private static final int MATCH = 1;
    private static final int TIMEOUT = 2;
    private static final int LATE = 3;
    private static final int DEAD_LETTER = 4;
    private static final int RULE_MATCH = 5;
    private static final int RULE_TIMEOUT = 6;
    private static final int RULE_REJECTED = 7;
    /** What {@link DataOutput#writeUTF} takes at most, in characters that may each need three bytes. */
    private static final int MAX_TEXT = 20_000;

    private final Serde<V> values;

    /** @param values the input values' serde */
    public CepOutputSerde(Serde<V> values) {
        this.values = java.util.Objects.requireNonNull(values, "values");
    }

    @Override
    public Serializer<CepOutput<V>> serializer() {
        return (topic, output) -> {
            if (output == null) {
                return null;
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                write(output, out, new SerdeEventCodec<>(values, topic == null ? "" : topic));
            } catch (IOException e) {
                throw new SerializationException("cannot write " + output, e);
            }
            return bytes.toByteArray();
        };
    }

    @Override
    public Deserializer<CepOutput<V>> deserializer() {
        return (topic, data) -> {
            if (data == null) {
                return null;
            }
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
                return read(in, new SerdeEventCodec<>(values, topic == null ? "" : topic));
            } catch (IOException e) {
                throw new SerializationException("topic " + topic + ": not a Cepheus output record ("
                        + data.length + " bytes): " + e.getMessage(), e);
            }
        };
    }

    private static <V> void write(CepOutput<V> output, DataOutput out, SerdeEventCodec<V> events) throws IOException {
        out.writeByte(FORMAT);
        if (output instanceof PatternMatch<V> m) {
            out.writeByte(MATCH);
            out.writeUTF(m.pattern());
            writeMatch(m.match(), out, events);
        } else if (output instanceof PatternTimeout<V> t) {
            out.writeByte(TIMEOUT);
            out.writeUTF(t.pattern());
            writeMatch(t.partialMatch(), out, events);
        } else if (output instanceof RuleMatch<V> m) {
            out.writeByte(RULE_MATCH);
            out.writeUTF(m.rule());
            out.writeInt(m.version());
            writeMatch(m.match(), out, events);
        } else if (output instanceof RuleTimeout<V> t) {
            out.writeByte(RULE_TIMEOUT);
            out.writeUTF(t.rule());
            out.writeInt(t.version());
            writeMatch(t.partialMatch(), out, events);
        } else if (output instanceof RuleRejected<V> r) {
            out.writeByte(RULE_REJECTED);
            out.writeUTF(r.rule());
            writeOptionalText(r.reason(), out);
        } else if (output instanceof LateEvent<V> l) {
            out.writeByte(LATE);
            events.write(l.event(), out);
            out.writeLong(l.watermark());
        } else {
            DeadLetterEvent<V> d = (DeadLetterEvent<V>) output;
            out.writeByte(DEAD_LETTER);
            writeOptionalText(d.pattern(), out);
            out.writeBoolean(d.event() != null);
            if (d.event() != null) {
                events.write(d.event(), out);
            }
            writeOptionalText(d.reason(), out);
        }
    }

    private static <V> CepOutput<V> read(DataInput in, SerdeEventCodec<V> events) throws IOException {
        int format = in.readUnsignedByte();
        if (format != FORMAT) {
            throw new IOException("format " + format + "; this version reads format " + FORMAT);
        }
        int kind = in.readUnsignedByte();
        return switch (kind) {
            case MATCH -> new PatternMatch<>(in.readUTF(), readMatch(in, events));
            case TIMEOUT -> new PatternTimeout<>(in.readUTF(), readMatch(in, events));
            case LATE -> new LateEvent<>(events.read(in), in.readLong());
            case RULE_MATCH -> new RuleMatch<>(in.readUTF(), in.readInt(), readMatch(in, events));
            case RULE_TIMEOUT -> new RuleTimeout<>(in.readUTF(), in.readInt(), readMatch(in, events));
            case RULE_REJECTED -> {
                String rule = in.readUTF();
                String reason = readOptionalText(in);
                yield new RuleRejected<>(rule, reason == null ? "" : reason);
            }
            case DEAD_LETTER -> {
                String pattern = readOptionalText(in);
                V event = in.readBoolean() ? events.read(in) : null;
                String reason = readOptionalText(in);
                yield new DeadLetterEvent<>(pattern, event, reason == null ? "" : reason);
            }
            default -> throw new IOException("unknown kind " + kind);
        };
    }

    private static <V> void writeMatch(Match<V> match, DataOutput out, SerdeEventCodec<V> events)
            throws IOException {
        List<String> stages = match.stageNames();
        out.writeInt(stages.size());
        for (String s : stages) {
            out.writeUTF(s);
        }
        List<V> all = match.allEvents();
        out.writeInt(all.size());
        for (int i = 0; i < all.size(); i++) {
            out.writeInt(match.stageIndex(i));
            out.writeLong(match.timestamp(i));
            events.write(all.get(i), out);
        }
    }

    private static <V> Match<V> readMatch(DataInput in, SerdeEventCodec<V> events) throws IOException {
        int stageCount = count(in.readInt(), "stages");
        List<String> stages = new ArrayList<>(stageCount);
        for (int i = 0; i < stageCount; i++) {
            stages.add(in.readUTF());
        }
        int n = count(in.readInt(), "events");
        List<V> all = new ArrayList<>(n);
        int[] stageOf = new int[n];
        long[] timestamps = new long[n];
        for (int i = 0; i < n; i++) {
            stageOf[i] = in.readInt();
            timestamps[i] = in.readLong();
            all.add(events.read(in));
        }
        try {
            return Match.of(stages, all, stageOf, timestamps);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    private static int count(int n, String what) throws IOException {
        if (n < 0 || n > 1_000_000) {
            throw new IOException(n + " " + what);
        }
        return n;
    }

    private static void writeOptionalText(String text, DataOutput out) throws IOException {
        out.writeBoolean(text != null);
        if (text != null) {
            out.writeUTF(text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT) : text);
        }
    }

    private static String readOptionalText(DataInput in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }
}
