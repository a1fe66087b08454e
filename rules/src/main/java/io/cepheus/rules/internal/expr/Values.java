package io.cepheus.rules.internal.expr;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The expression language's rules for values whose type is known only when the event is read (map events,
 * {@code Object} fields, aggregates): numbers compare and compute by value across integer and decimal types, strings
 * lexicographically, a {@code Character} or an enum constant as the string it reads as; anything with {@code null} is
 * {@code null} in arithmetic and {@code false} in a comparison. A value of the wrong type is an {@link EvalError}.
 */
final class Values {

    private Values() {
    }

    /** @return whether {@code n} holds an integer (Java's integral boxes and {@link BigInteger}) */
    static boolean isIntegral(Object n) {
        return n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte
                || n instanceof AtomicLong || n instanceof AtomicInteger || n instanceof BigInteger;
    }

    /** @return whether {@code n} is an integer that fits a long */
    static boolean isLong(Object n) {
        return n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte
                || n instanceof AtomicLong || n instanceof AtomicInteger
                || (n instanceof BigInteger b && b.bitLength() < 64);
    }

    private static boolean isNaN(Number n) {
        return (n instanceof Double d && d.isNaN()) || (n instanceof Float f && f.isNaN());
    }

    /** @return a string, a {@link Character} or an enum constant as the string it reads as; else null */
    static String asString(Object v) {
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof Character c) {
            return CharExpr.asString(c);
        }
        if (v instanceof Enum<?> e) {
            return e.name();
        }
        return null;
    }

    /**
     * Compares two numbers by value, exactly (a long beyond 2^53 against a double is not rounded).
     *
     * @return negative, zero or positive; NaN compares above everything, as {@link Double#compare} orders it
     */
    static int compareNumbers(Number a, Number b) {
        if (isLong(a) && isLong(b)) {
            return Long.compare(a.longValue(), b.longValue());
        }
        if (a instanceof BigDecimal || b instanceof BigDecimal || a instanceof BigInteger || b instanceof BigInteger) {
            return decimal(a).compareTo(decimal(b));
        }
        if (isLong(a)) {
            return compare(a.longValue(), b.doubleValue());
        }
        if (isLong(b)) {
            return -compare(b.longValue(), a.doubleValue());
        }
        return Double.compare(a.doubleValue(), b.doubleValue());
    }

    /** Compares a long with a double exactly. */
    static int compare(long a, double b) {
        if (Double.isNaN(b)) {
            return -1;
        }
        if (b >= 0x1p63) {
            return -1;
        }
        if (b < -0x1p63) {
            return 1;
        }
        long whole = (long) b; // truncates toward zero; exact for |b| < 2^63
        if (a != whole) {
            return Long.compare(a, whole);
        }
        double fraction = b - whole;
        return fraction > 0 ? -1 : fraction < 0 ? 1 : 0;
    }

    private static BigDecimal decimal(Number n) {
        if (n instanceof BigDecimal d) {
            return d;
        }
        if (n instanceof BigInteger i) {
            return new BigDecimal(i);
        }
        if (isLong(n)) {
            return BigDecimal.valueOf(n.longValue());
        }
        double d = n.doubleValue();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            // ordered as Double.compare orders them: no BigDecimal can hold them
            return d > 0 || Double.isNaN(d) ? BigDecimal.valueOf(Double.MAX_VALUE).multiply(BigDecimal.TEN)
                    : BigDecimal.valueOf(-Double.MAX_VALUE).multiply(BigDecimal.TEN);
        }
        return new BigDecimal(d);
    }

    /**
     * A comparison of two values of types known only now.
     *
     * @return the outcome; false if either is null
     * @throws EvalError if the values cannot be compared (a string with a number, an ordering of booleans)
     */
    static boolean compare(Ast.CmpOp op, Object a, Object b, int pos) {
        if (a == null || b == null) {
            return false;
        }
        if (a instanceof Number x && b instanceof Number y) {
            if (isNaN(x) || isNaN(y)) {
                return false; // NaN compares with nothing, as null does
            }
            return op.holds(compareNumbers(x, y));
        }
        String sa = asString(a);
        String sb = asString(b);
        if (sa != null && sb != null) {
            return op.holds(sa.compareTo(sb));
        }
        if (a instanceof Boolean x && b instanceof Boolean y) {
            if (op.orders()) {
                throw new EvalError(pos, "'" + op.symbol + "' does not order booleans (" + x + " " + op.symbol + " "
                        + y + ")");
            }
            return op.holds(x.equals(y) ? 0 : 1);
        }
        if (a.getClass() == b.getClass() && a instanceof Comparable<?>) {
            @SuppressWarnings("unchecked")
            Comparable<Object> ca = (Comparable<Object>) a;
            return op.holds(ca.compareTo(b));
        }
        throw new EvalError(pos, "cannot compare " + describe(a) + " with " + describe(b));
    }

    /** @return whether two values are equal by the language's rules (false if either is null or they cannot compare) */
    static boolean equalsLiteral(Object value, Object literal) {
        if (value == null || literal == null) {
            return false;
        }
        if (value instanceof Number x && literal instanceof Number y) {
            return compareNumbers(x, y) == 0;
        }
        String sv = asString(value);
        if (sv != null && literal instanceof String sl) {
            return sv.equals(sl);
        }
        return value.equals(literal);
    }

    /**
     * Arithmetic on values of types known only now: integers stay integers (exact, an overflow is an error), a
     * decimal makes the result a double; null in, null out.
     */
    static Object arith(Ast.ArithOp op, Object a, Object b, int pos) {
        if (a == null || b == null) {
            return null;
        }
        if (!(a instanceof Number x)) {
            throw new EvalError(pos, "'" + op.symbol + "' needs numbers, got " + describe(a));
        }
        if (!(b instanceof Number y)) {
            throw new EvalError(pos, "'" + op.symbol + "' needs numbers, got " + describe(b));
        }
        if (isLong(x) && isLong(y)) {
            return Arithmetic.longOp(op, x.longValue(), y.longValue(), pos);
        }
        if ((x instanceof BigInteger || x instanceof BigDecimal) || (y instanceof BigInteger || y instanceof BigDecimal)) {
            if (!(x instanceof BigDecimal) && !(y instanceof BigDecimal) && isIntegral(x) && isIntegral(y)) {
                throw new EvalError(pos, "integer overflow: " + x + " " + op.symbol + " " + y
                        + " does not fit in 64 bits");
            }
        }
        return Arithmetic.doubleOp(op, x.doubleValue(), y.doubleValue(), pos);
    }

    /** @return {@code -v} by the same rules */
    static Object negate(Object v, int pos) {
        if (v == null) {
            return null;
        }
        if (!(v instanceof Number n)) {
            throw new EvalError(pos, "'-' needs a number, got " + describe(v));
        }
        if (isLong(n)) {
            long l = n.longValue();
            if (l == Long.MIN_VALUE) {
                throw new EvalError(pos, "integer overflow: -(" + l + ") does not fit in 64 bits");
            }
            return -l;
        }
        return -n.doubleValue();
    }

    /**
     * @return a value in a boolean position: a boolean as itself, null as false
     * @throws EvalError for anything else
     */
    static boolean truth(Object v, int pos) {
        if (v == null) {
            return false;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        throw new EvalError(pos, "expected a boolean, got " + describe(v));
    }

    /** @return a value and its type, for messages */
    static String describe(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof String s) {
            return "the string '" + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "'";
        }
        if (v instanceof Number) {
            return "the number " + v;
        }
        if (v instanceof Boolean) {
            return "the boolean " + v;
        }
        String text = String.valueOf(v);
        return "a " + v.getClass().getSimpleName() + " (" + (text.length() > 40 ? text.substring(0, 40) + "..." : text)
                + ")";
    }
}
