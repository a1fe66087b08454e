package io.cepheus.rules.internal.expr;

/**
 * One token of an expression.
 *
 * @param kind  what it is
 * @param text  the text as written (for a string: its value, quotes and escapes resolved)
 * @param start 0-based offset of its first character
 */
record Token(Kind kind, String text, int start) {

    /** Token kinds; operators are their own kinds so the parser can switch on them. */
    enum Kind {
        INTEGER, DECIMAL, STRING, NAME,
        LPAREN, RPAREN, COMMA, DOT,
        EQ, NE, LT, LE, GT, GE,
        AND, OR, NOT,
        PLUS, MINUS, STAR, SLASH, PERCENT,
        END
    }

    /** @return whether this is the name {@code word} (keywords are names the parser gives a meaning) */
    boolean isWord(String word) {
        return kind == Kind.NAME && text.equals(word);
    }

    /** @return how the token reads in a message */
    String describe() {
        return switch (kind) {
            case END -> "the end of the expression";
            case STRING -> "the string '" + text + "'";
            case INTEGER, DECIMAL -> "the number " + text;
            case NAME -> "'" + text + "'";
            default -> "'" + text + "'";
        };
    }
}
