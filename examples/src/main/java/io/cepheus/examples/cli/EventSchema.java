package io.cepheus.examples.cli;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * How one event type maps to named fields, both ways: reading it from a CSV row or a JSON object, and
 * writing it into a JSON alert. Each field has a kind that says how its text looks (documented by
 * {@link #describeFields()}, printed by {@code --help}). Immutable.
 *
 * @param <E> the event type
 */
public final class EventSchema<E> {

    /** How a field's value is written as text. */
    public enum Kind {
        /** Any text. */
        TEXT("text"),
        /** Money: digits with at most two decimals; held in cents. */
        MONEY("amount, e.g. 12.34"),
        /** A number. */
        NUMBER("number, e.g. 98.6"),
        /** true or false. */
        BOOLEAN("true or false"),
        /** Epoch milliseconds or ISO-8601 with a zone. */
        TIME("epoch ms or ISO-8601, e.g. 2025-03-01T08:00:00Z"),
        /** One of a few words. */
        CHOICE("one of");

        private final String looks;

        Kind(String looks) {
            this.looks = looks;
        }
    }

    /**
     * One field.
     *
     * @param name     its name: the CSV header or JSON key
     * @param kind     how its value is written
     * @param choices  for {@link Kind#CHOICE}, the words allowed (lower case); empty otherwise
     * @param required whether every event needs it
     * @param doc      what it means
     * @param value    the field's value in an event (cents for money, epoch ms for time, an enum for a choice)
     * @param <E>      the event type
     */
    public record Field<E>(String name, Kind kind, List<String> choices, boolean required, String doc,
            Function<E, Object> value) {
    }

    private final String name;
    private final Class<E> type;
    private final List<Field<E>> fields;
    private final Function<Row, E> parser;
    private final boolean typedJson;

    private EventSchema(String name, Class<E> type, List<Field<E>> fields, Function<Row, E> parser,
            boolean typedJson) {
        this.name = name;
        this.type = type;
        this.fields = List.copyOf(fields);
        this.parser = parser;
        this.typedJson = typedJson;
    }

    /** @return whether JSON lines are read with their types and nesting ({@link Row#typed()}) */
    public boolean typedJson() {
        return typedJson;
    }

    /**
     * @param name what one event is called ({@code payment})
     * @param type the event class, to pick the schema of an alert's event
     * @param <E>  the event type
     * @return a builder
     */
    public static <E> Builder<E> builder(String name, Class<E> type) {
        return new Builder<>(name, type);
    }

    /** @return what one event is called */
    public String name() {
        return name;
    }

    /** @return the fields, in order */
    public List<Field<E>> fields() {
        return fields;
    }

    /**
     * @param event any object
     * @return whether this schema writes it
     */
    public boolean handles(Object event) {
        return type.isInstance(event);
    }

    /**
     * @param row one line of input
     * @return the event
     * @throws MalformedLineException if a field is missing or malformed
     */
    public E parse(Row row) {
        return parser.apply(row);
    }

    /**
     * @param event an event of this schema
     * @return its fields as JSON values (strings, numbers, booleans), in order; absent values left out
     */
    public Map<String, Object> toJson(Object event) {
        E e = type.cast(event);
        Map<String, Object> out = new LinkedHashMap<>();
        for (Field<E> f : fields) {
            Object v = f.value().apply(e);
            if (v != null) {
                out.put(f.name(), json(f.kind(), v));
            }
        }
        return out;
    }

    private static Object json(Kind kind, Object v) {
        return switch (kind) {
            case MONEY -> BigDecimal.valueOf((Long) v, 2);
            case TIME -> Instant.ofEpochMilli((Long) v).toString();
            case CHOICE -> ((Enum<?>) v).name().toLowerCase(Locale.ROOT);
            default -> v;
        };
    }

    /** @return one line per field: name, required or optional, how it looks, what it means */
    public List<String> describeFields() {
        List<String> out = new ArrayList<>();
        int width = 0;
        for (Field<E> f : fields) {
            width = Math.max(width, f.name().length());
        }
        for (Field<E> f : fields) {
            String looks = f.kind() == Kind.CHOICE ? "one of " + String.join("|", f.choices()) : f.kind().looks;
            out.add(String.format(Locale.ROOT, "  %-" + width + "s  %-8s  %s: %s", f.name(),
                    f.required() ? "required" : "optional", looks, f.doc()));
        }
        return out;
    }

    /**
     * Declares the fields, then the parser.
     *
     * @param <E> the event type
     */
    public static final class Builder<E> {
        private final String name;
        private final Class<E> type;
        private final List<Field<E>> fields = new ArrayList<>();
        private boolean typedJson;

        private Builder(String name, Class<E> type) {
            this.name = Objects.requireNonNull(name, "name");
            this.type = Objects.requireNonNull(type, "type");
        }

        /**
         * Reads JSON lines with their types and nesting ({@link Row#typed()}), not as flat text.
         *
         * @return this builder
         */
        public Builder<E> typedJson() {
            this.typedJson = true;
            return this;
        }

        /**
         * @param field    the name
         * @param kind     how it is written (not {@link Kind#CHOICE})
         * @param required whether every event needs it
         * @param doc      what it means
         * @param value    reads it from an event
         * @return this builder
         */
        public Builder<E> field(String field, Kind kind, boolean required, String doc, Function<E, Object> value) {
            if (kind == Kind.CHOICE) {
                throw new IllegalArgumentException("use choice(...) for " + field);
            }
            fields.add(new Field<>(field, kind, List.of(), required, doc, value));
            return this;
        }

        /**
         * @param field   the name
         * @param choices the enum's constants
         * @param doc     what it means
         * @param value   reads it from an event
         * @return this builder
         */
        public Builder<E> choice(String field, Enum<?>[] choices, String doc, Function<E, Object> value) {
            List<String> words = new ArrayList<>();
            for (Enum<?> c : choices) {
                words.add(c.name().toLowerCase(Locale.ROOT));
            }
            fields.add(new Field<>(field, Kind.CHOICE, words, true, doc, value));
            return this;
        }

        /**
         * @param parser builds an event from a row, with {@link Row}'s typed getters
         * @return the schema
         */
        public EventSchema<E> parser(Function<Row, E> parser) {
            return new EventSchema<>(name, type, fields, parser, typedJson);
        }

        /** @return a schema that only writes events (alerts of alerts), and rejects input */
        public EventSchema<E> outputOnly() {
            return new EventSchema<>(name, type, fields, row -> {
                throw new MalformedLineException(row.line(), name + " events are output only");
            }, false);
        }
    }
}
