package io.cepheus.rules.internal.expr;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A recursive-descent parser for the rule format's expression grammar:
 *
 * <pre>
 * expression     := or
 * or             := and (('||' | 'or') and)*
 * and            := not (('&amp;&amp;' | 'and') not)*
 * not            := ('!' | 'not') not | comparison
 * comparison     := additive ( ('==' | '!=' | '&lt;' | '&lt;=' | '&gt;' | '&gt;=') additive
 *                            | ['not'] 'in' '(' literal (',' literal)* ')' )?
 * additive       := multiplicative (('+' | '-') multiplicative)*
 * multiplicative := unary (('*' | '/' | '%') unary)*
 * unary          := '-' unary | primary
 * primary        := literal | field | aggregate | '(' expression ')'
 * literal        := integer | decimal | 'single' | "double" quoted string | true | false | null | nil
 * field          := name ('.' name)*
 * aggregate      := 'count' '(' stage ')' | ('sum' | 'min' | 'max' | 'avg' | 'first' | 'last') '(' stage '.' field ')'
 * </pre>
 *
 * The words {@code and or not in true false null nil} are reserved; the aggregate names are functions only when an
 * opening parenthesis follows them, so a field may still be called {@code count}. An in-list may hold negative
 * numbers ({@code value in (-1, 1)}). Comparisons do not chain ({@code a < b < c} is refused with the way to write
 * it). The tree may be at most {@value #MAX_HEIGHT} levels high, so that no input, however long or nested, can
 * exhaust the stack of the parser or of the compiler after it.
 */
public final class ExpressionParser {

    /** The highest tree accepted. */
    static final int MAX_HEIGHT = 200;

    private static final Set<String> RESERVED = Set.of("and", "or", "not", "in", "true", "false", "null", "nil");

    private final List<Token> tokens;
    private int index;

    private ExpressionParser(List<Token> tokens) {
        this.tokens = tokens;
    }

    /**
     * Checks an expression's syntax, without an event type (the rule reader's check; names are resolved when the rule
     * is compiled).
     *
     * @param text the expression
     * @throws ExpressionSyntaxException with the column of the problem
     */
    public static void check(String text) {
        parse(text);
    }

    /**
     * @param text the expression
     * @return its tree
     * @throws ExpressionSyntaxException with the column of the problem
     */
    static Ast parse(String text) {
        if (text.isBlank()) {
            throw new ExpressionSyntaxException(0, "the expression is empty");
        }
        ExpressionParser parser = new ExpressionParser(Lexer.tokenize(text));
        Node root = parser.or(0);
        Token end = parser.peek();
        if (end.kind() != Token.Kind.END) {
            throw new ExpressionSyntaxException(end.start(), "unexpected " + end.describe() + " after a complete"
                    + " expression" + hintAfterComplete(end));
        }
        return root.ast;
    }

    /** A subtree and its height, so that the height can be bounded as the tree is built. */
    private record Node(Ast ast, int height) {
    }

    private static String hintAfterComplete(Token t) {
        if (t.kind() == Token.Kind.NAME || t.kind() == Token.Kind.STRING || t.kind() == Token.Kind.INTEGER
                || t.kind() == Token.Kind.DECIMAL || t.kind() == Token.Kind.LPAREN) {
            return " (an operator such as '&&' or '==' missing before it?)";
        }
        if (t.kind() == Token.Kind.RPAREN) {
            return " (a ')' without its '(')";
        }
        return "";
    }

    private Token peek() {
        return tokens.get(index);
    }

    private Token take() {
        Token t = tokens.get(index);
        if (t.kind() != Token.Kind.END) {
            index++;
        }
        return t;
    }

    private Token expect(Token.Kind kind, String what) {
        Token t = peek();
        if (t.kind() != kind) {
            throw new ExpressionSyntaxException(t.start(), "expected " + what + " but found " + t.describe());
        }
        return take();
    }

    private static Node node(Ast ast, int pos, Node... children) {
        int height = 0;
        for (Node c : children) {
            height = Math.max(height, c.height);
        }
        if (height + 1 > MAX_HEIGHT) {
            throw new ExpressionSyntaxException(pos, "the expression is nested more than " + MAX_HEIGHT
                    + " levels deep");
        }
        return new Node(ast, height + 1);
    }

    private static void checkDepth(int depth, int pos) {
        if (depth > MAX_HEIGHT) {
            throw new ExpressionSyntaxException(pos, "the expression is nested more than " + MAX_HEIGHT
                    + " levels deep");
        }
    }

    private Node or(int depth) {
        checkDepth(depth, peek().start());
        Node left = and(depth + 1);
        while (peek().kind() == Token.Kind.OR || peek().isWord("or")) {
            Token op = take();
            Node right = and(depth + 1);
            left = node(new Ast.Logic(false, left.ast, right.ast, op.start()), op.start(), left, right);
        }
        return left;
    }

    private Node and(int depth) {
        Node left = not(depth + 1);
        while (peek().kind() == Token.Kind.AND || peek().isWord("and")) {
            Token op = take();
            Node right = not(depth + 1);
            left = node(new Ast.Logic(true, left.ast, right.ast, op.start()), op.start(), left, right);
        }
        return left;
    }

    private Node not(int depth) {
        checkDepth(depth, peek().start());
        if (peek().kind() == Token.Kind.NOT || peek().isWord("not")) {
            Token op = take();
            Node operand = not(depth + 1);
            return node(new Ast.Not(operand.ast, op.start()), op.start(), operand);
        }
        return comparison(depth + 1);
    }

    private Node comparison(int depth) {
        Node left = additive(depth + 1);
        Token t = peek();
        Ast.CmpOp op = comparisonOperator(t);
        if (op != null) {
            take();
            Node right = additive(depth + 1);
            Node result = node(new Ast.Compare(op, left.ast, right.ast, t.start()), t.start(), left, right);
            Token after = peek();
            if (comparisonOperator(after) != null) {
                throw new ExpressionSyntaxException(after.start(), "comparisons do not chain: write 'a < b && b < c'"
                        + " instead of 'a < b < c'");
            }
            return result;
        }
        boolean negated = false;
        if (t.isWord("not") && tokens.get(index + 1).isWord("in")) {
            take();
            negated = true;
        }
        if (peek().isWord("in")) {
            Token in = take();
            expect(Token.Kind.LPAREN, "'(' after 'in'");
            List<Ast.Literal> set = new ArrayList<>();
            do {
                set.add(inListLiteral());
            } while (peek().kind() == Token.Kind.COMMA && take() != null);
            expect(Token.Kind.RPAREN, "',' or ')' in the in-list");
            int pos = negated ? t.start() : in.start();
            return node(new Ast.In(left.ast, set, negated, pos), pos, left);
        }
        if (negated) {
            throw new ExpressionSyntaxException(t.start(), "expected 'in' after 'not'");
        }
        return left;
    }

    private static Ast.CmpOp comparisonOperator(Token t) {
        return switch (t.kind()) {
            case EQ -> Ast.CmpOp.EQ;
            case NE -> Ast.CmpOp.NE;
            case LT -> Ast.CmpOp.LT;
            case LE -> Ast.CmpOp.LE;
            case GT -> Ast.CmpOp.GT;
            case GE -> Ast.CmpOp.GE;
            default -> null;
        };
    }

    private Ast.Literal inListLiteral() {
        Token t = peek();
        if (t.kind() == Token.Kind.MINUS) {
            take();
            Token n = peek();
            if (n.kind() != Token.Kind.INTEGER && n.kind() != Token.Kind.DECIMAL) {
                throw new ExpressionSyntaxException(n.start(), "expected a number after '-' in the in-list but found "
                        + n.describe());
            }
            take();
            return new Ast.Literal(number(n, true), t.start());
        }
        Ast.Literal literal = literal(t);
        if (literal == null) {
            throw new ExpressionSyntaxException(t.start(), "an in-list holds literals (numbers, strings, true, false)"
                    + " but found " + t.describe());
        }
        take();
        return literal;
    }

    private Node additive(int depth) {
        Node left = multiplicative(depth + 1);
        while (peek().kind() == Token.Kind.PLUS || peek().kind() == Token.Kind.MINUS) {
            Token op = take();
            Node right = multiplicative(depth + 1);
            Ast.ArithOp kind = op.kind() == Token.Kind.PLUS ? Ast.ArithOp.ADD : Ast.ArithOp.SUBTRACT;
            left = node(new Ast.Arith(kind, left.ast, right.ast, op.start()), op.start(), left, right);
        }
        return left;
    }

    private Node multiplicative(int depth) {
        Node left = unary(depth + 1);
        while (true) {
            Token op = peek();
            Ast.ArithOp kind = switch (op.kind()) {
                case STAR -> Ast.ArithOp.MULTIPLY;
                case SLASH -> Ast.ArithOp.DIVIDE;
                case PERCENT -> Ast.ArithOp.REMAINDER;
                default -> null;
            };
            if (kind == null) {
                return left;
            }
            take();
            Node right = unary(depth + 1);
            left = node(new Ast.Arith(kind, left.ast, right.ast, op.start()), op.start(), left, right);
        }
    }

    private Node unary(int depth) {
        checkDepth(depth, peek().start());
        if (peek().kind() == Token.Kind.MINUS) {
            Token op = take();
            Node operand = unary(depth + 1);
            return node(new Ast.Negate(operand.ast, op.start()), op.start(), operand);
        }
        return primary(depth + 1);
    }

    private Node primary(int depth) {
        Token t = peek();
        Ast.Literal literal = literal(t);
        if (literal != null) {
            take();
            return new Node(literal, 1);
        }
        switch (t.kind()) {
            case LPAREN -> {
                take();
                Node inner = or(depth + 1);
                expect(Token.Kind.RPAREN, "')'");
                return inner;
            }
            case NAME -> {
                if (RESERVED.contains(t.text())) {
                    throw new ExpressionSyntaxException(t.start(), "expected a value but found the keyword '"
                            + t.text() + "'");
                }
                if (tokens.get(index + 1).kind() == Token.Kind.LPAREN) {
                    return new Node(call(), 1);
                }
                List<String> path = path();
                if (peek().kind() == Token.Kind.LPAREN) {
                    throw new ExpressionSyntaxException(t.start(), "'" + String.join(".", path) + "(...)' is not a"
                            + " function of the expression language; its functions are count, sum, min, max, avg,"
                            + " first and last");
                }
                return new Node(new Ast.Field(path, t.start()), 1);
            }
            default -> throw new ExpressionSyntaxException(t.start(), "expected a value (a field, a literal,"
                    + " an aggregate or '(') but found " + t.describe());
        }
    }

    private List<String> path() {
        List<String> names = new ArrayList<>();
        names.add(name("a field name"));
        while (peek().kind() == Token.Kind.DOT) {
            take();
            names.add(name("a field name after '.'"));
        }
        return names;
    }

    private String name(String what) {
        Token t = peek();
        if (t.kind() != Token.Kind.NAME) {
            throw new ExpressionSyntaxException(t.start(), "expected " + what + " but found " + t.describe());
        }
        if (RESERVED.contains(t.text())) {
            throw new ExpressionSyntaxException(t.start(), "expected " + what + " but found the keyword '" + t.text()
                    + "'");
        }
        take();
        return t.text();
    }

    private Ast call() {
        Token fn = take();
        Ast.AggregateFunction function;
        try {
            function = Ast.AggregateFunction.valueOf(fn.text().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            function = null;
        }
        if (function == null || !fn.text().equals(fn.text().toLowerCase(Locale.ROOT))) {
            throw new ExpressionSyntaxException(fn.start(), "'" + fn.text() + "(...)' is not a function of the"
                    + " expression language; its functions are count, sum, min, max, avg, first and last");
        }
        take(); // (
        String stage = name("a stage name");
        List<String> field = List.of();
        if (function == Ast.AggregateFunction.COUNT) {
            if (peek().kind() == Token.Kind.DOT) {
                throw new ExpressionSyntaxException(peek().start(), "count takes a stage only: count(" + stage + ")");
            }
        } else {
            expect(Token.Kind.DOT, "'.' and a field: " + function.word() + "(" + stage + ".field)");
            List<String> names = new ArrayList<>();
            names.add(name("a field name"));
            while (peek().kind() == Token.Kind.DOT) {
                take();
                names.add(name("a field name after '.'"));
            }
            field = names;
        }
        expect(Token.Kind.RPAREN, "')' closing " + function.word() + "(");
        return new Ast.Aggregate(function, stage, field, fn.start());
    }

    /** @return the literal {@code t} is, or null if it is none */
    private static Ast.Literal literal(Token t) {
        return switch (t.kind()) {
            case INTEGER, DECIMAL -> new Ast.Literal(number(t, false), t.start());
            case STRING -> new Ast.Literal(t.text(), t.start());
            case NAME -> switch (t.text()) {
                case "true" -> new Ast.Literal(Boolean.TRUE, t.start());
                case "false" -> new Ast.Literal(Boolean.FALSE, t.start());
                case "null", "nil" -> new Ast.Literal(null, t.start());
                default -> null;
            };
            default -> null;
        };
    }

    private static Object number(Token t, boolean negative) {
        String text = negative ? "-" + t.text() : t.text();
        if (t.kind() == Token.Kind.INTEGER) {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw new ExpressionSyntaxException(t.start(), "the integer " + text + " does not fit in 64 bits");
            }
        }
        double d = Double.parseDouble(text);
        if (Double.isInfinite(d)) {
            throw new ExpressionSyntaxException(t.start(), "the number " + text + " is too large");
        }
        return d;
    }
}
