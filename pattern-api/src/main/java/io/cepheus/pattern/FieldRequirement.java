package io.cepheus.pattern;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * What an {@link IndexableCondition} requires of one field of the event: that its value is one of some numbers, lies
 * between two numbers, or is one of some strings. An engine indexes conditions by these (a hash lookup for
 * values, sorted bounds for ranges) and reads each field once per event, however many conditions name it.
 *
 * <p>A field is known by its {@link #field() name}: two requirements naming the same field must read the same value
 * from any event, so that the engine may read it with either reader. A number reader returns {@code NaN} for a value
 * it cannot place (a missing or non-numeric value), a text reader {@code null}: the engine then lets the event
 * through to every condition on that field.
 *
 * <p>Immutable.
 *
 * @param <T> the event type
 */
public final class FieldRequirement<T> {

    /** How a requirement constrains its field. */
    public enum Kind {
        /** The number is one of {@link #numbers()}. */
        NUMBER_ONE_OF,
        /** The number lies in {@code [min(), max()]} (either may be infinite). */
        NUMBER_BETWEEN,
        /** The text is one of {@link #texts()}. */
        TEXT_ONE_OF
    }

    private final String field;
    private final Kind kind;
    private final ToDoubleFunction<? super T> numberReader;
    private final Function<? super T, String> textReader;
    private final double[] numbers;
    private final double min;
    private final double max;
    private final List<String> texts;

    private FieldRequirement(String field, Kind kind, ToDoubleFunction<? super T> numberReader,
            Function<? super T, String> textReader, double[] numbers, double min, double max, List<String> texts) {
        this.field = Objects.requireNonNull(field, "field");
        this.kind = kind;
        this.numberReader = numberReader;
        this.textReader = textReader;
        this.numbers = numbers;
        this.min = min;
        this.max = max;
        this.texts = texts;
    }

    /**
     * @param field  the field's name
     * @param reader reads it from an event ({@code NaN} when the value is not a number)
     * @param values the numbers it may equal (as doubles: an integer field's values convert exactly up to 2^53)
     * @param <T>    the event type
     * @return the requirement that the field equals one of {@code values}
     */
    public static <T> FieldRequirement<T> numberOneOf(String field, ToDoubleFunction<? super T> reader,
            double... values) {
        return new FieldRequirement<>(field, Kind.NUMBER_ONE_OF, Objects.requireNonNull(reader, "reader"), null,
                values.clone(), Double.NaN, Double.NaN, null);
    }

    /**
     * @param field  the field's name
     * @param reader reads it from an event ({@code NaN} when the value is not a number)
     * @param min    the least value accepted ({@code -Infinity} for no bound)
     * @param max    the greatest value accepted ({@code Infinity} for no bound)
     * @param <T>    the event type
     * @return the requirement that the field lies in {@code [min, max]}
     * @throws IllegalArgumentException if a bound is NaN
     */
    public static <T> FieldRequirement<T> numberBetween(String field, ToDoubleFunction<? super T> reader, double min,
            double max) {
        if (Double.isNaN(min) || Double.isNaN(max)) {
            throw new IllegalArgumentException("the bounds of field " + field + " are [" + min + ", " + max
                    + "]: a bound may be infinite, never NaN");
        }
        return new FieldRequirement<>(field, Kind.NUMBER_BETWEEN, Objects.requireNonNull(reader, "reader"), null,
                null, min, max, null);
    }

    /**
     * @param field  the field's name
     * @param reader reads it from an event ({@code null} when the value is not a string)
     * @param values the strings it may equal
     * @param <T>    the event type
     * @return the requirement that the field equals one of {@code values}
     */
    public static <T> FieldRequirement<T> textOneOf(String field, Function<? super T, String> reader,
            List<String> values) {
        return new FieldRequirement<>(field, Kind.TEXT_ONE_OF, null, Objects.requireNonNull(reader, "reader"), null,
                Double.NaN, Double.NaN, List.copyOf(values));
    }

    /** @return the field's name */
    public String field() {
        return field;
    }

    /** @return how it constrains the field */
    public Kind kind() {
        return kind;
    }

    /** @return the number reader ({@link Kind#NUMBER_ONE_OF}, {@link Kind#NUMBER_BETWEEN}), else null */
    public ToDoubleFunction<? super T> numberReader() {
        return numberReader;
    }

    /** @return the text reader ({@link Kind#TEXT_ONE_OF}), else null */
    public Function<? super T, String> textReader() {
        return textReader;
    }

    /** @return a copy of the numbers ({@link Kind#NUMBER_ONE_OF}), else an empty array */
    public double[] numbers() {
        return numbers == null ? new double[0] : numbers.clone();
    }

    /** @return the least value ({@link Kind#NUMBER_BETWEEN}), else NaN */
    public double min() {
        return min;
    }

    /** @return the greatest value ({@link Kind#NUMBER_BETWEEN}), else NaN */
    public double max() {
        return max;
    }

    /** @return the strings ({@link Kind#TEXT_ONE_OF}), else an empty list */
    public List<String> texts() {
        return texts == null ? List.of() : texts;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case NUMBER_ONE_OF -> field + " in " + Arrays.toString(numbers);
            case NUMBER_BETWEEN -> field + " in [" + min + ", " + max + "]";
            case TEXT_ONE_OF -> field + " in " + texts;
        };
    }
}
