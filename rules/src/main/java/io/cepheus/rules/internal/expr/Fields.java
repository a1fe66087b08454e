package io.cepheus.rules.internal.expr;

import io.cepheus.pattern.FieldRequirement;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * Nodes that read a field of the event. Class fields are read through accessors made once per class and field
 * ({@link ClassFields}): a generated lambda that calls the getter directly, or, where none can be made (a public
 * field), a method handle; primitive fields are read unboxed.
 */
final class Fields {

    private Fields() {
    }

    /** An integral primitive field, widened to long. */
    static final class OfLong extends LongExpr {
        final ToLongFunction<Object> getter;

        OfLong(ToLongFunction<Object> getter, int pos) {
            super(pos);
            this.getter = getter;
        }

        @Override
        long evalLong(Object event, Scope scope) {
            return getter.applyAsLong(event);
        }
    }

    /** A {@code char} field. */
    static final class OfChar extends CharExpr {
        final ToIntFunction<Object> getter;

        OfChar(ToIntFunction<Object> getter, int pos) {
            super(pos);
            this.getter = getter;
        }

        @Override
        char evalChar(Object event, Scope scope) {
            return (char) getter.applyAsInt(event);
        }
    }

    /** A {@code float} or {@code double} field. */
    static final class OfDouble extends DoubleExpr {
        final ToDoubleFunction<Object> getter;

        OfDouble(ToDoubleFunction<Object> getter, int pos) {
            super(pos);
            this.getter = getter;
        }

        @Override
        double evalDouble(Object event, Scope scope) {
            return getter.applyAsDouble(event);
        }
    }

    /** A {@code boolean} field. */
    static final class OfBool extends BoolExpr {
        private final Predicate<Object> getter;

        OfBool(Predicate<Object> getter, int pos) {
            super(pos);
            this.getter = getter;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            return getter.test(event);
        }
    }

    /**
     * A reference field, or a field of the value of another ({@code card.country}): null when the value it is read
     * from is null.
     */
    static final class OfReference extends Expr {
        /** Null for a field of the event itself. */
        final Expr parent;
        final Function<Object, Object> getter;

        OfReference(Expr parent, Function<Object, Object> getter, int pos) {
            super(pos);
            this.parent = parent;
            this.getter = getter;
        }

        @Override
        Object value(Object event, Scope scope) {
            Object owner = parent == null ? event : parent.value(event, scope);
            return owner == null ? null : getter.apply(owner);
        }
    }

    /** A {@code Character} or enum value read as the string it stands for. */
    static final class AsString extends Expr {
        private final Expr inner;

        AsString(Expr inner) {
            super(inner.pos);
            this.inner = inner;
        }

        @Override
        Object value(Object event, Scope scope) {
            return Values.asString(inner.value(event, scope));
        }
    }

    /** A key of a map event, or of a map value of one ({@code card.country}); a missing key reads as null. */
    static final class MapKey extends Expr {
        /** Null for a key of the event itself. */
        final Expr parent;
        final String key;

        MapKey(Expr parent, String key, int pos) {
            super(pos);
            this.parent = parent;
            this.key = key;
        }

        @Override
        Object value(Object event, Scope scope) {
            Object owner = parent == null ? event : parent.value(event, scope);
            if (owner instanceof Map<?, ?> map) {
                return map.get(key);
            }
            if (owner == null) {
                return null;
            }
            throw new EvalError(pos, parent == null
                    ? "a rule compiled for map events got " + Values.describe(owner)
                    : "cannot read '" + key + "' of " + Values.describe(owner) + ": it is not a map");
        }
    }

    /**
     * The commonest conditions fused with the field they read: {@code value > 5}, {@code type == 'A'},
     * {@code country == 'DE'} call the field's accessor directly, one call less between the matcher and the getter
     * (the JIT inlines a chain only so deep, and a matcher's own calls come first).
     */
    static final class Fused {
        private Fused() {
        }

        /** An integral field within {@code [lo, hi]} (or outside, negated): every comparison with a constant. */
        static final class LongInRange extends BoolExpr {
            private final ToLongFunction<Object> getter;
            private final long lo;
            private final long hi;
            private final boolean negated;

            LongInRange(ToLongFunction<Object> getter, long lo, long hi, boolean negated, int pos) {
                super(pos);
                this.getter = getter;
                this.lo = lo;
                this.hi = hi;
                this.negated = negated;
            }

            @Override
            public boolean test(Object event, Scope scope) {
                long v = getter.applyAsLong(event);
                return (v >= lo && v <= hi) != negated;
            }

            @Override
            boolean isFieldTest() {
                return true;
            }

            @Override
            FieldRequirement<Object> requirement(String field) {
                if (negated) {
                    return null;
                }
                ToDoubleFunction<Object> reader = e -> (double) getter.applyAsLong(e);
                if (lo == hi) {
                    return FieldRequirement.numberOneOf(field, reader, (double) lo);
                }
                // rounding to double keeps the order (never strict), so every accepted value stays within the bounds
                return FieldRequirement.numberBetween(field, reader,
                        lo == Long.MIN_VALUE ? Double.NEGATIVE_INFINITY : (double) lo,
                        hi == Long.MAX_VALUE ? Double.POSITIVE_INFINITY : (double) hi);
            }
        }

        /** A {@code char} field equal to a character (or not). */
        static final class CharIs extends BoolExpr {
            private final ToIntFunction<Object> getter;
            private final char c;
            private final boolean negated;

            CharIs(ToIntFunction<Object> getter, char c, boolean negated, int pos) {
                super(pos);
                this.getter = getter;
                this.c = c;
                this.negated = negated;
            }

            @Override
            public boolean test(Object event, Scope scope) {
                return ((char) getter.applyAsInt(event) == c) != negated;
            }

            @Override
            boolean isFieldTest() {
                return true;
            }

            @Override
            FieldRequirement<Object> requirement(String field) {
                return negated ? null : FieldRequirement.numberOneOf(field, e -> (char) getter.applyAsInt(e), c);
            }
        }

        /** A decimal field compared with a constant. */
        static final class DoubleVsConstant extends BoolExpr {
            private final ToDoubleFunction<Object> getter;
            private final Ast.CmpOp op;
            private final double c;

            DoubleVsConstant(ToDoubleFunction<Object> getter, Ast.CmpOp op, double c, int pos) {
                super(pos);
                this.getter = getter;
                this.op = op;
                this.c = c;
            }

            @Override
            public boolean test(Object event, Scope scope) {
                double v = getter.applyAsDouble(event);
                if (v != v) {
                    return false; // NaN compares with nothing, as null does
                }
                return switch (op) {
                    case EQ -> v == c;
                    case NE -> v != c;
                    case LT -> v < c;
                    case LE -> v <= c;
                    case GT -> v > c;
                    case GE -> v >= c;
                };
            }

            @Override
            boolean isFieldTest() {
                return true;
            }

            @Override
            FieldRequirement<Object> requirement(String field) {
                ToDoubleFunction<Object> reader = getter;
                return switch (op) {
                    case EQ -> FieldRequirement.numberOneOf(field, reader, c);
                    case NE -> null;
                    case LT, LE -> FieldRequirement.numberBetween(field, reader, Double.NEGATIVE_INFINITY, c);
                    case GT, GE -> FieldRequirement.numberBetween(field, reader, c, Double.POSITIVE_INFINITY);
                };
            }
        }

        /** A string field (of the event itself) equal to a constant (or not); null is neither. */
        static final class StringIs extends BoolExpr {
            private final Function<Object, Object> getter;
            private final String c;
            private final boolean negated;

            StringIs(Function<Object, Object> getter, String c, boolean negated, int pos) {
                super(pos);
                this.getter = getter;
                this.c = c;
                this.negated = negated;
            }

            @Override
            public boolean test(Object event, Scope scope) {
                Object v = getter.apply(event);
                return v != null && c.equals(v) != negated;
            }

            @Override
            boolean isFieldTest() {
                return true;
            }

            @Override
            FieldRequirement<Object> requirement(String field) {
                return negated ? null : FieldRequirement.textOneOf(field,
                        e -> getter.apply(e) instanceof String v ? v : null, List.of(c));
            }
        }

        /** A key of a map event equal to a string constant (or not); null (a missing key) is neither. */
        static final class MapValueIs extends BoolExpr {
            private final String key;
            private final String c;
            private final boolean negated;

            MapValueIs(String key, String c, boolean negated, int pos) {
                super(pos);
                this.key = key;
                this.c = c;
                this.negated = negated;
            }

            @Override
            public boolean test(Object event, Scope scope) {
                if (!(event instanceof Map<?, ?> map)) {
                    throw new EvalError(pos, "a rule compiled for map events got " + Values.describe(event));
                }
                Object v = map.get(key);
                if (v == null) {
                    return false;
                }
                if (v instanceof String s) {
                    return c.equals(s) != negated;
                }
                return Values.compare(negated ? Ast.CmpOp.NE : Ast.CmpOp.EQ, v, c, pos); // as any other value
            }

            @Override
            boolean isFieldTest() {
                return true;
            }

            @Override
            FieldRequirement<Object> requirement(String field) {
                if (negated) {
                    return null;
                }
                // fails where the test fails (not a map); a value other than a string is left to the test
                return FieldRequirement.textOneOf(field, e -> {
                    if (!(e instanceof Map<?, ?> map)) {
                        throw new EvalError(pos, "a rule compiled for map events got " + Values.describe(e));
                    }
                    return map.get(key) instanceof String v ? v : null;
                }, List.of(c));
            }
        }
    }

    /** Method-handle readers, for what no lambda can be made for (public fields). */
    static final class Handles {
        private Handles() {
        }

        /** @return what a handle threw, as it was if unchecked; a field read declares nothing checked */
        private static RuntimeException unchecked(Throwable t) {
            if (t instanceof RuntimeException r) {
                return r;
            }
            if (t instanceof Error e) {
                throw e;
            }
            return new IllegalStateException(t);
        }

        /** An integral primitive read through a handle of type {@code (Object)long}. */
        static final class OfLong extends LongExpr {
            private final MethodHandle handle;

            OfLong(MethodHandle handle, int pos) {
                super(pos);
                this.handle = handle;
            }

            @Override
            long evalLong(Object event, Scope scope) {
                try {
                    return (long) handle.invokeExact(event);
                } catch (Throwable t) {
                    throw unchecked(t);
                }
            }
        }

        /** A {@code char} read through a handle of type {@code (Object)char}. */
        static final class OfChar extends CharExpr {
            private final MethodHandle handle;

            OfChar(MethodHandle handle, int pos) {
                super(pos);
                this.handle = handle;
            }

            @Override
            char evalChar(Object event, Scope scope) {
                try {
                    return (char) handle.invokeExact(event);
                } catch (Throwable t) {
                    throw unchecked(t);
                }
            }
        }

        /** A decimal read through a handle of type {@code (Object)double}. */
        static final class OfDouble extends DoubleExpr {
            private final MethodHandle handle;

            OfDouble(MethodHandle handle, int pos) {
                super(pos);
                this.handle = handle;
            }

            @Override
            double evalDouble(Object event, Scope scope) {
                try {
                    return (double) handle.invokeExact(event);
                } catch (Throwable t) {
                    throw unchecked(t);
                }
            }
        }

        /** A boolean read through a handle of type {@code (Object)boolean}. */
        static final class OfBool extends BoolExpr {
            private final MethodHandle handle;

            OfBool(MethodHandle handle, int pos) {
                super(pos);
                this.handle = handle;
            }

            @Override
            public boolean test(Object event, Scope scope) {
                try {
                    return (boolean) handle.invokeExact(event);
                } catch (Throwable t) {
                    throw unchecked(t);
                }
            }
        }
    }
}
