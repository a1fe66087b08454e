package io.cepheus.rules.internal.expr;

import io.cepheus.pattern.FieldRequirement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compiles an expression against an event type: names resolved to accessors ({@link FieldSource}), aggregates to
 * stage indexes, types checked, constant sub-expressions folded, and every operator wired to the node class of its
 * operand types (primitive where both are known primitives: no boxing in {@code value > 5}). What cannot be right
 * whatever the event (a string compared with a number of a class field, {@code '+'} on a string, an unknown field or
 * stage, a condition that is not a boolean) is refused here, with the column to point at; what depends on the event
 * (a map value's type, an overflow) is an {@link EvalError} when it happens.
 */
public final class ExpressionCompiler {

    private final FieldSource fields;
    /** The stages aggregates may read (this stage and earlier ones); null: any name, resolved only when evaluated. */
    private final Set<String> readableStages;
    private final Map<String, Integer> stageIndex = new LinkedHashMap<>();

    private ExpressionCompiler(FieldSource fields, List<String> readableStages) {
        this.fields = fields;
        this.readableStages = readableStages == null ? null : new HashSet<>(readableStages);
    }

    /**
     * @param text           the expression
     * @param fields         how names read the event
     * @param readableStages the stages its aggregates may read, in pattern order (this stage and the earlier ones);
     *                       null to accept any stage name
     * @return the compiled expression
     * @throws ExpressionSyntaxException if the expression is malformed or cannot be right for this event type
     */
    public static CompiledExpression compile(String text, FieldSource fields, List<String> readableStages) {
        ExpressionCompiler compiler = new ExpressionCompiler(fields, readableStages);
        Ast ast = ExpressionParser.parse(text);
        Typed root = compiler.compile(ast);
        if (!root.type().isBoolean() && root.type() != Type.ANY && root.type() != Type.NULL) {
            throw new ExpressionSyntaxException(0, "a condition must be true or false, but this expression is "
                    + root.type().description);
        }
        BoolExpr test = compiler.toBool(root, "a condition");
        List<FieldRequirement<Object>> requirements = compiler.stageIndex.isEmpty() ? compiler.requirements(ast)
                : List.of();
        return new CompiledExpression(text, test, compiler.stageIndex.keySet().toArray(new String[0]),
                requirements, compiler.fieldReaders(ast));
    }

    /** The fields of the event the expression reads, each once, in the order written, with a node that reads it. */
    private Map<String, Expr> fieldReaders(Ast ast) {
        Map<String, Expr> out = new LinkedHashMap<>();
        collectFields(ast, out);
        return out;
    }

    private void collectFields(Ast ast, Map<String, Expr> out) {
        if (ast instanceof Ast.Field f) {
            out.computeIfAbsent(f.dotted(), name -> fields.field(f.path(), f.pos()).node());
        } else if (ast instanceof Ast.Negate n) {
            collectFields(n.operand(), out);
        } else if (ast instanceof Ast.Not n) {
            collectFields(n.operand(), out);
        } else if (ast instanceof Ast.Arith a) {
            collectFields(a.left(), out);
            collectFields(a.right(), out);
        } else if (ast instanceof Ast.Compare c) {
            collectFields(c.left(), out);
            collectFields(c.right(), out);
        } else if (ast instanceof Ast.In in) {
            collectFields(in.value(), out);
        } else if (ast instanceof Ast.Logic l) {
            collectFields(l.left(), out);
            collectFields(l.right(), out);
        }
        // literals read nothing; an aggregate reads the partial match's earlier events, not this one
    }

    /**
     * What an expression without aggregates requires of the event's fields, for an engine to index it by: the
     * requirements of the field tests ({@code type == 'A'}, {@code value >= 10}, {@code country in ('DE', 'FR')})
     * that begin its top-level conjunction. They stop at the first conjunct that is anything else: '&&' evaluates
     * left to right, so a later test is reached only after that conjunct, which may fail (a division by zero) where
     * the index must not skip the condition.
     */
    private List<FieldRequirement<Object>> requirements(Ast ast) {
        List<Ast> conjuncts = new ArrayList<>();
        conjuncts(ast, conjuncts);
        List<FieldRequirement<Object>> out = new ArrayList<>();
        String prefix = fields.eventClass().getName() + "#";
        for (Ast conjunct : conjuncts) {
            Ast.Field field = testedField(conjunct);
            if (field == null || !(compile(conjunct).node() instanceof BoolExpr test)) {
                break;
            }
            FieldRequirement<Object> r = test.requirement(prefix + field.dotted());
            if (r != null) {
                out.add(r);
            }
            if (!test.isFieldTest()) {
                break; // it may fail other than by reading its field: what follows it is not stated
            }
        }
        return List.copyOf(out);
    }

    private static void conjuncts(Ast ast, List<Ast> out) {
        if (ast instanceof Ast.Logic l && l.and()) {
            conjuncts(l.left(), out);
            conjuncts(l.right(), out);
        } else {
            out.add(ast);
        }
    }

    /** @return the field a comparison with a constant or an in-list tests, or null */
    private static Ast.Field testedField(Ast ast) {
        if (ast instanceof Ast.Compare c) {
            if (c.left() instanceof Ast.Field f && c.right() instanceof Ast.Literal) {
                return f;
            }
            if (c.right() instanceof Ast.Field f && c.left() instanceof Ast.Literal) {
                return f;
            }
        }
        if (ast instanceof Ast.In in && in.value() instanceof Ast.Field f) {
            return f;
        }
        return null;
    }

    private Typed compile(Ast ast) {
        if (ast instanceof Ast.Literal l) {
            return literal(l.value(), l.pos());
        }
        if (ast instanceof Ast.Field f) {
            return fields.field(f.path(), f.pos());
        }
        if (ast instanceof Ast.Aggregate a) {
            return aggregate(a);
        }
        if (ast instanceof Ast.Negate n) {
            return negate(n);
        }
        if (ast instanceof Ast.Not n) {
            Typed inner = compile(n.operand());
            return fold(new Typed(new Logic.Not(toBool(inner, "'!'"), n.pos()), Type.BOOL), inner);
        }
        if (ast instanceof Ast.Arith a) {
            return arith(a);
        }
        if (ast instanceof Ast.Compare c) {
            return compare(c);
        }
        if (ast instanceof Ast.In in) {
            return in(in);
        }
        Ast.Logic l = (Ast.Logic) ast;
        Typed left = compile(l.left());
        Typed right = compile(l.right());
        String op = l.and() ? "'&&'" : "'||'";
        BoolExpr a = toBool(left, op);
        BoolExpr b = toBool(right, op);
        Expr node = l.and() ? new Logic.And(a, b, l.pos()) : new Logic.Or(a, b, l.pos());
        return fold(new Typed(node, Type.BOOL), left, right);
    }

    private static Typed literal(Object value, int pos) {
        if (value instanceof Long l) {
            return new Typed(new Constants.OfLong(l, pos), Type.LONG);
        }
        if (value instanceof Double d) {
            return new Typed(new Constants.OfDouble(d, pos), Type.DOUBLE);
        }
        if (value instanceof Boolean b) {
            return new Typed(new Constants.OfBool(b, pos), Type.BOOL);
        }
        if (value instanceof String s) {
            return new Typed(new Constants.OfValue(s, pos), Type.STRING);
        }
        return new Typed(new Constants.OfValue(null, pos), Type.NULL);
    }

    /** Replaces a node whose operands are all constant by its value, computed now. */
    private static Typed fold(Typed result, Typed... operands) {
        for (Typed o : operands) {
            if (!o.node().isConstant()) {
                return result;
            }
        }
        Object value;
        try {
            value = result.node().value(null, null);
        } catch (EvalError e) {
            throw new ExpressionSyntaxException(e.pos, e.getMessage());
        }
        int pos = result.node().pos;
        return switch (result.type()) {
            case BOOL -> new Typed(new Constants.OfBool((Boolean) value, pos), Type.BOOL);
            case LONG -> new Typed(new Constants.OfLong((Long) value, pos), Type.LONG);
            case DOUBLE -> new Typed(new Constants.OfDouble((Double) value, pos), Type.DOUBLE);
            default -> new Typed(new Constants.OfValue(value, pos), value == null ? Type.NULL
                    : value instanceof String ? Type.STRING : value instanceof Boolean ? Type.BOOLEAN
                    : value instanceof Number ? Type.NUMBER : result.type());
        };
    }

    private String describe(Ast ast) {
        if (ast instanceof Ast.Field f) {
            return "'" + f.dotted() + "'";
        }
        if (ast instanceof Ast.Aggregate a) {
            return "'" + a.written() + "'";
        }
        if (ast instanceof Ast.Literal l) {
            return l.value() instanceof String s ? "'" + s + "'" : String.valueOf(l.value());
        }
        return "the operand";
    }

    // ------------------------------------------------------------------ booleans

    private BoolExpr toBool(Typed t, String where) {
        return switch (t.type()) {
            case BOOL -> (BoolExpr) t.node();
            case BOOLEAN, ANY, NULL -> new Logic.Truth(t.node());
            default -> throw new ExpressionSyntaxException(t.node().pos, where + " needs true or false, but this is "
                    + t.type().description);
        };
    }

    // ------------------------------------------------------------------ arithmetic

    private Typed negate(Ast.Negate n) {
        Typed inner = compile(n.operand());
        Typed result = switch (inner.type()) {
            case LONG -> new Typed(new Arithmetic.NegateLong((LongExpr) inner.node(), n.pos()), Type.LONG);
            case DOUBLE -> new Typed(new Arithmetic.NegateDouble((DoubleExpr) inner.node(), n.pos()), Type.DOUBLE);
            case NUMBER, ANY -> new Typed(new Arithmetic.NegateDynamic(inner.node(), n.pos()), Type.NUMBER);
            case NULL -> inner;
            default -> throw new ExpressionSyntaxException(n.pos(), "'-' needs a number, but " + describe(n.operand())
                    + " is " + inner.type().description);
        };
        return fold(result, inner);
    }

    private Typed arith(Ast.Arith a) {
        Typed left = compile(a.left());
        Typed right = compile(a.right());
        checkNumeric(a.op().symbol, a.left(), left, a.pos());
        checkNumeric(a.op().symbol, a.right(), right, a.pos());
        Typed result;
        if (left.type() == Type.NULL || right.type() == Type.NULL) {
            result = new Typed(new Constants.OfValue(null, a.pos()), Type.NULL);
        } else if (left.type() == Type.LONG && right.type() == Type.LONG) {
            result = new Typed(new Arithmetic.OnLongs(a.op(), (LongExpr) left.node(), (LongExpr) right.node(),
                    a.pos()), Type.LONG);
        } else if (isPrimitiveNumber(left) && isPrimitiveNumber(right)) {
            result = new Typed(new Arithmetic.OnDoubles(a.op(), asDouble(left), asDouble(right), a.pos()), Type.DOUBLE);
        } else {
            result = new Typed(new Arithmetic.OnValues(a.op(), boxed(left), boxed(right), a.pos()), Type.NUMBER);
        }
        return fold(result, left, right);
    }

    private void checkNumeric(String op, Ast operand, Typed t, int pos) {
        if (!t.type().isNumeric() && t.type() != Type.ANY && t.type() != Type.NULL) {
            throw new ExpressionSyntaxException(pos, "'" + op + "' needs numbers, but " + describe(operand) + " is "
                    + t.type().description);
        }
    }

    private static boolean isPrimitiveNumber(Typed t) {
        return t.type() == Type.LONG || t.type() == Type.DOUBLE;
    }

    private static DoubleExpr asDouble(Typed t) {
        return t.type() == Type.DOUBLE ? (DoubleExpr) t.node() : new Arithmetic.LongAsDouble((LongExpr) t.node());
    }

    /** @return the node for a context that reads boxed values: a constant boxed once, now, not per event */
    private static Expr boxed(Typed t) {
        return t.node().isConstant() ? new Constants.OfValue(t.node().value(null, null), t.node().pos) : t.node();
    }

    // ------------------------------------------------------------------ comparisons

    private Typed compare(Ast.Compare c) {
        Typed left = compile(c.left());
        Typed right = compile(c.right());
        Ast.CmpOp op = c.op();
        int pos = c.pos();
        Typed result = compareTyped(c, op, left, right, pos);
        return fold(result, left, right);
    }

    private Typed compareTyped(Ast.Compare c, Ast.CmpOp op, Typed left, Typed right, int pos) {
        Type l = left.type();
        Type r = right.type();
        if (l == Type.NULL || r == Type.NULL) {
            if (op.orders()) {
                return bool(new Constants.OfBool(false, pos)); // an ordering with null is false
            }
            if (l == Type.NULL && r == Type.NULL) {
                return bool(new Constants.OfBool(op == Ast.CmpOp.EQ, pos));
            }
            Typed value = l == Type.NULL ? right : left;
            if (value.type() == Type.BOOL || value.type() == Type.LONG || value.type() == Type.DOUBLE
                    || value.type() == Type.CHAR) {
                return bool(new Constants.OfBool(op == Ast.CmpOp.NE, pos)); // a primitive is never null
            }
            return bool(new Comparisons.IsNull(value.node(), op == Ast.CmpOp.NE, pos));
        }
        checkComparable(c, op, left, right, pos);
        if (l == Type.LONG && r == Type.LONG) {
            if (right.node().isConstant()) {
                return bool(longWithConstant(op, (LongExpr) left.node(), ((LongExpr) right.node()).evalLong(null, null),
                        pos));
            }
            if (left.node().isConstant()) {
                return bool(longWithConstant(flip(op), (LongExpr) right.node(),
                        ((LongExpr) left.node()).evalLong(null, null), pos));
            }
            return bool(new Comparisons.Longs(op, (LongExpr) left.node(), (LongExpr) right.node(), pos));
        }
        if (l == Type.LONG && r == Type.DOUBLE) {
            return longWithDouble(op, (LongExpr) left.node(), (DoubleExpr) right.node(), pos);
        }
        if (l == Type.DOUBLE && r == Type.LONG) {
            return longWithDouble(flip(op), (LongExpr) right.node(), (DoubleExpr) left.node(), pos);
        }
        if (l == Type.DOUBLE && r == Type.DOUBLE) {
            if (left.node() instanceof Fields.OfDouble f && right.node().isConstant()) {
                return bool(new Fields.Fused.DoubleVsConstant(f.getter, op,
                        ((DoubleExpr) right.node()).evalDouble(null, null), pos));
            }
            if (right.node() instanceof Fields.OfDouble f && left.node().isConstant()) {
                return bool(new Fields.Fused.DoubleVsConstant(f.getter, flip(op),
                        ((DoubleExpr) left.node()).evalDouble(null, null), pos));
            }
            return bool(new Comparisons.Doubles(op, (DoubleExpr) left.node(), (DoubleExpr) right.node(), pos));
        }
        if ((l == Type.DOUBLE && r == Type.LONG && right.node().isConstant())
                || (l == Type.LONG && r == Type.DOUBLE && left.node().isConstant())) {
            Typed field = l == Type.DOUBLE ? left : right;
            long constant = ((LongExpr) (l == Type.DOUBLE ? right : left).node()).evalLong(null, null);
            if (field.node() instanceof Fields.OfDouble f && Math.abs(constant) < (1L << 53)) {
                return bool(new Fields.Fused.DoubleVsConstant(f.getter, l == Type.DOUBLE ? op : flip(op), constant,
                        pos));
            }
        }
        if (l.isStringy() && r.isStringy()) {
            return strings(op, left, right, pos);
        }
        if (l == Type.BOOL && r == Type.BOOL) {
            return bool(new Comparisons.Bools((BoolExpr) left.node(), (BoolExpr) right.node(), op == Ast.CmpOp.NE,
                    pos));
        }
        if (!op.orders() && (r == Type.STRING || r == Type.CHAR) && right.node().isConstant()
                && left.node() instanceof Fields.MapKey k && k.parent == null) {
            return bool(new Fields.Fused.MapValueIs(k.key, (String) right.node().value(null, null),
                    op == Ast.CmpOp.NE, pos));
        }
        return bool(new Comparisons.Dynamic(op, boxed(left), boxed(right), pos));
    }

    private void checkComparable(Ast.Compare c, Ast.CmpOp op, Typed left, Typed right, int pos) {
        Type l = left.type();
        Type r = right.type();
        if (l == Type.ANY || r == Type.ANY) {
            return;
        }
        boolean sameKind = (l.isNumeric() && r.isNumeric()) || (l.isStringy() && r.isStringy())
                || (l.isBoolean() && r.isBoolean());
        if (!sameKind) {
            throw new ExpressionSyntaxException(pos, "cannot compare " + describe(c.left()) + " (" + l.description
                    + ") with " + describe(c.right()) + " (" + r.description + ")");
        }
        if (l.isBoolean() && op.orders()) {
            throw new ExpressionSyntaxException(pos, "'" + op.symbol + "' does not order booleans: compare them with"
                    + " '==' or '!='");
        }
    }

    private static Typed bool(BoolExpr node) {
        return new Typed(node, Type.BOOL);
    }

    /** An integer against a constant: a range test, fused with the field when the integer is one. */
    private static BoolExpr longWithConstant(Ast.CmpOp op, LongExpr left, long c, int pos) {
        if (left instanceof Fields.OfLong f) {
            return switch (op) {
                case EQ -> new Fields.Fused.LongInRange(f.getter, c, c, false, pos);
                case NE -> new Fields.Fused.LongInRange(f.getter, c, c, true, pos);
                case LT -> c == Long.MIN_VALUE ? new Fields.Fused.LongInRange(f.getter, 1, 0, false, pos)
                        : new Fields.Fused.LongInRange(f.getter, Long.MIN_VALUE, c - 1, false, pos);
                case LE -> new Fields.Fused.LongInRange(f.getter, Long.MIN_VALUE, c, false, pos);
                case GT -> c == Long.MAX_VALUE ? new Fields.Fused.LongInRange(f.getter, 1, 0, false, pos)
                        : new Fields.Fused.LongInRange(f.getter, c + 1, Long.MAX_VALUE, false, pos);
                case GE -> new Fields.Fused.LongInRange(f.getter, c, Long.MAX_VALUE, false, pos);
            };
        }
        return Comparisons.longWithConstant(op, left, c, pos);
    }

    private static Typed longWithDouble(Ast.CmpOp op, LongExpr left, DoubleExpr right, int pos) {
        if (right.isConstant()) {
            double d = right.evalDouble(null, null);
            if (d == Math.rint(d) && d >= -0x1p63 && d < 0x1p63) {
                return bool(longWithConstant(op, left, (long) d, pos));
            }
        }
        return bool(new Comparisons.LongWithDouble(op, left, right, pos));
    }

    private static Typed strings(Ast.CmpOp op, Typed left, Typed right, int pos) {
        if (!op.orders()) {
            boolean negated = op == Ast.CmpOp.NE;
            Typed variable = right.node().isConstant() ? left : right;
            Typed constant = right.node().isConstant() ? right : left;
            if (constant.node().isConstant() && !variable.node().isConstant()) {
                String c = (String) constant.node().value(null, null);
                if (variable.type() == Type.CHAR && c.length() == 1) {
                    if (variable.node() instanceof Fields.OfChar f) {
                        return bool(new Fields.Fused.CharIs(f.getter, c.charAt(0), negated, pos));
                    }
                    return bool(new Comparisons.CharEq((CharExpr) variable.node(), c.charAt(0), negated, pos));
                }
                if (variable.node() instanceof Fields.OfReference f && f.parent == null) {
                    return bool(new Fields.Fused.StringIs(f.getter, c, negated, pos));
                }
                return bool(new Comparisons.StringEq(variable.node(), c, negated, pos));
            }
        }
        return bool(new Comparisons.Strings(op, boxed(left), boxed(right), pos));
    }

    /** @return the operator with its operands swapped ({@code a < b} is {@code b > a}) */
    static Ast.CmpOp flip(Ast.CmpOp op) {
        return switch (op) {
            case LT -> Ast.CmpOp.GT;
            case LE -> Ast.CmpOp.GE;
            case GT -> Ast.CmpOp.LT;
            case GE -> Ast.CmpOp.LE;
            default -> op;
        };
    }

    // ------------------------------------------------------------------ in

    private Typed in(Ast.In in) {
        Typed value = compile(in.value());
        for (Ast.Literal l : in.set()) {
            if (l.value() == null) {
                throw new ExpressionSyntaxException(l.pos(), "null in an in-list never matches: test '== null'"
                        + " instead");
            }
            Type lt = literal(l.value(), l.pos()).type();
            boolean fits = value.type() == Type.ANY || value.type() == Type.NULL
                    || (value.type().isNumeric() && lt.isNumeric())
                    || (value.type().isStringy() && lt.isStringy())
                    || (value.type().isBoolean() && lt.isBoolean());
            if (!fits) {
                throw new ExpressionSyntaxException(l.pos(), describe(in.value()) + " is " + value.type().description
                        + ", so it is never " + describe(l) + " (" + lt.description + ")");
            }
        }
        int pos = in.pos();
        boolean negated = in.negated();
        Typed result = switch (value.type()) {
            case NULL -> bool(new Constants.OfBool(false, pos));
            case LONG -> {
                List<Long> longs = new ArrayList<>();
                for (Ast.Literal l : in.set()) {
                    Number n = (Number) l.value();
                    if (n instanceof Long x) {
                        longs.add(x);
                    } else if (n.doubleValue() == Math.rint(n.doubleValue()) && Math.abs(n.doubleValue()) < 0x1p63) {
                        longs.add((long) n.doubleValue());
                    }
                }
                long[] set = new long[longs.size()];
                for (int i = 0; i < set.length; i++) {
                    set[i] = longs.get(i);
                }
                yield bool(new Comparisons.LongIn((LongExpr) value.node(), set, negated, pos));
            }
            case CHAR -> {
                StringBuilder chars = new StringBuilder();
                for (Ast.Literal l : in.set()) {
                    String s = (String) l.value();
                    if (s.length() == 1) {
                        chars.append(s.charAt(0));
                    }
                }
                yield bool(new Comparisons.CharIn((CharExpr) value.node(), chars.toString().toCharArray(), negated,
                        pos));
            }
            case STRING -> {
                Set<String> set = new HashSet<>();
                for (Ast.Literal l : in.set()) {
                    set.add((String) l.value());
                }
                yield bool(new Comparisons.StringIn(value.node(), set, negated, pos));
            }
            default -> {
                Object[] set = new Object[in.set().size()];
                for (int i = 0; i < set.length; i++) {
                    set[i] = in.set().get(i).value();
                }
                yield bool(new Comparisons.DynamicIn(boxed(value), set, negated, pos));
            }
        };
        return fold(result, value);
    }

    // ------------------------------------------------------------------ aggregates

    private Typed aggregate(Ast.Aggregate a) {
        if (readableStages != null && !readableStages.contains(a.stage())) {
            throw new ExpressionSyntaxException(a.pos(), a.written() + ": '" + a.stage() + "' is not this stage or"
                    + " an earlier one, so it has taken no event an aggregate here could read (readable stages: "
                    + String.join(", ", orderedReadable()) + ")");
        }
        int stage = stageIndex.computeIfAbsent(a.stage(), s -> stageIndex.size());
        int pos = a.pos();
        if (a.function() == Ast.AggregateFunction.COUNT) {
            return new Typed(new Aggregates.Count(stage, pos), Type.LONG);
        }
        Typed field = fields.field(a.path(), pos);
        Type t = field.type();
        String what = "'" + a.stage() + "." + String.join(".", a.path()) + "'";
        switch (a.function()) {
            case SUM -> {
                return switch (t) {
                    case LONG -> new Typed(new Aggregates.SumLong(stage, (LongExpr) field.node(), pos), Type.LONG);
                    case DOUBLE -> new Typed(new Aggregates.SumDouble(stage, (DoubleExpr) field.node(), pos),
                            Type.DOUBLE);
                    case NUMBER, ANY -> new Typed(new Aggregates.SumValues(stage, field.node(), pos), Type.NUMBER);
                    default -> throw new ExpressionSyntaxException(pos, "sum needs a numeric field, but " + what
                            + " is " + t.description);
                };
            }
            case AVG -> {
                if (!t.isNumeric() && t != Type.ANY) {
                    throw new ExpressionSyntaxException(pos, "avg needs a numeric field, but " + what + " is "
                            + t.description);
                }
                return new Typed(new Aggregates.Avg(stage, field.node(), pos), Type.NUMBER);
            }
            case MIN, MAX -> {
                if (t.isBoolean()) {
                    throw new ExpressionSyntaxException(pos, a.function().word() + " does not order booleans ("
                            + what + " is " + t.description + ")");
                }
                return new Typed(new Aggregates.Extreme(stage, field.node(), a.function() == Ast.AggregateFunction.MAX,
                        pos), nullable(t));
            }
            default -> {
                return new Typed(new Aggregates.Edge(stage, field.node(), a.function() == Ast.AggregateFunction.LAST,
                        pos), nullable(t));
            }
        }
    }

    private List<String> orderedReadable() {
        return new ArrayList<>(new java.util.TreeSet<>(readableStages));
    }

    /** @return the type of a value of type {@code t} that may also be null (an aggregate of no events) */
    private static Type nullable(Type t) {
        return switch (t) {
            case LONG, DOUBLE -> Type.NUMBER;
            case BOOL -> Type.BOOLEAN;
            case CHAR -> Type.STRING;
            default -> t;
        };
    }
}
