package io.cepheus.pattern;

import io.cepheus.pattern.internal.SubtypeCondition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An immutable event pattern in Flink CEP's vocabulary: a sequence of named stages, each with a condition,
 * a contiguity to the stage before it and a quantifier. Every builder call returns a new {@code Pattern};
 * none changes the one it is called on, so a pattern can be shared and extended freely.
 *
 * <pre>{@code
 * Pattern<Login> bruteForce = Pattern.<Login>begin("fail")
 *         .where(l -> !l.success())
 *         .times(5).consecutive()
 *         .within(Duration.ofMinutes(10));
 * }</pre>
 *
 * <p>A {@code Pattern} value is the last stage of its chain; {@link #previous()} walks back to the first.
 * Misuse is rejected at once with a {@link MalformedPatternException} naming the stage and the rule; the
 * remaining rules that need the whole pattern (unique names, skip targets, a trailing {@code notFollowedBy}
 * needs a window) are checked when the NFA compiler compiles it.
 *
 * @param <T> the event type
 */
public final class Pattern<T> {

    private final Pattern<T> previous;
    private final String name;
    private final Pattern<T> group;
    private final Contiguity contiguity;
    private final Condition<T> condition;
    private final Condition<T> until;
    private final Quantifier quantifier;
    private final Duration window;
    private final Duration gap;
    /** The window between the events of a times or loop stage ({@code times(n, window)}); null for none. */
    private final Duration timesWindow;
    private final AfterMatchSkipStrategy skipStrategy;

    private Pattern(Pattern<T> previous, String name, Pattern<T> group, Contiguity contiguity,
            Condition<T> condition, Condition<T> until, Quantifier quantifier, Duration window, Duration gap,
            Duration timesWindow, AfterMatchSkipStrategy skipStrategy) {
        this.previous = previous;
        this.name = name;
        this.group = group;
        this.contiguity = contiguity;
        this.condition = condition;
        this.until = until;
        this.quantifier = quantifier;
        this.window = window;
        this.gap = gap;
        this.timesWindow = timesWindow;
        this.skipStrategy = skipStrategy;
    }

    // ------------------------------------------------------------------ starting a pattern

    /**
     * Starts a pattern with a stage called {@code name} and no after-match skipping: every match is emitted.
     * {@code begin("a").where(type == A).followedBy("b").where(type == B)} over {@code a1 c1 a2 b1} yields
     * {@code a1 b1} and {@code a2 b1}.
     *
     * @param name the first stage's name, unique within the pattern
     * @param <T>  the event type
     * @return a pattern of one stage accepting every event until {@link #where} narrows it
     */
    public static <T> Pattern<T> begin(String name) {
        return begin(name, AfterMatchSkipStrategy.noSkip());
    }

    /**
     * Starts a pattern with a stage called {@code name} and the given after-match skip strategy. With
     * {@code begin("a", AfterMatchSkipStrategy.skipPastLastEvent()).followedBy("b")} ({@code a} and {@code b}
     * narrowed to their types) over {@code a1 a2 b1} only {@code a1 b1} is emitted: the partial match that
     * started at {@code a2} is discarded with it, where {@link #begin(String)} also yields {@code a2 b1}.
     *
     * @param name         the first stage's name, unique within the pattern
     * @param skipStrategy what to prune after each match
     * @param <T>          the event type
     * @return a pattern of one stage
     */
    public static <T> Pattern<T> begin(String name, AfterMatchSkipStrategy skipStrategy) {
        return new Pattern<>(null, checkName(name), null, Contiguity.RELAXED, null, null, Quantifier.ONE, null,
                null, null, Objects.requireNonNull(skipStrategy, "skipStrategy"));
    }

    /**
     * Starts a pattern with a group: a whole sub-pattern treated as one stage, which can then be
     * quantified. {@code begin(Pattern.begin("a").next("b")).times(2)} over {@code a1 b1 a2 b2} yields
     * {@code a1 b1 a2 b2}: the group matched twice, each time an {@code a} directly followed by a {@code b}.
     *
     * @param group the sub-pattern
     * @param <T>   the event type
     * @return a pattern whose first stage is the group
     */
    public static <T> Pattern<T> begin(Pattern<T> group) {
        return begin(group, AfterMatchSkipStrategy.noSkip());
    }

    /**
     * Starts a pattern with a group and the given after-match skip strategy (whose target, if it names one,
     * must be a stage outside the group). {@code begin(Pattern.begin("a").next("b"), skipPastLastEvent())
     * .followedBy("c")} over {@code a1 b1 a2 b2 c1} yields only {@code a1 b1 c1}; without skipping,
     * {@code a2 b2 c1} too.
     *
     * @param group        the sub-pattern
     * @param skipStrategy what to prune after each match
     * @param <T>          the event type
     * @return a pattern whose first stage is the group
     */
    public static <T> Pattern<T> begin(Pattern<T> group, AfterMatchSkipStrategy skipStrategy) {
        return new Pattern<>(null, null, checkGroup(group), Contiguity.RELAXED, null, null, Quantifier.ONE, null,
                null, null, Objects.requireNonNull(skipStrategy, "skipStrategy"));
    }

    // ------------------------------------------------------------------ appending stages

    /**
     * Appends a stage whose event must directly follow the previous stage's event (strict contiguity).
     * For {@code a next b} over {@code a1 c b1} there is no match; over {@code a1 b1} there is.
     *
     * @param name the new stage's name
     * @return the extended pattern
     */
    public Pattern<T> next(String name) {
        return append(checkName(name), null, Contiguity.STRICT);
    }

    /**
     * Appends a stage that takes the first matching event after the previous stage, skipping events that do
     * not match (relaxed contiguity). For {@code a followedBy b} over {@code a1 c b1 b2}: {@code a1 b1}.
     *
     * @param name the new stage's name
     * @return the extended pattern
     */
    public Pattern<T> followedBy(String name) {
        return append(checkName(name), null, Contiguity.RELAXED);
    }

    /**
     * Appends a stage that takes every later matching event, each in its own match (non-deterministic
     * relaxed contiguity). For {@code a followedByAny b} over {@code a1 c b1 b2}: {@code a1 b1} and
     * {@code a1 b2}.
     *
     * @param name the new stage's name
     * @return the extended pattern
     */
    public Pattern<T> followedByAny(String name) {
        return append(checkName(name), null, Contiguity.NON_DETERMINISTIC_RELAXED);
    }

    /**
     * Appends a NOT stage: the event directly after the previous stage must not match it. For
     * {@code a notNext n(type=B) followedBy c} over {@code a1 b c} there is no match, over {@code a1 d c}
     * there is. At the end of a pattern the partial match completes on the next non-matching event.
     * A NOT stage cannot follow an optional stage and takes no quantifier.
     *
     * @param name the NOT stage's name (it never appears in a match)
     * @return the extended pattern
     */
    public Pattern<T> notNext(String name) {
        return appendNot(checkName(name), Contiguity.NOT_NEXT);
    }

    /**
     * Appends a NOT stage: no matching event may occur between the previous stage and the next one. At the
     * end of a pattern it needs a window: the match is emitted once the window has passed without such an
     * event ("an order with no shipment within 1 hour").
     *
     * @param name the NOT stage's name (it never appears in a match)
     * @return the extended pattern
     */
    public Pattern<T> notFollowedBy(String name) {
        return appendNot(checkName(name), Contiguity.NOT_FOLLOWED_BY);
    }

    /**
     * Appends a group with strict contiguity: its first event must directly follow the previous stage; inside
     * the group its own stages keep their contiguity. {@code a next (b followedBy c)} over {@code a1 b1 d1 c1}
     * yields {@code a1 b1 c1}; over {@code a1 d1 b1 c1} there is no match.
     *
     * @param group the sub-pattern
     * @return the extended pattern
     */
    public Pattern<T> next(Pattern<T> group) {
        return append(null, checkGroup(group), Contiguity.STRICT);
    }

    /**
     * Appends a group with relaxed contiguity: events before the group's first event are skipped.
     * {@code a followedBy (b next c)} over {@code a1 d1 b1 c1} yields {@code a1 b1 c1}; over
     * {@code a1 b1 d1 c1} there is no match, as {@code c} must directly follow {@code b} inside the group.
     *
     * @param group the sub-pattern
     * @return the extended pattern
     */
    public Pattern<T> followedBy(Pattern<T> group) {
        return append(null, checkGroup(group), Contiguity.RELAXED);
    }

    /**
     * Appends a group with non-deterministic relaxed contiguity: every later occurrence of the group starts
     * a match of its own. {@code a followedByAny (b next c)} over {@code a1 b1 c1 b2 c2} yields
     * {@code a1 b1 c1} and {@code a1 b2 c2}, where {@link #followedBy(Pattern)} yields only the first.
     *
     * @param group the sub-pattern
     * @return the extended pattern
     */
    public Pattern<T> followedByAny(Pattern<T> group) {
        return append(null, checkGroup(group), Contiguity.NON_DETERMINISTIC_RELAXED);
    }

    // ------------------------------------------------------------------ conditions

    /**
     * Narrows this stage: an event must also satisfy {@code condition}. {@code begin("a").where(e -> e.type()
     * == 'a')} over {@code a1 b1 a2} matches {@code a1} and {@code a2}. Chains as Flink's does:
     * {@code where(x).or(y).where(z)} means {@code (x or y) and z}.
     *
     * @param condition a lambda on the event
     * @return the pattern with the narrowed stage
     */
    public Pattern<T> where(SimpleCondition<T> condition) {
        return where((Condition<T>) condition);
    }

    /**
     * Narrows this stage with a condition that also reads the partial match. {@code begin("start")
     * .followedBy("up").where((e, ctx) -> e.price() > ctx.eventsForPattern("start").get(0).price())} over prices
     * {@code 5 3 7} yields {@code 5 7} and {@code 3 7}: {@code 3} is not above {@code 5}.
     *
     * @param condition a lambda on the event and the {@link Condition.Context}
     * @return the pattern with the narrowed stage
     */
    public Pattern<T> where(IterativeCondition<T> condition) {
        return where((Condition<T>) condition);
    }

    /**
     * Narrows this stage with any condition, for example one built with {@link Condition#and}:
     * {@code where(isA.and(costly))}, with {@code isA} testing the type and {@code costly} the price
     * ({@code > 10}), over {@code a(5) a(12) b(20)} matches {@code a(12)} only.
     *
     * @param condition the condition
     * @return the pattern with the narrowed stage
     */
    public Pattern<T> where(Condition<T> condition) {
        Objects.requireNonNull(condition, "condition");
        if (group != null) {
            throw stageError("where() applies to a single stage, not to a group");
        }
        Condition<T> combined = this.condition == null ? condition : Condition.and(this.condition, condition);
        return withCondition(combined);
    }

    /**
     * Widens this stage: an event satisfying {@code condition} is accepted too. For example
     * {@code begin("x").where(type == A).or(type == B)} over {@code a1 c1 b1} matches {@code a1} and {@code b1}.
     *
     * @param condition a lambda on the event
     * @return the pattern with the widened stage
     */
    public Pattern<T> or(SimpleCondition<T> condition) {
        return or((Condition<T>) condition);
    }

    /**
     * Widens this stage with a condition that reads the partial match.
     * {@code begin("a").where(type == A).followedBy("b").where(type == B).or((e, ctx) -> e.price() >
     * ctx.eventsForPattern("a").get(0).price())} over {@code a(5) c(9) b(1)} yields {@code a(5) c(9)}: the
     * {@code c} is accepted for its price and, with relaxed contiguity, is the first {@code b} can take.
     *
     * @param condition a lambda on the event and the context
     * @return the pattern with the widened stage
     */
    public Pattern<T> or(IterativeCondition<T> condition) {
        return or((Condition<T>) condition);
    }

    /**
     * Widens this stage with any condition, for example a combined one: {@code where(isA).or(isB.and(costly))}
     * over {@code a(1) b(5) b(20)} matches {@code a(1)} and {@code b(20)} (with {@code costly} = price {@code >
     * 10}).
     *
     * @param condition the condition
     * @return the pattern with the widened stage
     */
    public Pattern<T> or(Condition<T> condition) {
        Objects.requireNonNull(condition, "condition");
        if (group != null) {
            throw stageError("or() applies to a single stage, not to a group");
        }
        Condition<T> combined = this.condition == null ? condition : Condition.or(this.condition, condition);
        return withCondition(combined);
    }

    /**
     * Narrows this stage to events of a subclass of {@code T} (the event type stays {@code T}).
     * {@code Pattern.<Sensor>begin("t").subtype(Temperature.class)} over {@code Temperature(20) Pressure(3)
     * Temperature(45)} matches the two temperatures; a following {@code where} sees only those.
     *
     * @param type the accepted class
     * @return the pattern with the narrowed stage
     */
    public Pattern<T> subtype(Class<? extends T> type) {
        return where(new SubtypeCondition<T>(Objects.requireNonNull(type, "type")));
    }

    /**
     * Stops a looping stage: an event satisfying {@code condition} ends the loop and is not taken by it.
     * For {@code s followedBy a.oneOrMore().until(type == C) followedBy e} over {@code s a1 a2 c a3 e}:
     * {@code s a1 a2 e} and {@code s a1 e}; the loop never reaches past {@code c} to take {@code a3}.
     *
     * @param condition the stop condition
     * @return the pattern with the bounded loop
     */
    public Pattern<T> until(SimpleCondition<T> condition) {
        return until((Condition<T>) condition);
    }

    /**
     * Stops a looping stage with a condition that reads the partial match. For {@code s followedBy
     * b.oneOrMore().until((e, ctx) -> e.price() < ctx.eventsForPattern("s").get(0).price()) followedBy e} over
     * {@code s(5) b(6) b(7) b(3) b(8) e}: {@code s b(6) b(7) e} and {@code s b(6) e}; the loop ends at
     * {@code b(3)}, cheaper than {@code s}, and never takes {@code b(8)}.
     *
     * @param condition the stop condition
     * @return the pattern with the bounded loop
     */
    public Pattern<T> until(IterativeCondition<T> condition) {
        return until((Condition<T>) condition);
    }

    /**
     * Stops a looping stage with any condition, for example a combined one: {@code oneOrMore().until(isC.or(isD))}
     * ends the loop at the first {@code c} or {@code d}, as {@link #until(SimpleCondition)} does for one type.
     *
     * @param condition the stop condition
     * @return the pattern with the bounded loop
     */
    public Pattern<T> until(Condition<T> condition) {
        Objects.requireNonNull(condition, "condition");
        checkNotANotStage("until()");
        if (!quantifier.isLooping()) {
            throw stageError("The until condition is only applicable to looping states (oneOrMore, timesOrMore)");
        }
        if (until != null) {
            throw stageError("only one until() condition can be applied");
        }
        return new Pattern<>(previous, name, group, contiguity, condition(), condition, quantifier, window, gap,
                timesWindow,
                skipStrategy);
    }

    // ------------------------------------------------------------------ quantifiers

    /**
     * This stage takes exactly {@code times} events, by default with relaxed contiguity between them.
     * For {@code a.times(2) followedBy b} over {@code a1 c a2 a3 b}: {@code a1 a2 b} and {@code a2 a3 b}.
     *
     * @param times at least 1
     * @return the quantified pattern
     */
    public Pattern<T> times(int times) {
        if (times < 1) {
            throw stageError("times(" + times + "): the count must be at least 1");
        }
        return times(times, times);
    }

    /**
     * This stage takes between {@code from} and {@code to} events. {@code times(0, n)} is an optional
     * {@code times(1, n)}. For {@code a.times(1, 2) followedBy b} over {@code a1 a2 b1}: {@code a1 a2 b1},
     * {@code a1 b1} and {@code a2 b1}.
     *
     * @param from the least number of events, at least 0
     * @param to   the most, at least {@code max(from, 1)}
     * @return the quantified pattern
     */
    public Pattern<T> times(int from, int to) {
        checkQuantifiable("times()");
        if (from < 0 || to < 1 || from > to) {
            throw stageError("times(" + from + ", " + to + "): need 0 <= from <= to and to >= 1");
        }
        if (from == 0) {
            checkMayBeOptional("times(0, " + to + ")");
        }
        boolean optional = quantifier.optional() || from == 0;
        Quantifier q = new Quantifier(Quantifier.Kind.TIMES, Math.max(from, 1), to, optional, false,
                Contiguity.RELAXED);
        return withQuantifier(q);
    }

    /**
     * {@link #times(int)} with a window between the stage's events, as Flink 2.3's {@code times(int, Duration)}
     * (see {@link #times(int, int, Duration)} for which waits it bounds).
     *
     * @param times  at least 1
     * @param window the window between events, at least 1 ms
     * @return the quantified pattern
     */
    public Pattern<T> times(int times, Duration window) {
        return times(times).withTimesWindow(window, "times(" + times + ", " + window + ")");
    }

    /**
     * {@link #times(int, int)} with a window between the stage's events, as Flink 2.3's
     * {@code times(int, int, Duration)}: a partial match that waits longer than {@code window} after its previous
     * event for the stage's next one times out at {@code previous + window}. Flink bounds only some of those waits,
     * and Cepheus gives its results: the wait for each of the stage's events but the {@code to}-th, the first one's
     * counted from the previous stage's event (on the first stage of a pattern, where nothing comes before, it is not
     * bounded); and a wait for an event the stage may do without (beyond {@code from}, or the first of an optional
     * stage) is no longer bounded once the partial match has skipped an event while waiting. (Flink gives the window to
     * every NFA state it makes for the stage but the first one it makes, which waits for the last event.) For
     * {@code b followedBy a.times(3, 5 ms)}: over {@code b1@1 a1@3 a2@7 a3@20} the match is {@code b1 a1 a2 a3} (the
     * wait for {@code a3} is not bounded); over {@code b1@1 a1@3 a2@9}, {@code b1 a1} times out at 8; over
     * {@code b1@1 a1@7}, {@code b1} times out at 6. Where it applies it may not be larger than the pattern's
     * {@link WithinType#FIRST_AND_LAST} window (checked when compiled, as Flink does).
     *
     * @param from   the least number of events, at least 0
     * @param to     the most, at least {@code max(from, 1)}
     * @param window the window between events, at least 1 ms
     * @return the quantified pattern
     */
    public Pattern<T> times(int from, int to, Duration window) {
        return times(from, to).withTimesWindow(window, "times(" + from + ", " + to + ", " + window + ")");
    }

    /**
     * {@link #timesOrMore(int)} with a window between the stage's events, as Flink 2.3's
     * {@code timesOrMore(int, Duration)}: as for {@link #times(int, int, Duration)}, it bounds the wait for each of
     * the first {@code times} events (the first one's from the previous stage's event, except on the first stage),
     * not the loop's later events.
     *
     * @param times  the least number of events
     * @param window the window between events, at least 1 ms
     * @return the quantified pattern
     */
    public Pattern<T> timesOrMore(int times, Duration window) {
        return timesOrMore(times).withTimesWindow(window, "timesOrMore(" + times + ", " + window + ")");
    }

    /**
     * {@link #oneOrMore()} with a window, as Flink 2.3's {@code oneOrMore(Duration)}: it bounds only the wait for
     * the stage's first event after the previous stage's event (see {@link #timesOrMore(int, Duration)}); on the
     * first stage of a pattern it bounds nothing. For {@code b followedBy a.oneOrMore(5 ms) followedBy c}: over
     * {@code b1@1 a1@7}, {@code b1} times out at 6; over {@code b1@1 a1@3 a2@20 c1@21} the matches are
     * {@code b1 a1 a2 c1} and {@code b1 a1 c1}.
     *
     * @param window the window, at least 1 ms
     * @return the quantified pattern
     */
    public Pattern<T> oneOrMore(Duration window) {
        return oneOrMore().withTimesWindow(window, "oneOrMore(" + window + ")");
    }

    private Pattern<T> withTimesWindow(Duration betweenEvents, String call) {
        Objects.requireNonNull(betweenEvents, "window");
        checkWindow(betweenEvents, call);
        return new Pattern<>(previous, name, group, contiguity, condition, until, quantifier, window, gap,
                betweenEvents, skipStrategy);
    }

    /**
     * This stage takes {@code times} or more events: a loop. {@code timesOrMore(0)} is an optional
     * {@code oneOrMore()}. For {@code a.timesOrMore(2) followedBy b} over {@code a1 a2 a3 b1}:
     * {@code a1 a2 a3 b1}, {@code a1 a2 b1} and {@code a2 a3 b1} (by default the loop cannot skip an {@code a}).
     * A group can loop only if each round takes at least one event: a group whose stages are all optional is
     * rejected.
     *
     * @param times the least number of events
     * @return the quantified pattern
     */
    public Pattern<T> timesOrMore(int times) {
        return loop(times, "timesOrMore()");
    }

    private Pattern<T> loop(int times, String call) {
        checkQuantifiable(call);
        if (times < 0) {
            throw stageError("timesOrMore(" + times + "): the count must not be negative");
        }
        if (group != null && canTakeNoEvent(group)) {
            // the loop could go round without taking an event: the NFA would follow it for ever on one event
            // (Flink 2.3 accepts such a pattern and then runs out of memory on the first event after it)
            throw stageError(call + ": a loop that can take no event: every stage of the group is optional, so"
                    + " a round could take no event and repeat without end; make a stage of the group mandatory"
                    + " (for zero or more rounds: a group with a mandatory stage, then oneOrMore().optional())");
        }
        if (times == 0) {
            checkMayBeOptional("timesOrMore(0)");
        }
        boolean optional = quantifier.optional() || times == 0;
        return withQuantifier(new Quantifier(Quantifier.Kind.LOOPING, Math.max(times, 1), Integer.MAX_VALUE,
                optional, false, Contiguity.RELAXED));
    }

    /**
     * This stage takes one or more events. Not greedy by default: every possible run is reported, as in
     * Flink's example: {@code a b+ c} over {@code a b1 d1 b2 d2 b3 c} yields {@code a b1 c},
     * {@code a b1 b2 c}, {@code a b1 b2 b3 c}, {@code a b2 c}, {@code a b2 b3 c} and {@code a b3 c}
     * (with {@code followedByAny} before b). At the end of a pattern it emits a match per extension.
     *
     * @return the quantified pattern
     */
    public Pattern<T> oneOrMore() {
        return loop(1, "oneOrMore()");
    }

    /**
     * This stage may be skipped altogether: {@code a followedBy b.optional() followedBy c} over {@code a b c}
     * yields {@code a b c} and {@code a c}. Cannot follow a greedy stage; a NOT stage cannot follow it.
     *
     * @return the pattern with the optional stage
     */
    public Pattern<T> optional() {
        checkNotANotStage("optional()");
        if (quantifier.optional()) {
            throw stageError("the stage is already optional (optional() applied twice, or times(0, n) /"
                    + " timesOrMore(0) already made it optional)");
        }
        checkMayBeOptional("optional()");
        return withQuantifier(quantifier.withOptional());
    }

    /**
     * Makes a quantified stage greedy: it keeps taking every event its condition accepts and never hands
     * one to the next stage. {@code a(v>2)+ greedy next b(v>5)} over {@code 3 4 7 9} has no match, where the
     * non-greedy loop yields five. Not for groups, and not after {@code allowCombinations()} (Flink refuses
     * that order; {@code greedy().allowCombinations()} is accepted, see {@link #allowCombinations()}).
     *
     * @return the pattern with the greedy stage
     */
    public Pattern<T> greedy() {
        checkNotANotStage("greedy()");
        if (group != null) {
            throw stageError("greedy() is not applicable to a group pattern");
        }
        if (quantifier.kind() == Quantifier.Kind.SINGLE) {
            throw stageError("greedy() needs a quantifier (times, timesOrMore, oneOrMore) first");
        }
        if (quantifier.greedy()) {
            throw stageError("greedy() applied twice");
        }
        if (quantifier.inner() == Contiguity.NON_DETERMINISTIC_RELAXED) {
            throw stageError("greedy() cannot follow allowCombinations() (in Flink: Option not applicable to"
                    + " FollowedByAny pattern); call greedy() first: greedy().allowCombinations() is accepted");
        }
        return withQuantifier(quantifier.withGreedy());
    }

    /**
     * Makes the events of a quantified stage strictly contiguous: {@code a.times(3).consecutive()} over
     * {@code a1 c a2 a3 a4} yields only {@code a2 a3 a4}.
     *
     * @return the pattern with strict inner contiguity
     */
    public Pattern<T> consecutive() {
        return withInner(Contiguity.STRICT, "consecutive()");
    }

    /**
     * Lets a quantified stage take any later matching event, not just the next one (non-deterministic
     * relaxed inner contiguity): {@code a.times(2).allowCombinations()} over {@code a1 a2 c a3} yields
     * {@code a1 a2}, {@code a1 a3} and {@code a2 a3}. The number of partial matches can grow fast.
     *
     * <p>On a greedy stage ({@code greedy().allowCombinations()}, the order Flink accepts) the loop may still
     * skip events, but no event it accepts may come between its last event and the next stage's:
     * {@code a+ greedy allowCombinations followedBy b} over {@code a1 a2 c a3 b1} yields {@code a1 a2 a3 b1},
     * {@code a1 a3 b1}, {@code a2 a3 b1} and {@code a3 b1}, as Flink does.
     *
     * @return the pattern with combinations allowed
     */
    public Pattern<T> allowCombinations() {
        return withInner(Contiguity.NON_DETERMINISTIC_RELAXED, "allowCombinations()");
    }

    // ------------------------------------------------------------------ windows

    /**
     * The whole match must fit in {@code window}: last event time - first event time &lt; window. A partial
     * match that can no longer fit is reported as timed out at {@code first + window}. When several stages
     * set a window, the smallest applies. For {@code a followedBy b within(10 ms)}: {@code a1@1 b1@10} is a
     * match; over {@code a1@1 b1@11}, {@code a1} times out at 11.
     *
     * @param window positive
     * @return the pattern with the window
     */
    public Pattern<T> within(Duration window) {
        return within(window, WithinType.FIRST_AND_LAST);
    }

    /**
     * A window of the given type. {@link WithinType#PREVIOUS_AND_CURRENT} bounds the gap between the
     * previous event of the match and the event this stage takes; a partial match waiting longer times out
     * at {@code previous + window}. For {@code a followedBy b.within(5 ms, PREVIOUS_AND_CURRENT) followedBy c}:
     * over {@code a1@1 b1@3 c1@7} the match is {@code a1 b1 c1} (the window bounds only the step to
     * {@code b}); over {@code a1@1 b1@6}, {@code a1} times out at 6. As in Flink, it applies to a stage without
     * a quantifier (single, optional or NOT) only: a {@code times}, {@code oneOrMore} or {@code timesOrMore}
     * stage ignores it. On a stage that takes a single event it may not be larger than the pattern's
     * {@link WithinType#FIRST_AND_LAST} window (checked when compiled, as Flink does).
     *
     * @param window positive
     * @param type   what the window measures
     * @return the pattern with the window
     */
    public Pattern<T> within(Duration window, WithinType type) {
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(type, "type");
        checkWindow(window, "within(" + window + ")");
        if (type == WithinType.FIRST_AND_LAST) {
            return new Pattern<>(previous, name, group, contiguity, condition, until, quantifier, window, gap,
                    timesWindow, skipStrategy);
        }
        return new Pattern<>(previous, name, group, contiguity, condition, until, quantifier, this.window, window,
                timesWindow, skipStrategy);
    }

    // ------------------------------------------------------------------ reading a pattern

    /** @return this stage's name; null for a group */
    public String name() {
        return name;
    }

    /** @return the stage before this one, or null for the first stage */
    public Pattern<T> previous() {
        return previous;
    }

    /** @return the sub-pattern (its last stage) if this stage is a group, else null */
    public Pattern<T> group() {
        return group;
    }

    /** @return whether this stage is a group */
    public boolean isGroup() {
        return group != null;
    }

    /** @return how this stage follows the previous one */
    public Contiguity contiguity() {
        return contiguity;
    }

    /** @return whether this stage is a {@code notNext} or {@code notFollowedBy} stage */
    public boolean isNot() {
        return contiguity == Contiguity.NOT_NEXT || contiguity == Contiguity.NOT_FOLLOWED_BY;
    }

    /** @return the stage's condition, or null when it accepts every event */
    public Condition<T> condition() {
        return condition;
    }

    /** @return the stage's until condition, or null */
    public Condition<T> untilCondition() {
        return until;
    }

    /** @return the stage's quantifier */
    public Quantifier quantifier() {
        return quantifier;
    }

    /**
     * @param type which window
     * @return the window this stage set, if any
     */
    public Optional<Duration> window(WithinType type) {
        return Optional.ofNullable(type == WithinType.FIRST_AND_LAST ? window : gap);
    }

    /**
     * @return the window between the events of this times or loop stage ({@link #times(int, int, Duration)}), if
     *         any
     */
    public Optional<Duration> timesWindow() {
        return Optional.ofNullable(timesWindow);
    }

    /** @return the after-match skip strategy given to {@code begin} */
    public AfterMatchSkipStrategy skipStrategy() {
        return skipStrategy;
    }

    /** @return the stages of this chain, first to last (groups are single entries) */
    public List<Pattern<T>> stages() {
        List<Pattern<T>> out = new ArrayList<>();
        for (Pattern<T> p = this; p != null; p = p.previous) {
            out.add(p);
        }
        Collections.reverse(out);
        return Collections.unmodifiableList(out);
    }

    /** @return the stage name, or a description of the group for messages */
    public String displayName() {
        if (name != null) {
            return name;
        }
        StringBuilder sb = new StringBuilder("group(");
        List<Pattern<T>> inner = group.stages();
        for (int i = 0; i < inner.size(); i++) {
            sb.append(i == 0 ? "" : ",").append(inner.get(i).displayName());
        }
        return sb.append(')').toString();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Pattern<T> p : stages()) {
            if (sb.length() > 0) {
                sb.append(' ').append(p.contiguity).append(' ');
            }
            sb.append(p.displayName());
            if (p.quantifier.kind() != Quantifier.Kind.SINGLE || p.quantifier.optional()) {
                sb.append(p.quantifier);
            }
        }
        return "Pattern[" + sb + "]";
    }

    // ------------------------------------------------------------------ helpers

    private Pattern<T> append(String stageName, Pattern<T> stageGroup, Contiguity how) {
        if (stageName != null) {
            checkUnique(stageName);
        }
        return new Pattern<>(this, stageName, stageGroup, how, null, null, Quantifier.ONE, null, null, null,
                skipStrategy);
    }

    private Pattern<T> appendNot(String stageName, Contiguity how) {
        if (quantifier.optional()) {
            throw new MalformedPatternException("stage '" + stageName + "': a NOT stage cannot follow the optional"
                    + " stage '" + displayName() + "' (Specifying a pattern with an optional path to NOT condition"
                    + " is not supported; use two patterns, one with and one without the optional stage)");
        }
        return append(stageName, null, how);
    }

    private void checkUnique(String stageName) {
        Set<String> seen = new HashSet<>();
        collectNames(this, seen);
        if (seen.contains(stageName)) {
            throw new MalformedPatternException("stage '" + stageName + "': Duplicate pattern name; stage names"
                    + " must be unique within a pattern");
        }
    }

    private static <T> void collectNames(Pattern<T> last, Set<String> into) {
        for (Pattern<T> p = last; p != null; p = p.previous) {
            if (p.group != null) {
                collectNames(p.group, into);
            } else {
                into.add(p.name);
            }
        }
    }

    private Pattern<T> withCondition(Condition<T> c) {
        return new Pattern<>(previous, name, group, contiguity, c, until, quantifier, window, gap, timesWindow,
                skipStrategy);
    }

    private Pattern<T> withQuantifier(Quantifier q) {
        return new Pattern<>(previous, name, group, contiguity, condition, until, q, window, gap, timesWindow,
                skipStrategy);
    }

    /** @param call the call, for the message: {@code within(PT0S)} */
    private void checkWindow(Duration d, String call) {
        if (d.isNegative() || d.compareTo(Duration.ofMillis(1)) < 0) {
            throw stageError(call + ": the window must be at least 1 ms");
        }
        if (d.compareTo(Duration.ofMillis(Long.MAX_VALUE)) > 0) {
            throw stageError(call + ": the window must fit in a long of milliseconds");
        }
    }

    private Pattern<T> withInner(Contiguity inner, String call) {
        checkNotANotStage(call);
        if (quantifier.kind() == Quantifier.Kind.SINGLE) {
            throw stageError(call + " is applicable only to quantified stages (times, timesOrMore, oneOrMore)");
        }
        if (quantifier.inner() != Contiguity.RELAXED) {
            throw stageError(call + ": the inner contiguity was already set to " + quantifier.inner());
        }
        return withQuantifier(quantifier.withInner(inner));
    }

    /** @return whether the chain ending with {@code last} can complete without taking an event */
    private static <T> boolean canTakeNoEvent(Pattern<T> last) {
        for (Pattern<T> p = last; p != null; p = p.previous) {
            boolean skippable = p.isNot() || p.quantifier.optional() || (p.group != null && canTakeNoEvent(p.group));
            if (!skippable) {
                return false;
            }
        }
        return true;
    }

    private void checkMayBeOptional(String call) {
        if (previous != null && previous.quantifier.greedy()) {
            throw stageError(call + ": Optional pattern cannot be preceded by greedy pattern ('"
                    + previous.displayName() + "' is greedy)");
        }
    }

    private void checkQuantifiable(String call) {
        checkNotANotStage(call);
        if (quantifier.kind() != Quantifier.Kind.SINGLE) {
            throw stageError(call + ": a quantifier was already applied (" + describe(quantifier) + ")");
        }
    }

    private void checkNotANotStage(String call) {
        if (isNot()) {
            throw stageError(call + " is not applicable to a NOT stage");
        }
    }

    private static String describe(Quantifier q) {
        if (q.isLooping()) {
            return "timesOrMore(" + q.from() + ")";
        }
        return q.from() == q.to() ? "times(" + q.from() + ")" : "times(" + q.from() + ", " + q.to() + ")";
    }

    private MalformedPatternException stageError(String rule) {
        return MalformedPatternException.atStage(displayName(), rule);
    }

    private static String checkName(String name) {
        Objects.requireNonNull(name, "stage name");
        if (name.isBlank()) {
            throw new MalformedPatternException("a stage name must not be blank");
        }
        return name;
    }

    private static <T> Pattern<T> checkGroup(Pattern<T> group) {
        return Objects.requireNonNull(group, "group");
    }
}
