package io.cepheus.rules.internal.expr;

/**
 * A {@code char} field. It reads as a one-character string (so {@code type == 'A'} means what it says), and
 * compares with one-character literals without making a string.
 */
abstract class CharExpr extends Expr {

    private static final String[] LATIN1 = new String[256];

    static {
        for (int c = 0; c < LATIN1.length; c++) {
            LATIN1[c] = String.valueOf((char) c);
        }
    }

    CharExpr(int pos) {
        super(pos);
    }

    /**
     * @param event the event being matched
     * @param scope the partial match, for aggregates; null in a simple condition
     * @return the character
     */
    abstract char evalChar(Object event, Scope scope);

    @Override
    final Object value(Object event, Scope scope) {
        return asString(evalChar(event, scope));
    }

    /** @return the character as a string, without allocating for Latin-1 characters */
    static String asString(char c) {
        return c < LATIN1.length ? LATIN1[c] : String.valueOf(c);
    }
}
