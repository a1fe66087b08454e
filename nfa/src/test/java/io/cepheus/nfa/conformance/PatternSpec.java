package io.cepheus.nfa.conformance;

import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Condition;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.WithinType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A parsed case-file pattern, not yet handed to the builder. Parsing ({@link PatternParser}) only fails on
 * text outside the language; {@link #build} makes the builder calls, so whatever the builder rejects
 * surfaces there, as the pattern's own error.
 *
 * @param stages the stages in written order; the first is a {@link StageOp#BEGIN}
 */
public record PatternSpec(List<Stage> stages) {

    /** Copies the stages. */
    public PatternSpec {
        stages = List.copyOf(stages);
        if (stages.isEmpty()) {
            throw new IllegalArgumentException("a pattern has at least one stage");
        }
    }

    /**
     * Makes the builder calls: {@code Pattern.begin(name, skip)}, then for each stage its operator, then its
     * clauses in canonical order (see {@link ClauseKind}), then the header window on the last stage.
     *
     * @param withinMillis the header {@code within:}, applied as {@code within()} on the last stage
     * @param skip         the after-match skip strategy, given to {@code begin}
     * @return the pattern
     * @throws RuntimeException whatever the builder throws for a pattern it rejects (normally
     *                          {@code MalformedPatternException})
     */
    public Pattern<Ev> build(OptionalLong withinMillis, AfterMatchSkipStrategy skip) {
        Pattern<Ev> p = null;
        for (Stage stage : stages) {
            p = stage.appendTo(p, skip);
        }
        if (withinMillis.isPresent()) {
            p = p.within(Duration.ofMillis(withinMillis.getAsLong()));
        }
        return p;
    }

    /** How a stage joins the pattern: the builder method of the same name. */
    public enum StageOp {
        /** {@code begin}: only the first stage. */
        BEGIN("begin"),
        /** {@code next}: strict contiguity. */
        NEXT("next"),
        /** {@code followedBy}: relaxed contiguity. */
        FOLLOWED_BY("followedBy"),
        /** {@code followedByAny}: non-deterministic relaxed contiguity. */
        FOLLOWED_BY_ANY("followedByAny"),
        /** {@code notNext}. */
        NOT_NEXT("notNext"),
        /** {@code notFollowedBy}. */
        NOT_FOLLOWED_BY("notFollowedBy");

        private final String keyword;

        StageOp(String keyword) {
            this.keyword = keyword;
        }

        /** @return the word the pattern language uses */
        public String keyword() {
            return keyword;
        }

        /**
         * @param word a word of a pattern
         * @return the operator it names, or null
         */
        public static StageOp ofKeyword(String word) {
            for (StageOp op : values()) {
                if (op.keyword.equals(word)) {
                    return op;
                }
            }
            return null;
        }
    }

    /**
     * A clause of a stage, in canonical order of application. FORMAT.md says the clauses other than
     * {@code where}/{@code or} mean the builder calls "whatever order they are written in", but the builder
     * itself is order-sensitive ({@code greedy()} needs a quantifier, {@code until()} a loop), so they are
     * applied by rank: conditions (in written order), quantifier, optional, inner contiguity, greedy, until,
     * windows. Clauses of equal rank keep their written order.
     */
    public enum ClauseKind {
        /** {@code where COND}. */
        WHERE("where", 0),
        /** {@code or COND}. */
        OR("or", 0),
        /** {@code times N} or {@code times N..M}. */
        TIMES("times", 1),
        /** {@code timesOrMore N}. */
        TIMES_OR_MORE("timesOrMore", 1),
        /** {@code oneOrMore}. */
        ONE_OR_MORE("oneOrMore", 1),
        /** {@code optional}. */
        OPTIONAL("optional", 2),
        /** {@code consecutive}. */
        CONSECUTIVE("consecutive", 3),
        /** {@code allowCombinations}. */
        ALLOW_COMBINATIONS("allowCombinations", 3),
        /** {@code greedy}. */
        GREEDY("greedy", 4),
        /** {@code until COND}. */
        UNTIL("until", 5),
        /** {@code within N}: {@code within(N ms, FIRST_AND_LAST)} on the stage. */
        WITHIN("within", 6),
        /** {@code withinPrev N}: {@code within(N ms, PREVIOUS_AND_CURRENT)} on the stage. */
        WITHIN_PREV("withinPrev", 6);

        private final String keyword;
        private final int rank;

        ClauseKind(String keyword, int rank) {
            this.keyword = keyword;
            this.rank = rank;
        }

        /** @return the word the pattern language uses */
        public String keyword() {
            return keyword;
        }

        /** @return when the clause is applied relative to the others (lower first) */
        public int rank() {
            return rank;
        }

        /** @return whether a condition follows the keyword */
        public boolean takesCondition() {
            return this == WHERE || this == OR || this == UNTIL;
        }

        /**
         * @param word a word of a pattern
         * @return the clause it starts, or null
         */
        public static ClauseKind ofKeyword(String word) {
            for (ClauseKind k : values()) {
                if (k.keyword.equals(word)) {
                    return k;
                }
            }
            return null;
        }
    }

    /**
     * One clause with its arguments.
     *
     * @param kind      the clause
     * @param from      the count of {@code times}, {@code timesOrMore}, {@code within}, {@code withinPrev}
     * @param to        the upper count of {@code times N..M} (equal to {@code from} for {@code times N})
     * @param condition the condition of {@code where}, {@code or}, {@code until}; else null
     */
    public record Clause(ClauseKind kind, long from, long to, Condition<Ev> condition) {

        /** Checks that conditions come exactly with the clauses that take one. */
        public Clause {
            Objects.requireNonNull(kind, "kind");
            if (kind.takesCondition() != (condition != null)) {
                throw new IllegalArgumentException(kind.keyword() + ": condition mismatch");
            }
        }

        Pattern<Ev> applyTo(Pattern<Ev> p) {
            return switch (kind) {
                case WHERE -> p.where(condition);
                case OR -> p.or(condition);
                case TIMES -> from == to ? p.times(toInt(from)) : p.times(toInt(from), toInt(to));
                case TIMES_OR_MORE -> p.timesOrMore(toInt(from));
                case ONE_OR_MORE -> p.oneOrMore();
                case OPTIONAL -> p.optional();
                case CONSECUTIVE -> p.consecutive();
                case ALLOW_COMBINATIONS -> p.allowCombinations();
                case GREEDY -> p.greedy();
                case UNTIL -> p.until(condition);
                case WITHIN -> p.within(Duration.ofMillis(from));
                case WITHIN_PREV -> p.within(Duration.ofMillis(from), WithinType.PREVIOUS_AND_CURRENT);
            };
        }

        private static int toInt(long n) {
            return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, n));
        }
    }

    /**
     * One stage as written.
     *
     * @param op      how it joins the pattern
     * @param name    its name
     * @param clauses its clauses in written order
     */
    public record Stage(StageOp op, String name, List<Clause> clauses) {

        /** Copies the clauses. */
        public Stage {
            Objects.requireNonNull(op, "op");
            Objects.requireNonNull(name, "name");
            clauses = List.copyOf(clauses);
        }

        /** @return the clauses in the order they are applied (stable sort by rank) */
        public List<Clause> clausesInApplicationOrder() {
            List<Clause> sorted = new ArrayList<>(clauses);
            sorted.sort(Comparator.comparingInt(c -> c.kind().rank()));
            return sorted;
        }

        Pattern<Ev> appendTo(Pattern<Ev> previous, AfterMatchSkipStrategy skip) {
            Pattern<Ev> p = switch (op) {
                case BEGIN -> Pattern.begin(name, skip);
                case NEXT -> previous.next(name);
                case FOLLOWED_BY -> previous.followedBy(name);
                case FOLLOWED_BY_ANY -> previous.followedByAny(name);
                case NOT_NEXT -> previous.notNext(name);
                case NOT_FOLLOWED_BY -> previous.notFollowedBy(name);
            };
            for (Clause c : clausesInApplicationOrder()) {
                p = c.applyTo(p);
            }
            return p;
        }
    }
}
