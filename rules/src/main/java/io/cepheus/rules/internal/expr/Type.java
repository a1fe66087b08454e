package io.cepheus.rules.internal.expr;

/**
 * What the compiler knows of a node's value before any event is read. The first four are primitives (never null)
 * and come with their unboxed node class; the others are references that may be null.
 */
enum Type {
    /** A {@link BoolExpr}. */
    BOOL("a boolean"),
    /** A {@link LongExpr}: any Java integral primitive. */
    LONG("an integer"),
    /** A {@link DoubleExpr}: {@code float} or {@code double}. */
    DOUBLE("a decimal number"),
    /** A {@link CharExpr}: a {@code char}, read as a one-character string. */
    CHAR("a character"),
    /** A {@link String}, or null (enum constants and {@code Character}s read as their string). */
    STRING("a string"),
    /** A {@link Number}, or null. */
    NUMBER("a number"),
    /** A {@link Boolean}, or null. */
    BOOLEAN("a boolean"),
    /** Anything, or null: known only when the event is read (map events, {@code Object} fields). */
    ANY("a value"),
    /** Always null. */
    NULL("null");

    final String description;

    Type(String description) {
        this.description = description;
    }

    boolean isNumeric() {
        return this == LONG || this == DOUBLE || this == NUMBER;
    }

    boolean isStringy() {
        return this == STRING || this == CHAR;
    }

    boolean isBoolean() {
        return this == BOOL || this == BOOLEAN;
    }
}
