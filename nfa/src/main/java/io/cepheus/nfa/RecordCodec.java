package io.cepheus.nfa;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * A ready {@link EventCodec} for records (or any class) of primitives and strings, declared field by field,
 * without reflection:
 *
 * <pre>{@code
 * EventCodec<Login> codec = RecordCodec.<Login>builder()
 *         .string(Login::user)
 *         .bool(Login::ok)
 *         .int64(Login::time)
 *         .build(f -> new Login(f.string(), f.bool(), f.int64()));
 * }</pre>
 * The factory reads the fields in the order they were declared; reading them in another order or as another
 * kind fails with a message naming the field. Strings may be null.
 *
 * @param <T> the record type
 */
public final class RecordCodec<T> implements EventCodec<T> {

    private enum Kind { INT32, INT64, FLOAT64, BOOL, STRING }

    private record Field<T>(Kind kind, Object getter) {
    }

    private final List<Field<T>> fields;
    private final List<Kind> kinds;
    private final Function<Fields, T> factory;

    private RecordCodec(List<Field<T>> fields, Function<Fields, T> factory) {
        this.fields = List.copyOf(fields);
        List<Kind> k = new ArrayList<>();
        for (Field<T> f : fields) {
            k.add(f.kind());
        }
        this.kinds = List.copyOf(k);
        this.factory = factory;
    }

    /**
     * @param <T> the record type
     * @return a builder with no field yet
     */
    public static <T> Builder<T> builder() {
        return new Builder<>();
    }

    @Override
    @SuppressWarnings("unchecked")
    public void write(T event, DataOutput out) throws IOException {
        for (Field<T> f : fields) {
            switch (f.kind()) {
                case INT32 -> out.writeInt(((ToIntFunction<T>) f.getter()).applyAsInt(event));
                case INT64 -> out.writeLong(((ToLongFunction<T>) f.getter()).applyAsLong(event));
                case FLOAT64 -> out.writeDouble(((ToDoubleFunction<T>) f.getter()).applyAsDouble(event));
                case BOOL -> out.writeBoolean(((Predicate<T>) f.getter()).test(event));
                case STRING -> {
                    String s = ((Function<T, String>) f.getter()).apply(event);
                    out.writeBoolean(s != null);
                    if (s != null) {
                        out.writeUTF(s);
                    }
                }
                default -> throw new IllegalStateException("unknown field kind " + f.kind());
            }
        }
    }

    @Override
    public T read(DataInput in) throws IOException {
        Fields reader = new Fields(in, kinds);
        T value = factory.apply(reader);
        if (reader.next != fields.size()) {
            throw new IllegalStateException("the factory read " + reader.next + " of the " + fields.size()
                    + " declared fields");
        }
        return value;
    }

    /** Reads the declared fields, in order, for the factory. */
    public static final class Fields {
        private final DataInput in;
        private final List<Kind> kinds;
        private int next;

        private Fields(DataInput in, List<Kind> kinds) {
            this.in = in;
            this.kinds = kinds;
        }

        /** @return the next field, declared with {@link Builder#int32} */
        public int int32() {
            expect(Kind.INT32);
            return io(() -> in.readInt());
        }

        /** @return the next field, declared with {@link Builder#int64} */
        public long int64() {
            expect(Kind.INT64);
            return io(() -> in.readLong());
        }

        /** @return the next field, declared with {@link Builder#float64} */
        public double float64() {
            expect(Kind.FLOAT64);
            return io(() -> in.readDouble());
        }

        /** @return the next field, declared with {@link Builder#bool} */
        public boolean bool() {
            expect(Kind.BOOL);
            return io(() -> in.readBoolean());
        }

        /** @return the next field, declared with {@link Builder#string} (possibly null) */
        public String string() {
            expect(Kind.STRING);
            return io(() -> in.readBoolean() ? in.readUTF() : null);
        }

        private void expect(Kind kind) {
            if (next >= kinds.size()) {
                throw new IllegalStateException("the factory reads field " + next + " but only " + kinds.size()
                        + " are declared");
            }
            Kind declared = kinds.get(next);
            if (declared != kind) {
                throw new IllegalStateException("field " + next + " is declared " + declared + " but read as " + kind);
            }
            next++;
        }

        private <V> V io(IoRead<V> read) {
            try {
                return read.get();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    @FunctionalInterface
    private interface IoRead<V> {
        V get() throws IOException;
    }

    /**
     * Declares the fields, in the order they are written and read.
     *
     * @param <T> the record type
     */
    public static final class Builder<T> {
        private final List<Field<T>> fields = new ArrayList<>();

        private Builder() {
        }

        /**
         * @param getter an int field
         * @return this builder
         */
        public Builder<T> int32(ToIntFunction<T> getter) {
            return add(Kind.INT32, getter);
        }

        /**
         * @param getter a long field
         * @return this builder
         */
        public Builder<T> int64(ToLongFunction<T> getter) {
            return add(Kind.INT64, getter);
        }

        /**
         * @param getter a double field
         * @return this builder
         */
        public Builder<T> float64(ToDoubleFunction<T> getter) {
            return add(Kind.FLOAT64, getter);
        }

        /**
         * @param getter a boolean field
         * @return this builder
         */
        public Builder<T> bool(Predicate<T> getter) {
            return add(Kind.BOOL, getter);
        }

        /**
         * @param getter a String field (null allowed)
         * @return this builder
         */
        public Builder<T> string(Function<T, String> getter) {
            return add(Kind.STRING, getter);
        }

        /**
         * @param factory builds a record from the fields, read in declaration order
         * @return the codec
         */
        public RecordCodec<T> build(Function<Fields, T> factory) {
            return new RecordCodec<>(fields, Objects.requireNonNull(factory, "factory"));
        }

        private Builder<T> add(Kind kind, Object getter) {
            fields.add(new Field<>(kind, Objects.requireNonNull(getter, "getter")));
            return this;
        }
    }
}
