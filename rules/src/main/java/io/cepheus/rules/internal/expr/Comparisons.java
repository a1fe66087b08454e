package io.cepheus.rules.internal.expr;

import io.cepheus.pattern.FieldRequirement;
import java.util.Arrays;
import java.util.Set;

/**
 * Comparison and membership nodes, one per pair of operand types the compiler can tell apart, so that the common
 * cases ({@code value > 5}, {@code type == 'A'}, {@code country in ('DE', 'FR')}) run without boxing or a type test.
 * A comparison with null is false, whatever the operator; {@link IsNull} is the one node that sees null.
 */
final class Comparisons {

    private Comparisons() {
    }

    /** Two integers. */
    static final class Longs extends BoolExpr {
        private final Ast.CmpOp op;
        private final LongExpr left;
        private final LongExpr right;

        Longs(Ast.CmpOp op, LongExpr left, LongExpr right, int pos) {
            super(pos);
            this.op = op;
            this.left = left;
            this.right = right;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            long a = left.evalLong(event, scope);
            long b = right.evalLong(event, scope);
            return switch (op) {
                case EQ -> a == b;
                case NE -> a != b;
                case LT -> a < b;
                case LE -> a <= b;
                case GT -> a > b;
                case GE -> a >= b;
            };
        }
    }

    /** An integer against an integer constant, the most common comparison of all; one class per operator. */
    static BoolExpr longWithConstant(Ast.CmpOp op, LongExpr left, long c, int pos) {
        return switch (op) {
            case EQ -> new LongEq(left, c, pos);
            case NE -> new LongNe(left, c, pos);
            case LT -> new LongLe(left, c - 1, pos, c == Long.MIN_VALUE);
            case LE -> new LongLe(left, c, pos, false);
            case GT -> new LongGe(left, c + 1, pos, c == Long.MAX_VALUE);
            case GE -> new LongGe(left, c, pos, false);
        };
    }

    /** {@code x == c}. */
    static final class LongEq extends BoolExpr {
        private final LongExpr left;
        private final long c;

        LongEq(LongExpr left, long c, int pos) {
            super(pos);
            this.left = left;
            this.c = c;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            return left.evalLong(event, scope) == c;
        }
    }

    /** {@code x != c}. */
    static final class LongNe extends BoolExpr {
        private final LongExpr left;
        private final long c;

        LongNe(LongExpr left, long c, int pos) {
            super(pos);
            this.left = left;
            this.c = c;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            return left.evalLong(event, scope) != c;
        }
    }

    /** {@code x <= c} (and {@code x < c} as {@code x <= c - 1}); never true when {@code none}. */
    static final class LongLe extends BoolExpr {
        private final LongExpr left;
        private final long c;
        private final boolean none;

        LongLe(LongExpr left, long c, int pos, boolean none) {
            super(pos);
            this.left = left;
            this.c = c;
            this.none = none;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            long v = left.evalLong(event, scope); // evaluated even when none: it may throw, as written
            return !none && v <= c;
        }
    }

    /** {@code x >= c} (and {@code x > c} as {@code x >= c + 1}); never true when {@code none}. */
    static final class LongGe extends BoolExpr {
        private final LongExpr left;
        private final long c;
        private final boolean none;

        LongGe(LongExpr left, long c, int pos, boolean none) {
            super(pos);
            this.left = left;
            this.c = c;
            this.none = none;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            long v = left.evalLong(event, scope);
            return !none && v >= c;
        }
    }

    /** Two decimals (or a decimal and a widened integer constant). */
    static final class Doubles extends BoolExpr {
        private final Ast.CmpOp op;
        private final DoubleExpr left;
        private final DoubleExpr right;

        Doubles(Ast.CmpOp op, DoubleExpr left, DoubleExpr right, int pos) {
            super(pos);
            this.op = op;
            this.left = left;
            this.right = right;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            double a = left.evalDouble(event, scope);
            double b = right.evalDouble(event, scope);
            if (a != a || b != b) {
                return false; // NaN compares with nothing, as null does
            }
            return switch (op) {
                case EQ -> a == b;
                case NE -> a != b;
                case LT -> a < b;
                case LE -> a <= b;
                case GT -> a > b;
                case GE -> a >= b;
            };
        }
    }

    /** An integer and a decimal, compared exactly ({@link Values#compare(long, double)}). */
    static final class LongWithDouble extends BoolExpr {
        private final Ast.CmpOp op;
        private final LongExpr left;
        private final DoubleExpr right;

        LongWithDouble(Ast.CmpOp op, LongExpr left, DoubleExpr right, int pos) {
            super(pos);
            this.op = op;
            this.left = left;
            this.right = right;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            double b = right.evalDouble(event, scope);
            long a = left.evalLong(event, scope);
            return !Double.isNaN(b) && op.holds(Values.compare(a, b));
        }
    }

    /** A character field against a one-character constant: {@code type == 'A'}. */
    static final class CharEq extends BoolExpr {
        private final CharExpr left;
        private final char c;
        private final boolean negated;

        CharEq(CharExpr left, char c, boolean negated, int pos) {
            super(pos);
            this.left = left;
            this.c = c;
            this.negated = negated;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            return (left.evalChar(event, scope) == c) != negated;
        }
    }

    /** A string (or null) against a string constant, for {@code ==} and {@code !=}. */
    static final class StringEq extends BoolExpr {
        private final Expr left;
        private final String c;
        private final boolean negated;

        StringEq(Expr left, String c, boolean negated, int pos) {
            super(pos);
            this.left = left;
            this.c = c;
            this.negated = negated;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            Object v = left.value(event, scope);
            if (v == null) {
                return false;
            }
            return c.equals(v) != negated;
        }
    }

    /** Two strings (either may be null), any operator. */
    static final class Strings extends BoolExpr {
        private final Ast.CmpOp op;
        private final Expr left;
        private final Expr right;

        Strings(Ast.CmpOp op, Expr left, Expr right, int pos) {
            super(pos);
            this.op = op;
            this.left = left;
            this.right = right;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            Object a = left.value(event, scope);
            if (a == null) {
                return false;
            }
            Object b = right.value(event, scope);
            if (b == null) {
                return false;
            }
            return op.holds(((String) a).compareTo((String) b));
        }
    }

    /** Two booleans, {@code ==} or {@code !=}. */
    static final class Bools extends BoolExpr {
        private final BoolExpr left;
        private final BoolExpr right;
        private final boolean negated;

        Bools(BoolExpr left, BoolExpr right, boolean negated, int pos) {
            super(pos);
            this.left = left;
            this.right = right;
            this.negated = negated;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            return (left.test(event, scope) == right.test(event, scope)) != negated;
        }
    }

    /** Values whose types are known only when the event is read ({@link Values#compare}). */
    static final class Dynamic extends BoolExpr {
        private final Ast.CmpOp op;
        private final Expr left;
        private final Expr right;

        Dynamic(Ast.CmpOp op, Expr left, Expr right, int pos) {
            super(pos);
            this.op = op;
            this.left = left;
            this.right = right;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            Object a = left.value(event, scope);
            if (a == null) {
                return false;
            }
            return Values.compare(op, a, right.value(event, scope), pos);
        }

        /**
         * A key of a map event compared with a number ({@code amount > 100} on map events): the range or value the
         * number allows. The comparison may fail (a text where a number is compared), so it is the last conjunct an
         * index may read requirements from ({@link #isFieldTest()} stays false).
         */
        @Override
        FieldRequirement<Object> requirement(String field) {
            Fields.MapKey key;
            Object constant;
            Ast.CmpOp cmp;
            if (left instanceof Fields.MapKey k && right instanceof Constants.OfValue c) {
                key = k;
                constant = c.value;
                cmp = op;
            } else if (right instanceof Fields.MapKey k && left instanceof Constants.OfValue c) {
                key = k;
                constant = c.value;
                cmp = ExpressionCompiler.flip(op);
            } else {
                return null;
            }
            if (key.parent != null || !(constant instanceof Number n) || cmp == Ast.CmpOp.NE) {
                return null;
            }
            String name = key.key;
            int at = pos;
            java.util.function.ToDoubleFunction<Object> reader = e -> {
                if (!(e instanceof java.util.Map<?, ?> map)) {
                    throw new EvalError(at, "a rule compiled for map events got " + Values.describe(e));
                }
                return map.get(name) instanceof Number v ? v.doubleValue() : Double.NaN; // others: the test tells
            };
            double c = n.doubleValue(); // rounding keeps the order (never strict): accepted values stay in bounds
            if (c != c) {
                return FieldRequirement.numberOneOf(field, reader, c); // NaN compares with nothing
            }
            return switch (cmp) {
                case EQ -> FieldRequirement.numberOneOf(field, reader, c);
                case LT, LE -> FieldRequirement.numberBetween(field, reader, Double.NEGATIVE_INFINITY, c);
                case GT, GE -> FieldRequirement.numberBetween(field, reader, c, Double.POSITIVE_INFINITY);
                default -> null;
            };
        }
    }

    /** {@code x == null} and {@code x != null}. */
    static final class IsNull extends BoolExpr {
        private final Expr inner;
        private final boolean negated;

        IsNull(Expr inner, boolean negated, int pos) {
            super(pos);
            this.inner = inner;
            this.negated = negated;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            return (inner.value(event, scope) == null) != negated;
        }
    }

    /** An integer in a set of integer constants (sorted, searched). */
    static final class LongIn extends BoolExpr {
        private final LongExpr value;
        private final long[] sorted;
        private final boolean negated;

        LongIn(LongExpr value, long[] set, boolean negated, int pos) {
            super(pos);
            this.value = value;
            this.sorted = set.clone();
            Arrays.sort(this.sorted);
            this.negated = negated;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            long v = value.evalLong(event, scope);
            long[] s = sorted;
            boolean in;
            if (s.length <= 8) {
                in = false;
                for (long x : s) {
                    if (x == v) {
                        in = true;
                        break;
                    }
                }
            } else {
                in = Arrays.binarySearch(s, v) >= 0;
            }
            return in != negated;
        }

        @Override
        boolean isFieldTest() {
            return value instanceof Fields.OfLong;
        }

        @Override
        FieldRequirement<Object> requirement(String field) {
            if (negated || !(value instanceof Fields.OfLong f)) {
                return null;
            }
            double[] values = new double[sorted.length];
            Arrays.setAll(values, i -> sorted[i]);
            return FieldRequirement.numberOneOf(field, e -> (double) f.getter.applyAsLong(e), values);
        }
    }

    /** A character in a set of one-character constants. */
    static final class CharIn extends BoolExpr {
        private final CharExpr value;
        private final char[] set;
        private final boolean negated;

        CharIn(CharExpr value, char[] set, boolean negated, int pos) {
            super(pos);
            this.value = value;
            this.set = set.clone();
            this.negated = negated;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            char v = value.evalChar(event, scope);
            for (char c : set) {
                if (c == v) {
                    return !negated;
                }
            }
            return negated;
        }

        @Override
        boolean isFieldTest() {
            return value instanceof Fields.OfChar;
        }

        @Override
        FieldRequirement<Object> requirement(String field) {
            if (negated || !(value instanceof Fields.OfChar f)) {
                return null;
            }
            double[] values = new double[set.length];
            Arrays.setAll(values, i -> set[i]);
            return FieldRequirement.numberOneOf(field, e -> (char) f.getter.applyAsInt(e), values);
        }
    }

    /** A string (or null: never in, never not in) in a set of string constants. */
    static final class StringIn extends BoolExpr {
        private final Expr value;
        private final Set<String> set;
        private final boolean negated;

        StringIn(Expr value, Set<String> set, boolean negated, int pos) {
            super(pos);
            this.value = value;
            this.set = Set.copyOf(set);
            this.negated = negated;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            Object v = value.value(event, scope);
            if (v == null) {
                return false;
            }
            return set.contains(v) != negated;
        }
    }

    /** Any value in a set of constants, compared by the language's equality ({@link Values#equalsLiteral}). */
    static final class DynamicIn extends BoolExpr {
        private final Expr value;
        private final Object[] set;
        private final boolean negated;

        DynamicIn(Expr value, Object[] set, boolean negated, int pos) {
            super(pos);
            this.value = value;
            this.set = set.clone();
            this.negated = negated;
        }

        @Override
        public boolean test(Object event, Scope scope) {
            Object v = value.value(event, scope);
            if (v == null) {
                return false;
            }
            for (Object c : set) {
                if (Values.equalsLiteral(v, c)) {
                    return !negated;
                }
            }
            return negated;
        }
    }
}
