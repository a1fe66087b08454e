package io.cepheus.nfa.conformance;

import io.cepheus.nfa.conformance.EvConditions.Comparison;
import io.cepheus.pattern.Condition;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses the condition language of FORMAT.md into a {@link Condition} over {@link Ev}:
 * <pre>
 * or    := and ('|' and)*
 * and   := unary ('&amp;' unary)*          (&amp; binds tighter than |)
 * unary := '!' unary | '(' or ')' | atom
 * atom  := true | false | type=X | type!=X | type in XYZ | value(&gt;|&lt;|=|&gt;=|&lt;=|!=)N
 *        | sum(S)&lt;N | count(S)&lt;N | gt-last(S)
 * </pre>
 * Atoms become the records of {@link EvConditions}; connectives become {@link Condition#and},
 * {@link Condition#or} and {@link Condition#not}, exactly as a user of the builder would combine them.
 * Whitespace between tokens is allowed but not needed.
 */
public final class ConditionParser {

    private final String text;
    private final List<Token> tokens;
    private int pos;

    private ConditionParser(String text) {
        this.text = text;
        this.tokens = tokenize(text);
    }

    /**
     * @param text a condition, e.g. {@code type=A & value>3 | type=B}
     * @return the condition
     * @throws CaseSyntaxException if {@code text} is not in the language
     */
    public static Condition<Ev> parse(String text) {
        ConditionParser p = new ConditionParser(text);
        Condition<Ev> c = p.or();
        if (p.peek().kind != Kind.END) {
            throw p.error("unexpected '" + p.peek().text + "'");
        }
        return c;
    }

    // ------------------------------------------------------------------ grammar

    private Condition<Ev> or() {
        Condition<Ev> left = and();
        while (accept("|")) {
            left = Condition.or(left, and());
        }
        return left;
    }

    private Condition<Ev> and() {
        Condition<Ev> left = unary();
        while (accept("&")) {
            left = Condition.and(left, unary());
        }
        return left;
    }

    private Condition<Ev> unary() {
        if (accept("!")) {
            return Condition.not(unary());
        }
        if (accept("(")) {
            Condition<Ev> inner = or();
            expect(")");
            return inner;
        }
        return atom();
    }

    private Condition<Ev> atom() {
        Token t = next();
        if (t.kind != Kind.IDENT) {
            throw error("expected a condition, got '" + t.text + "'");
        }
        switch (t.text) {
            case "true":
                return new EvConditions.Constant(true);
            case "false":
                return new EvConditions.Constant(false);
            case "type":
                return typeAtom();
            case "value": {
                Token op = next();
                Comparison c = op.kind == Kind.OP ? Comparison.ofSymbol(op.text) : null;
                if (c == null) {
                    throw error("expected a comparison after 'value', got '" + op.text + "'");
                }
                return new EvConditions.ValueCompare(c, number());
            }
            case "sum": {
                String stage = stageArgument();
                expect("<");
                return new EvConditions.SumBelow(stage, number());
            }
            case "count": {
                String stage = stageArgument();
                expect("<");
                return new EvConditions.CountBelow(stage, number());
            }
            case "gt-last":
                return new EvConditions.GreaterThanLast(stageArgument());
            default:
                throw error("unknown condition '" + t.text + "'");
        }
    }

    private Condition<Ev> typeAtom() {
        Token op = next();
        if (op.kind == Kind.IDENT && op.text.equals("in")) {
            String letters = letters(next());
            return new EvConditions.TypeIn(letters);
        }
        if (op.kind == Kind.OP && (op.text.equals("=") || op.text.equals("!="))) {
            String letter = letters(next());
            if (letter.length() != 1) {
                throw error("a type is one letter, got '" + letter + "'");
            }
            return op.text.equals("=") ? new EvConditions.TypeIs(letter.charAt(0))
                    : new EvConditions.TypeIsNot(letter.charAt(0));
        }
        throw error("expected '=', '!=' or 'in' after 'type', got '" + op.text + "'");
    }

    private String letters(Token t) {
        if (t.kind != Kind.IDENT || !t.text.chars().allMatch(Character::isLetter)) {
            throw error("expected type letters, got '" + t.text + "'");
        }
        return t.text;
    }

    private String stageArgument() {
        expect("(");
        Token name = next();
        if (name.kind != Kind.IDENT) {
            throw error("expected a stage name, got '" + name.text + "'");
        }
        expect(")");
        return name.text;
    }

    private long number() {
        Token t = next();
        if (t.kind != Kind.NUMBER) {
            throw error("expected a number, got '" + t.text + "'");
        }
        try {
            return Long.parseLong(t.text);
        } catch (NumberFormatException e) {
            throw error("number out of range: " + t.text);
        }
    }

    // ------------------------------------------------------------------ tokens

    private enum Kind { IDENT, NUMBER, OP, END }

    private record Token(Kind kind, String text, int at) {
    }

    private static final String[] OPERATORS = {"!=", "<=", ">=", "=", "<", ">", "!", "&", "|", "(", ")"};

    private static List<Token> tokenize(String text) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            int start = i;
            if (Character.isLetter(c) || c == '_') {
                // '-' belongs to names so that gt-last is one word; no atom puts a '-' right after a name
                while (i < text.length() && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_'
                        || text.charAt(i) == '-')) {
                    i++;
                }
                out.add(new Token(Kind.IDENT, text.substring(start, i), start));
                continue;
            }
            if (Character.isDigit(c) || ((c == '-' || c == '+') && i + 1 < text.length()
                    && Character.isDigit(text.charAt(i + 1)))) {
                i++;
                while (i < text.length() && Character.isDigit(text.charAt(i))) {
                    i++;
                }
                out.add(new Token(Kind.NUMBER, text.substring(start, i), start));
                continue;
            }
            String op = operatorAt(text, i);
            if (op == null) {
                throw new CaseSyntaxException("condition '" + text + "': unexpected character '" + c
                        + "' at position " + i);
            }
            out.add(new Token(Kind.OP, op, start));
            i += op.length();
        }
        out.add(new Token(Kind.END, "<end>", text.length()));
        return out;
    }

    private static String operatorAt(String text, int i) {
        for (String op : OPERATORS) {
            if (text.startsWith(op, i)) {
                return op;
            }
        }
        return null;
    }

    private Token peek() {
        return tokens.get(pos);
    }

    private Token next() {
        Token t = tokens.get(pos);
        if (t.kind != Kind.END) {
            pos++;
        }
        return t;
    }

    private boolean accept(String op) {
        if (peek().kind == Kind.OP && peek().text.equals(op)) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(String op) {
        if (!accept(op)) {
            throw error("expected '" + op + "', got '" + peek().text + "'");
        }
    }

    private CaseSyntaxException error(String what) {
        int at = tokens.get(Math.max(0, Math.min(pos, tokens.size() - 1))).at;
        return new CaseSyntaxException("condition '" + text + "': " + what + " (near position " + at + ")");
    }
}
