package io.cepheus.benchmarks.compare.agreement;

import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.IterativeCondition;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.SimpleCondition;
import io.cepheus.pattern.WithinType;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * A randomly drawn pattern, described once and built twice: as a Cepheus {@link Pattern} and as an Apache Flink
 * CEP pattern with the same stages, contiguity, quantifiers, conditions, windows and skip strategy. Stages are
 * named {@code a}, {@code b}, {@code c}, {@code d} (a group's inner stages {@code b1}, {@code b2}); conditions test
 * the event's type and value, and one in ten is iterative (a value above the last event its own stage took).
 *
 * @param stages     the stages, the first a {@code begin}
 * @param skip       0 no skip, 1 skip to next, 2 skip past last event, 3 skip to first, 4 skip to last
 * @param skipTarget the stage that skip strategies 3 and 4 name
 * @param windowMs   {@code within} (first and last), or 0
 * @param gapMs      {@code within(..., PREVIOUS_AND_CURRENT)} on the last stage, or 0
 * @param byValue    whether equal timestamps are ordered by the events' values (a comparator) instead of arrival
 * @param throwOnMiss whether skip strategies 3 and 4 throw when a match lacks their stage (or it is the match's
 *                   first event): {@code throwExceptionOnMiss()}
 */
record RandomPattern(Stage[] stages, int skip, String skipTarget, int windowMs, int gapMs, boolean byValue,
        boolean throwOnMiss) {

    static final int BEGIN = 0;
    static final int NEXT = 1;
    static final int FOLLOWED_BY = 2;
    static final int FOLLOWED_BY_ANY = 3;
    static final int NOT_NEXT = 4;
    static final int NOT_FOLLOWED_BY = 5;

    static final int SINGLE = 0;
    static final int TIMES = 1;
    static final int TIMES_OR_MORE = 2;

    static final int RELAXED = 0;
    static final int CONSECUTIVE = 1;
    static final int COMBINATIONS = 2;

    private static final String[] NAMES = {"a", "b", "c", "d"};
    private static final String[] TYPE_SETS = {"A", "B", "C", "AB", "BC", "AC", "ABC"};

    /**
     * A condition: the event's type is one of {@code types}, its value above {@code above} (-1: any), and, if
     * {@code iterative}, above the value of the last event its own stage took.
     */
    record Condition(String types, int above, boolean iterative) implements Serializable {

        boolean test(AgreementEvent e, List<AgreementEvent> ownStage) {
            if (types.indexOf(e.type()) < 0 || e.value() <= above) {
                return false;
            }
            return !iterative || ownStage.isEmpty() || e.value() > ownStage.get(ownStage.size() - 1).value();
        }

        @Override
        public String toString() {
            return "type in " + types + (above >= 0 ? " & value > " + above : "")
                    + (iterative ? " & value > own stage's last" : "");
        }
    }

    /**
     * A stage: how it follows the previous one, its condition (null for a group), quantifier with bounds,
     * optional, greedy, contiguity inside a loop, an {@code until} condition (or null), for a group its inner
     * stages, and for a quantified stage the window between its events ({@code times(n, window)}; 0 for none).
     */
    record Stage(int op, String name, Condition condition, int quantifier, int from, int to, boolean optional,
            boolean greedy, int inner, Condition until, Stage[] group, int timesWindowMs) {

        Stage(int op, String name, Condition condition, int quantifier, int from, int to, boolean optional,
                boolean greedy, int inner, Condition until, Stage[] group) {
            this(op, name, condition, quantifier, from, to, optional, greedy, inner, until, group, 0);
        }

        /** @return this stage, and the stages of its group, with windows between events drawn from {@code r} */
        Stage withTimesWindows(Random r) {
            Stage[] inner = group;
            if (group != null) {
                inner = new Stage[group.length];
                for (int i = 0; i < group.length; i++) {
                    inner[i] = group[i].withTimesWindows(r);
                }
            }
            int window = quantifier != SINGLE && r.nextInt(3) != 0 ? 1 + r.nextInt(5) : 0;
            return new Stage(op, name, condition, quantifier, from, to, optional, greedy, this.inner, until, inner,
                    window);
        }

        boolean hasTimesWindow() {
            return timesWindowMs > 0 || group != null && Arrays.stream(group).anyMatch(Stage::hasTimesWindow);
        }

        @Override
        public String toString() {
            return "{" + new String[] {"begin", "next", "followedBy", "followedByAny", "notNext", "notFollowedBy"}[op]
                    + " " + name + (group != null ? " group" + Arrays.toString(group) : " where " + condition)
                    + new String[] {"", " times " + from + ".." + to, " timesOrMore " + from}[quantifier]
                    + (optional ? " optional" : "") + (greedy ? " greedy" : "")
                    + (quantifier == SINGLE ? "" : new String[] {"", " consecutive", " allowCombinations"}[inner])
                    + (until != null ? " until " + until : "")
                    + (timesWindowMs > 0 ? " window between events " + timesWindowMs : "") + "}";
        }
    }

    /** @return a pattern of 1 to 4 stages drawn from {@code random} */
    static RandomPattern draw(Random random) {
        int count = 1 + random.nextInt(4);
        Stage[] stages = new Stage[count];
        for (int i = 0; i < count; i++) {
            stages[i] = stage(random, i == 0 ? BEGIN : 1 + random.nextInt(5), NAMES[i], i > 0);
        }
        int skip = random.nextInt(6) % 5;
        int target = random.nextInt(count);
        String skipTarget = stages[target].group() != null ? NAMES[target] + "1" : NAMES[target];
        int windowMs = random.nextInt(5) == 0 ? 0 : 1 + random.nextInt(10);
        int gapMs = random.nextInt(5) == 0 ? 1 + random.nextInt(4) : 0;
        return new RandomPattern(stages, skip, skipTarget, windowMs, gapMs, random.nextInt(5) == 0, false);
    }

    private static Condition condition(Random random) {
        return new Condition(TYPE_SETS[random.nextInt(TYPE_SETS.length)],
                random.nextInt(6) == 0 ? random.nextInt(2) : -1, random.nextInt(10) == 0);
    }

    private static Stage stage(Random random, int op, String name, boolean groupAllowed) {
        if (groupAllowed && op >= NEXT && op <= FOLLOWED_BY_ANY && random.nextInt(8) == 0) {
            Stage[] inner = new Stage[1 + random.nextInt(2)];
            for (int i = 0; i < inner.length; i++) {
                inner[i] = stage(random, i == 0 ? BEGIN : 1 + random.nextInt(3), name + (i + 1), false);
            }
            int quantifier = random.nextInt(3);
            int from = 1 + random.nextInt(2);
            int to = from + random.nextInt(2);
            return new Stage(op, name, null, quantifier, from, to, random.nextInt(4) == 0, false, random.nextInt(3),
                    random.nextInt(6) == 0 && quantifier == TIMES_OR_MORE ? condition(random) : null, inner);
        }
        if (op >= NOT_NEXT) {
            return new Stage(op, name, condition(random), SINGLE, 1, 1, false, false, RELAXED, null, null);
        }
        int quantifier = random.nextInt(5) < 3 ? SINGLE : random.nextBoolean() ? TIMES : TIMES_OR_MORE;
        int from = 1 + random.nextInt(2);
        int to = from + random.nextInt(2);
        return new Stage(op, name, condition(random), quantifier, from, to, random.nextInt(4) == 0,
                quantifier != SINGLE && random.nextInt(4) == 0, quantifier != SINGLE ? random.nextInt(3) : RELAXED,
                quantifier == TIMES_OR_MORE && random.nextInt(5) == 0 ? condition(random) : null, null);
    }

    /**
     * @param r draws the windows
     * @return this pattern with windows between the events of its quantified stages (about two in three), as
     *         {@code times(n, window)} sets them
     */
    RandomPattern withTimesWindows(Random r) {
        Stage[] out = new Stage[stages.length];
        for (int i = 0; i < stages.length; i++) {
            out[i] = stages[i].withTimesWindows(r);
        }
        return new RandomPattern(out, skip, skipTarget, windowMs, gapMs, byValue, throwOnMiss);
    }

    /** @return whether a stage has a window between its events */
    boolean hasTimesWindow() {
        return Arrays.stream(stages).anyMatch(Stage::hasTimesWindow);
    }

    /** @return this pattern, throwing when its skip strategy's stage is missing from a match (when it names one) */
    RandomPattern throwingOnMiss() {
        return new RandomPattern(stages, skip, skipTarget, windowMs, gapMs, byValue, skip == 3 || skip == 4);
    }

    /** @return whether a quantified group's stages are all optional (a group that can match nothing; not drawn) */
    boolean hasEmptyLoopingGroup() {
        for (Stage s : stages) {
            if (s.group() != null && s.quantifier() != SINGLE && Arrays.stream(s.group()).allMatch(Stage::optional)) {
                return true;
            }
        }
        return false;
    }

    /** @return whether partial matches can multiply fast (followedByAny or allowCombinations somewhere) */
    boolean explosive() {
        return explosive(stages);
    }

    private static boolean explosive(Stage[] stages) {
        for (Stage s : stages) {
            if (s.op() == FOLLOWED_BY_ANY || s.inner() == COMBINATIONS || s.group() != null && explosive(s.group())) {
                return true;
            }
        }
        return false;
    }

    /** @return the name of the last stage, which carries the gap */
    String lastStageName() {
        return stages[stages.length - 1].name();
    }

    @Override
    public String toString() {
        return Arrays.toString(stages) + " skip=" + new String[] {"noSkip", "skipToNext", "skipPastLastEvent",
                "skipToFirst(" + skipTarget + ")", "skipToLast(" + skipTarget + ")"}[skip]
                + (windowMs > 0 ? " within " + windowMs : "") + (gapMs > 0 ? " gap " + gapMs : "")
                + (byValue ? " ties by value" : "") + (throwOnMiss ? " throwing on a missing skip stage" : "");
    }

    // ------------------------------------------------------------------------------------------------ Cepheus

    /** @return the Cepheus pattern (it may still be rejected when compiled) */
    Pattern<AgreementEvent> cepheus() {
        return cepheus(RandomPattern::lambda);
    }

    /**
     * The same pattern as a rule: built with expression conditions, written with {@code Rules.toJson}, read back with
     * {@code Rules.parse} and compiled for {@link AgreementEvent}s.
     *
     * @return the pattern the rule compiles to
     * @throws IllegalArgumentException if the pattern's skip strategy throws on a miss (no JSON form)
     */
    Pattern<AgreementEvent> cepheusAsRule() {
        String json = io.cepheus.rules.Rules.toJson("random", 1, cepheus(RandomPattern::expression));
        return io.cepheus.rules.Rules.parse(json).compile(AgreementEvent.class);
    }

    /** The condition of a stage as a Java lambda. */
    private static io.cepheus.pattern.Condition<AgreementEvent> lambda(Condition c, String stage) {
        return c.iterative()
                ? (IterativeCondition<AgreementEvent>) (e, ctx) -> c.test(e, ctx.eventsForPattern(stage))
                : (SimpleCondition<AgreementEvent>) e -> c.test(e, List.of());
    }

    /** The condition of a stage as an expression: {@code type in (...) && value > n && (own stage's last value)}. */
    private static io.cepheus.pattern.Condition<AgreementEvent> expression(Condition c, String stage) {
        StringBuilder types = new StringBuilder();
        for (char t : c.types().toCharArray()) {
            types.append(types.length() == 0 ? "" : ", ").append('\'').append(t).append('\'');
        }
        String text = "type in (" + types + ")" + (c.above() >= 0 ? " && value > " + c.above() : "")
                + (c.iterative() ? " && (count(" + stage + ") == 0 || value > last(" + stage + ".value))" : "");
        return io.cepheus.rules.Rules.expression(text, AgreementEvent.class);
    }

    private Pattern<AgreementEvent> cepheus(
            java.util.function.BiFunction<Condition, String, io.cepheus.pattern.Condition<AgreementEvent>> conditions) {
        AfterMatchSkipStrategy skipStrategy = switch (skip) {
            case 1 -> AfterMatchSkipStrategy.skipToNext();
            case 2 -> AfterMatchSkipStrategy.skipPastLastEvent();
            case 3 -> throwOnMiss ? AfterMatchSkipStrategy.skipToFirst(skipTarget).throwExceptionOnMiss()
                    : AfterMatchSkipStrategy.skipToFirst(skipTarget);
            case 4 -> throwOnMiss ? AfterMatchSkipStrategy.skipToLast(skipTarget).throwExceptionOnMiss()
                    : AfterMatchSkipStrategy.skipToLast(skipTarget);
            default -> AfterMatchSkipStrategy.noSkip();
        };
        Pattern<AgreementEvent> p = cepheus(stages, skipStrategy, conditions);
        if (windowMs > 0) {
            p = p.within(Duration.ofMillis(windowMs));
        }
        if (gapMs > 0) {
            p = p.within(Duration.ofMillis(gapMs), WithinType.PREVIOUS_AND_CURRENT);
        }
        return p;
    }

    private static Pattern<AgreementEvent> cepheus(Stage[] stages, AfterMatchSkipStrategy skip,
            java.util.function.BiFunction<Condition, String, io.cepheus.pattern.Condition<AgreementEvent>> conditions) {
        Pattern<AgreementEvent> p = null;
        for (Stage s : stages) {
            if (s.group() != null) {
                Pattern<AgreementEvent> g = cepheus(s.group(), AfterMatchSkipStrategy.noSkip(), conditions);
                p = switch (s.op()) {
                    case NEXT -> p.next(g);
                    case FOLLOWED_BY -> p.followedBy(g);
                    default -> p.followedByAny(g);
                };
            } else {
                p = switch (s.op()) {
                    case BEGIN -> Pattern.<AgreementEvent>begin(s.name(), skip);
                    case NEXT -> p.next(s.name());
                    case FOLLOWED_BY -> p.followedBy(s.name());
                    case FOLLOWED_BY_ANY -> p.followedByAny(s.name());
                    case NOT_NEXT -> p.notNext(s.name());
                    default -> p.notFollowedBy(s.name());
                };
                p = p.where(conditions.apply(s.condition(), s.name()));
            }
            Duration w = s.timesWindowMs() > 0 ? Duration.ofMillis(s.timesWindowMs()) : null;
            if (s.quantifier() == TIMES && w != null) {
                p = s.from() == s.to() ? p.times(s.from(), w) : p.times(s.from(), s.to(), w);
            } else if (s.quantifier() == TIMES) {
                p = s.from() == s.to() ? p.times(s.from()) : p.times(s.from(), s.to());
            } else if (s.quantifier() == TIMES_OR_MORE && w != null) {
                p = s.from() == 1 ? p.oneOrMore(w) : p.timesOrMore(s.from(), w);
            } else if (s.quantifier() == TIMES_OR_MORE) {
                p = s.from() == 1 ? p.oneOrMore() : p.timesOrMore(s.from());
            }
            if (s.optional()) {
                p = p.optional();
            }
            if (s.greedy()) {
                p = p.greedy();
            }
            if (s.quantifier() != SINGLE && s.inner() == CONSECUTIVE) {
                p = p.consecutive();
            } else if (s.quantifier() != SINGLE && s.inner() == COMBINATIONS) {
                p = p.allowCombinations();
            }
            if (s.until() != null) {
                // as on Flink's side (FlinkSimple): an until condition reads the event alone
                Condition u = s.until();
                p = p.until(conditions.apply(new Condition(u.types(), u.above(), false), s.name()));
            }
        }
        return p;
    }

    // ------------------------------------------------------------------------------------------------ Flink

    /** @return the Flink pattern (it may still be rejected when compiled) */
    org.apache.flink.cep.pattern.Pattern<AgreementEvent, AgreementEvent> flink() {
        org.apache.flink.cep.nfa.aftermatch.AfterMatchSkipStrategy skipStrategy = switch (skip) {
            case 1 -> org.apache.flink.cep.nfa.aftermatch.AfterMatchSkipStrategy.skipToNext();
            case 2 -> org.apache.flink.cep.nfa.aftermatch.AfterMatchSkipStrategy.skipPastLastEvent();
            case 3 -> throwOnMiss
                    ? org.apache.flink.cep.nfa.aftermatch.AfterMatchSkipStrategy.skipToFirst(skipTarget)
                            .throwExceptionOnMiss()
                    : org.apache.flink.cep.nfa.aftermatch.AfterMatchSkipStrategy.skipToFirst(skipTarget);
            case 4 -> throwOnMiss
                    ? org.apache.flink.cep.nfa.aftermatch.AfterMatchSkipStrategy.skipToLast(skipTarget)
                            .throwExceptionOnMiss()
                    : org.apache.flink.cep.nfa.aftermatch.AfterMatchSkipStrategy.skipToLast(skipTarget);
            default -> org.apache.flink.cep.nfa.aftermatch.AfterMatchSkipStrategy.noSkip();
        };
        org.apache.flink.cep.pattern.Pattern<AgreementEvent, AgreementEvent> p = flink(stages, skipStrategy);
        if (windowMs > 0) {
            p = p.within(Duration.ofMillis(windowMs));
        }
        if (gapMs > 0) {
            p = p.within(Duration.ofMillis(gapMs), org.apache.flink.cep.pattern.WithinType.PREVIOUS_AND_CURRENT);
        }
        return p;
    }

    private static org.apache.flink.cep.pattern.Pattern<AgreementEvent, AgreementEvent> flink(Stage[] stages,
            org.apache.flink.cep.nfa.aftermatch.AfterMatchSkipStrategy skip) {
        org.apache.flink.cep.pattern.Pattern<AgreementEvent, AgreementEvent> p = null;
        for (Stage s : stages) {
            if (s.group() != null) {
                org.apache.flink.cep.pattern.Pattern<AgreementEvent, AgreementEvent> g = flink(s.group(),
                        org.apache.flink.cep.nfa.aftermatch.AfterMatchSkipStrategy.noSkip());
                p = switch (s.op()) {
                    case NEXT -> p.next(g);
                    case FOLLOWED_BY -> p.followedBy(g);
                    default -> p.followedByAny(g);
                };
            } else {
                p = switch (s.op()) {
                    case BEGIN -> org.apache.flink.cep.pattern.Pattern.<AgreementEvent>begin(s.name(), skip);
                    case NEXT -> p.next(s.name());
                    case FOLLOWED_BY -> p.followedBy(s.name());
                    case FOLLOWED_BY_ANY -> p.followedByAny(s.name());
                    case NOT_NEXT -> p.notNext(s.name());
                    default -> p.notFollowedBy(s.name());
                };
                p = p.where(s.condition().iterative() ? new FlinkIterative(s.condition(), s.name())
                        : new FlinkSimple(s.condition()));
            }
            Duration w = s.timesWindowMs() > 0 ? Duration.ofMillis(s.timesWindowMs()) : null;
            if (s.quantifier() == TIMES) {
                p = s.from() == s.to() ? p.times(s.from(), w) : p.times(s.from(), s.to(), w);
            } else if (s.quantifier() == TIMES_OR_MORE) {
                p = s.from() == 1 ? p.oneOrMore(w) : p.timesOrMore(s.from(), w);
            }
            if (s.optional()) {
                p = p.optional();
            }
            if (s.greedy()) {
                p = p.greedy();
            }
            if (s.quantifier() != SINGLE && s.inner() == CONSECUTIVE) {
                p = p.consecutive();
            } else if (s.quantifier() != SINGLE && s.inner() == COMBINATIONS) {
                p = p.allowCombinations();
            }
            if (s.until() != null) {
                p = p.until(new FlinkSimple(s.until()));
            }
        }
        return p;
    }

    /** A condition as Flink's simple condition. */
    private static final class FlinkSimple
            extends org.apache.flink.cep.pattern.conditions.SimpleCondition<AgreementEvent> {

        private static final long serialVersionUID = 1L;
        private final Condition condition;

        FlinkSimple(Condition condition) {
            this.condition = condition;
        }

        @Override
        public boolean filter(AgreementEvent e) {
            return condition.test(e, List.of());
        }
    }

    /** An iterative condition as Flink's, reading the events its own stage took. */
    private static final class FlinkIterative
            extends org.apache.flink.cep.pattern.conditions.IterativeCondition<AgreementEvent> {

        private static final long serialVersionUID = 1L;
        private final Condition condition;
        private final String stage;

        FlinkIterative(Condition condition, String stage) {
            this.condition = condition;
            this.stage = stage;
        }

        @Override
        public boolean filter(AgreementEvent e, Context<AgreementEvent> ctx) throws Exception {
            List<AgreementEvent> taken = new ArrayList<>();
            for (AgreementEvent x : ctx.getEventsForPattern(stage)) {
                taken.add(x);
            }
            return condition.test(e, taken);
        }
    }
}
