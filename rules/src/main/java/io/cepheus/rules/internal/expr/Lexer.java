package io.cepheus.rules.internal.expr;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits an expression into {@link Token}s. Operators outside the language (Aviator's {@code =~}, {@code ?:},
 * bitwise operators, a single {@code =}) are refused here by name, so a rule written for another dialect fails
 * with a message that says which construct is not supported instead of a vague syntax error later.
 */
final class Lexer {

    /** The longest expression read; longer ones are refused before any work is done. */
    static final int MAX_LENGTH = 65_536;

    private final String text;
    private int pos;

    private Lexer(String text) {
        this.text = text;
    }

    /**
     * @param text the expression
     * @return its tokens, ending with {@link Token.Kind#END}
     * @throws ExpressionSyntaxException on a character or operator outside the language, an unterminated string
     */
    static List<Token> tokenize(String text) {
        if (text.length() > MAX_LENGTH) {
            throw new ExpressionSyntaxException(0, "the expression is " + text.length() + " characters long, more than"
                    + " the " + MAX_LENGTH + " allowed");
        }
        return new Lexer(text).all();
    }

    private List<Token> all() {
        List<Token> out = new ArrayList<>();
        while (true) {
            skipSpace();
            if (pos >= text.length()) {
                out.add(new Token(Token.Kind.END, "", pos));
                return out;
            }
            out.add(next());
        }
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private Token next() {
        int start = pos;
        char c = text.charAt(pos);
        if (isNameStart(c)) {
            while (pos < text.length() && isNamePart(text.charAt(pos))) {
                pos++;
            }
            return new Token(Token.Kind.NAME, text.substring(start, pos), start);
        }
        if (c >= '0' && c <= '9') {
            return number(start);
        }
        if (c == '\'' || c == '"') {
            return string(start, c);
        }
        pos++;
        char n = pos < text.length() ? text.charAt(pos) : '\0';
        switch (c) {
            case '(':
                return token(Token.Kind.LPAREN, start);
            case ')':
                return token(Token.Kind.RPAREN, start);
            case ',':
                return token(Token.Kind.COMMA, start);
            case '.':
                return token(Token.Kind.DOT, start);
            case '+':
                return token(Token.Kind.PLUS, start);
            case '-':
                return token(Token.Kind.MINUS, start);
            case '*':
                return token(Token.Kind.STAR, start);
            case '/':
                return token(Token.Kind.SLASH, start);
            case '%':
                return token(Token.Kind.PERCENT, start);
            case '=':
                if (n == '=') {
                    pos++;
                    return token(Token.Kind.EQ, start);
                }
                if (n == '~') {
                    throw new ExpressionSyntaxException(start, "'=~' (regular expression match) is not part of the"
                            + " expression language");
                }
                throw new ExpressionSyntaxException(start, "'=' is not an operator here: compare with '=='");
            case '!':
                if (n == '=') {
                    pos++;
                    return token(Token.Kind.NE, start);
                }
                return token(Token.Kind.NOT, start);
            case '<':
                if (n == '=') {
                    pos++;
                    return token(Token.Kind.LE, start);
                }
                if (n == '<') {
                    throw new ExpressionSyntaxException(start, "'<<' (bit shift) is not part of the expression"
                            + " language");
                }
                return token(Token.Kind.LT, start);
            case '>':
                if (n == '=') {
                    pos++;
                    return token(Token.Kind.GE, start);
                }
                if (n == '>') {
                    throw new ExpressionSyntaxException(start, "'>>' (bit shift) is not part of the expression"
                            + " language");
                }
                return token(Token.Kind.GT, start);
            case '&':
                if (n == '&') {
                    pos++;
                    return token(Token.Kind.AND, start);
                }
                throw new ExpressionSyntaxException(start, "'&' (bitwise and) is not part of the expression language:"
                        + " use '&&' or 'and'");
            case '|':
                if (n == '|') {
                    pos++;
                    return token(Token.Kind.OR, start);
                }
                throw new ExpressionSyntaxException(start, "'|' (bitwise or) is not part of the expression language:"
                        + " use '||' or 'or'");
            case '?':
            case ':':
                throw new ExpressionSyntaxException(start, "'" + c + "' (the conditional operator ?:) is not part of"
                        + " the expression language: combine conditions with '&&' and '||'");
            case '^':
            case '~':
                throw new ExpressionSyntaxException(start, "'" + c + "' (a bitwise operator) is not part of the"
                        + " expression language");
            default:
                throw new ExpressionSyntaxException(start, "unexpected character " + describeChar(c));
        }
    }

    private Token token(Token.Kind kind, int start) {
        return new Token(kind, text.substring(start, pos), start);
    }

    private Token number(int start) {
        while (pos < text.length() && isDigit(text.charAt(pos))) {
            pos++;
        }
        boolean decimal = false;
        if (pos + 1 < text.length() && text.charAt(pos) == '.' && isDigit(text.charAt(pos + 1))) {
            decimal = true;
            pos++;
            while (pos < text.length() && isDigit(text.charAt(pos))) {
                pos++;
            }
        }
        if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
            int save = pos;
            pos++;
            if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
                pos++;
            }
            if (pos < text.length() && isDigit(text.charAt(pos))) {
                decimal = true;
                while (pos < text.length() && isDigit(text.charAt(pos))) {
                    pos++;
                }
            } else {
                pos = save;
            }
        }
        if (pos < text.length() && isNamePart(text.charAt(pos))) {
            char suffix = text.charAt(pos);
            throw new ExpressionSyntaxException(pos, "a number may not be followed by " + describeChar(suffix)
                    + (suffix == 'M' || suffix == 'N' || suffix == 'L' || suffix == 'l' || suffix == 'd'
                    || suffix == 'D' || suffix == 'f' || suffix == 'F'
                    ? " (number suffixes are not part of the expression language)" : ""));
        }
        return new Token(decimal ? Token.Kind.DECIMAL : Token.Kind.INTEGER, text.substring(start, pos), start);
    }

    private Token string(int start, char quote) {
        pos++;
        StringBuilder value = new StringBuilder();
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == quote) {
                pos++;
                return new Token(Token.Kind.STRING, value.toString(), start);
            }
            if (c == '\\') {
                if (pos + 1 >= text.length()) {
                    break;
                }
                char e = text.charAt(pos + 1);
                switch (e) {
                    case '\\', '\'', '"' -> value.append(e);
                    case 'n' -> value.append('\n');
                    case 't' -> value.append('\t');
                    case 'r' -> value.append('\r');
                    default -> throw new ExpressionSyntaxException(pos, "unknown escape '\\" + e + "' in a string"
                            + " (known: \\\\ \\' \\\" \\n \\t \\r)");
                }
                pos += 2;
                continue;
            }
            value.append(c);
            pos++;
        }
        throw new ExpressionSyntaxException(start, "the string starting here is not closed (missing " + quote + ")");
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    static boolean isNameStart(char c) {
        return c == '_' || c == '$' || Character.isLetter(c);
    }

    static boolean isNamePart(char c) {
        return isNameStart(c) || isDigit(c);
    }

    private static String describeChar(char c) {
        return Character.isISOControl(c) || Character.isWhitespace(c)
                ? String.format("U+%04X", (int) c) : "'" + c + "'";
    }
}
