package io.cepheus.rules.internal.expr;

/**
 * A compiled node and what the compiler knows of its value.
 *
 * @param node the node; a {@link BoolExpr}, {@link LongExpr}, {@link DoubleExpr} or {@link CharExpr} for the
 *             primitive types
 * @param type its type
 */
record Typed(Expr node, Type type) {
}
