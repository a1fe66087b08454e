package io.cepheus.pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every builder call returns a new {@link Pattern} and leaves the one it was called on exactly as it was,
 * as seen through the public getters.
 */
class PatternImmutabilityTest {

    private static final SimpleCondition<TestEvent> IS_A = e -> e.type().equals("A");
    private static final SimpleCondition<TestEvent> IS_B = e -> e.type().equals("B");

    /** A single stage with a condition: the receiver for most calls. */
    private static Pattern<TestEvent> single() {
        return Pattern.<TestEvent>begin("a").where(IS_A);
    }

    private static Pattern<TestEvent> looping() {
        return single().oneOrMore();
    }

    private static Pattern<TestEvent> group() {
        return Pattern.begin(Pattern.<TestEvent>begin("x").next("y"));
    }

    private static Arguments call(String name, Pattern<TestEvent> receiver, UnaryOperator<Pattern<TestEvent>> op,
            Consumer<Pattern<TestEvent>> effect) {
        return Arguments.of(name, receiver, op, effect);
    }

    static Stream<Arguments> calls() {
        Duration minute = Duration.ofMinutes(1);
        return Stream.of(
                call("next", single(), p -> p.next("b"), r -> assertEquals(Contiguity.STRICT, r.contiguity())),
                call("followedBy", single(), p -> p.followedBy("b"),
                        r -> assertEquals(Contiguity.RELAXED, r.contiguity())),
                call("followedByAny", single(), p -> p.followedByAny("b"),
                        r -> assertEquals(Contiguity.NON_DETERMINISTIC_RELAXED, r.contiguity())),
                call("notNext", single(), p -> p.notNext("n"), r -> assertEquals(Contiguity.NOT_NEXT, r.contiguity())),
                call("notFollowedBy", single(), p -> p.notFollowedBy("n"),
                        r -> assertEquals(Contiguity.NOT_FOLLOWED_BY, r.contiguity())),
                call("next(group)", single(), p -> p.next(Pattern.<TestEvent>begin("g")), r -> assertTrue(r.isGroup())),
                call("followedBy(group)", single(), p -> p.followedBy(Pattern.<TestEvent>begin("g")),
                        r -> assertTrue(r.isGroup())),
                call("followedByAny(group)", single(), p -> p.followedByAny(Pattern.<TestEvent>begin("g")),
                        r -> assertTrue(r.isGroup())),
                call("where(simple)", single(), p -> p.where(IS_B), r -> assertNotSame(IS_A, r.condition())),
                call("where(iterative)", single(), p -> p.where((e, ctx) -> true),
                        r -> assertTrue(r.condition().isIterative())),
                call("where(condition)", single(), p -> p.where(Condition.not(IS_B)),
                        r -> assertNotSame(IS_A, r.condition())),
                call("or(simple)", single(), p -> p.or(IS_B), r -> assertNotSame(IS_A, r.condition())),
                call("or(iterative)", single(), p -> p.or((e, ctx) -> true),
                        r -> assertTrue(r.condition().isIterative())),
                call("subtype", single(), p -> p.subtype(TestEvent.class), r -> assertNotSame(IS_A, r.condition())),
                call("until", looping(), p -> p.until(IS_B), r -> assertSame(IS_B, r.untilCondition())),
                call("times(n)", single(), p -> p.times(3), r -> assertEquals(3, r.quantifier().from())),
                call("times(from, to)", single(), p -> p.times(2, 4), r -> assertEquals(4, r.quantifier().to())),
                call("timesOrMore", single(), p -> p.timesOrMore(2), r -> assertTrue(r.quantifier().isLooping())),
                call("oneOrMore", single(), Pattern::oneOrMore, r -> assertTrue(r.quantifier().isLooping())),
                call("optional", single(), Pattern::optional, r -> assertTrue(r.quantifier().optional())),
                call("greedy", looping(), Pattern::greedy, r -> assertTrue(r.quantifier().greedy())),
                call("consecutive", looping(), Pattern::consecutive,
                        r -> assertEquals(Contiguity.STRICT, r.quantifier().inner())),
                call("allowCombinations", looping(), Pattern::allowCombinations,
                        r -> assertEquals(Contiguity.NON_DETERMINISTIC_RELAXED, r.quantifier().inner())),
                call("within", single(), p -> p.within(minute),
                        r -> assertEquals(minute, r.window(WithinType.FIRST_AND_LAST).orElseThrow())),
                call("within(gap)", single(), p -> p.within(minute, WithinType.PREVIOUS_AND_CURRENT),
                        r -> assertEquals(minute, r.window(WithinType.PREVIOUS_AND_CURRENT).orElseThrow())),
                call("group.times", group(), p -> p.times(2), r -> assertEquals(2, r.quantifier().from())),
                call("group.optional", group(), Pattern::optional, r -> assertTrue(r.quantifier().optional())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("calls")
    void everyCallReturnsANewPatternAndLeavesTheReceiverUnchanged(String name, Pattern<TestEvent> receiver,
            UnaryOperator<Pattern<TestEvent>> op, Consumer<Pattern<TestEvent>> effect) {
        StageSnapshot before = StageSnapshot.of(receiver);
        List<StageSnapshot> chainBefore = snapshotChain(receiver);

        Pattern<TestEvent> result = op.apply(receiver);

        assertNotSame(receiver, result, name + " returned its receiver");
        assertEquals(before, StageSnapshot.of(receiver), name + " changed its receiver");
        assertEquals(chainBefore, snapshotChain(receiver), name + " changed an earlier stage");
        effect.accept(result);
        // the call either appended a stage after the receiver or replaced the receiver's stage in place
        assertTrue(result.previous() == receiver || result.previous() == receiver.previous(),
                name + " lost the stages before the receiver");
    }

    @Test
    void appendingLinksBackToTheReceiverAndStartsAFreshStage() {
        Pattern<TestEvent> a = single().within(Duration.ofMinutes(1));
        Pattern<TestEvent> b = a.next("b");

        assertSame(a, b.previous());
        assertEquals(List.of(a, b), b.stages());
        assertEquals(List.of(a), a.stages());
        assertNull(b.condition(), "a new stage accepts every event until where() narrows it");
        assertEquals(Quantifier.Kind.SINGLE, b.quantifier().kind());
        assertTrue(b.window(WithinType.FIRST_AND_LAST).isEmpty(), "the window belongs to the stage that set it");
    }

    @Test
    void aPatternCanBeExtendedTwiceIntoTwoIndependentPatterns() {
        Pattern<TestEvent> base = single().next("b").where(IS_B);
        StageSnapshot before = StageSnapshot.of(base);

        Pattern<TestEvent> viaC = base.followedBy("c");
        Pattern<TestEvent> viaD = base.notNext("d").followedBy("c").oneOrMore();

        assertEquals(List.of("a", "b", "c"), names(viaC));
        assertEquals(List.of("a", "b", "d", "c"), names(viaD));
        assertEquals(Quantifier.Kind.SINGLE, viaC.quantifier().kind(), "viaD's quantifier leaked into viaC");
        assertEquals(before, StageSnapshot.of(base));
    }

    @Test
    void stagesCannotBeModifiedThroughTheReturnedList() {
        Pattern<TestEvent> p = single().next("b");
        List<Pattern<TestEvent>> stages = p.stages();

        assertThrows(UnsupportedOperationException.class, () -> stages.add(Pattern.begin("z")));
        assertThrows(UnsupportedOperationException.class, () -> stages.remove(0));
        assertEquals(List.of("a", "b"), names(p));
    }

    @Test
    void aRejectedCallLeavesTheReceiverUsable() {
        Pattern<TestEvent> p = looping().until(IS_B);
        StageSnapshot before = StageSnapshot.of(p);

        assertThrows(MalformedPatternException.class, () -> p.until(IS_A));
        assertThrows(MalformedPatternException.class, () -> p.times(2));

        assertEquals(before, StageSnapshot.of(p));
        assertEquals(List.of("a", "b"), names(p.next("b")));
    }

    /**
     * Random call sequences: after the whole sequence has run, every intermediate pattern still reports what
     * it reported when it was created (rejected calls are skipped, they must not change anything either).
     */
    @Test
    void randomCallSequencesNeverChangeAnEarlierPattern() {
        qt().forAll(lists().of(integers().between(0, OPS.size() - 1)).ofSizeBetween(1, 25))
                .checkAssert(ops -> {
                    List<Pattern<TestEvent>> seen = new ArrayList<>();
                    List<StageSnapshot> snapshots = new ArrayList<>();
                    Pattern<TestEvent> current = single();
                    seen.add(current);
                    snapshots.add(StageSnapshot.of(current));
                    int step = 0;
                    for (int op : ops) {
                        try {
                            current = OPS.get(op).apply(current, step++);
                        } catch (MalformedPatternException rejected) {
                            continue;
                        }
                        seen.add(current);
                        snapshots.add(StageSnapshot.of(current));
                    }
                    for (int i = 0; i < seen.size(); i++) {
                        assertEquals(snapshots.get(i), StageSnapshot.of(seen.get(i)), "pattern #" + i + " of " + ops);
                    }
                });
    }

    /** A builder call; {@code step} makes appended stage names unique. */
    private interface Op {
        Pattern<TestEvent> apply(Pattern<TestEvent> p, int step);
    }

    private static final List<Op> OPS = List.of(
            (p, s) -> p.next("n" + s),
            (p, s) -> p.followedBy("f" + s),
            (p, s) -> p.followedByAny("y" + s),
            (p, s) -> p.notNext("x" + s),
            (p, s) -> p.notFollowedBy("z" + s),
            (p, s) -> p.followedBy(Pattern.<TestEvent>begin("g" + s).next("h" + s)),
            (p, s) -> p.where(IS_A),
            (p, s) -> p.or(IS_B),
            (p, s) -> p.times(2),
            (p, s) -> p.times(0, 3),
            (p, s) -> p.oneOrMore(),
            (p, s) -> p.optional(),
            (p, s) -> p.greedy(),
            (p, s) -> p.consecutive(),
            (p, s) -> p.allowCombinations(),
            (p, s) -> p.until(IS_B),
            (p, s) -> p.within(Duration.ofSeconds(s + 1)),
            (p, s) -> p.within(Duration.ofSeconds(s + 1), WithinType.PREVIOUS_AND_CURRENT));

    private static List<StageSnapshot> snapshotChain(Pattern<TestEvent> p) {
        List<StageSnapshot> out = new ArrayList<>();
        for (Pattern<TestEvent> s : p.stages()) {
            out.add(StageSnapshot.of(s));
        }
        return out;
    }

    private static List<String> names(Pattern<TestEvent> p) {
        List<String> out = new ArrayList<>();
        for (Pattern<TestEvent> s : p.stages()) {
            out.add(s.displayName());
        }
        return out;
    }
}
