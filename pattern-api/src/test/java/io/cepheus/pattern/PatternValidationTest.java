package io.cepheus.pattern;

import static io.cepheus.pattern.Rejections.assertRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rules {@link Pattern} checks while it is being built: each misuse throws a
 * {@link MalformedPatternException} whose message names the stage and the rule; the legal neighbours of
 * each misuse are accepted.
 */
class PatternValidationTest {

    private static final SimpleCondition<TestEvent> IS_C = e -> e.type().equals("C");

    private static Pattern<TestEvent> a() {
        return Pattern.begin("a");
    }

    private static Pattern<TestEvent> xyGroup() {
        return Pattern.begin(Pattern.<TestEvent>begin("x").next("y"));
    }

    @Nested
    class Quantifiers {

        @Test
        void aSecondQuantifierIsRejected() {
            assertRejected(() -> a().times(2).times(3), "stage 'a'", "times()", "already applied", "times(2)");
            assertRejected(() -> a().times(2, 4).oneOrMore(), "stage 'a'", "already applied", "times(2, 4)");
            assertRejected(() -> a().oneOrMore().times(2), "stage 'a'", "already applied", "timesOrMore(1)");
            assertRejected(() -> a().timesOrMore(3).timesOrMore(3), "stage 'a'", "already applied",
                    "timesOrMore(3)");
            assertRejected(() -> xyGroup().times(2).oneOrMore(), "stage 'group(x,y)'", "already applied");
        }

        @ParameterizedTest
        @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
        void timesNeedsAPositiveCount(int n) {
            assertRejected(() -> a().times(n), "stage 'a'", "times(" + n + ")", "at least 1");
        }

        @Test
        void timesRangeMustBeOrderedAndReachOne() {
            assertRejected(() -> a().times(3, 2), "stage 'a'", "times(3, 2)", "from <= to");
            assertRejected(() -> a().times(-1, 2), "stage 'a'", "times(-1, 2)");
            assertRejected(() -> a().times(0, 0), "stage 'a'", "times(0, 0)", "to >= 1");
        }

        @Test
        void timesOrMoreRejectsANegativeCount() {
            assertRejected(() -> a().timesOrMore(-1), "stage 'a'", "timesOrMore(-1)", "must not be negative");
        }

        @Test
        void zeroLowerBoundsMeanAnOptionalStageTakingAtLeastOneEvent() {
            Quantifier range = a().times(0, 3).quantifier();
            assertEquals(new Quantifier(Quantifier.Kind.TIMES, 1, 3, true, false, Contiguity.RELAXED), range);

            Quantifier loop = a().timesOrMore(0).quantifier();
            assertEquals(new Quantifier(Quantifier.Kind.LOOPING, 1, Integer.MAX_VALUE, true, false,
                    Contiguity.RELAXED), loop);
        }

        @Test
        void legalQuantifiersAreAccepted() {
            assertEquals(new Quantifier(Quantifier.Kind.TIMES, 2, 2, false, false, Contiguity.RELAXED),
                    a().times(2).quantifier());
            assertEquals(new Quantifier(Quantifier.Kind.TIMES, 1, 1, false, false, Contiguity.RELAXED),
                    a().times(1, 1).quantifier());
            assertEquals(new Quantifier(Quantifier.Kind.LOOPING, 1, Integer.MAX_VALUE, false, false,
                    Contiguity.RELAXED), a().oneOrMore().quantifier());
            assertTrue(a().optional().times(2).quantifier().optional(), "a quantifier keeps an earlier optional()");
            assertTrue(xyGroup().oneOrMore().quantifier().isLooping(), "groups can be quantified");
        }
    }

    @Nested
    class Until {

        @Test
        void untilNeedsALoopingStage() {
            assertRejected(() -> a().until(IS_C), "stage 'a'", "until", "looping");
            assertRejected(() -> a().times(2).until(IS_C), "stage 'a'", "until", "looping");
            assertRejected(() -> a().times(1, 5).until(IS_C), "stage 'a'", "until", "looping");
        }

        @Test
        void untilCanBeAppliedOnlyOnce() {
            assertRejected(() -> a().oneOrMore().until(IS_C).until(IS_C), "stage 'a'", "only one until()");
        }

        @Test
        void untilOnALoopKeepsTheStageCondition() {
            SimpleCondition<TestEvent> isA = e -> e.type().equals("A");
            Pattern<TestEvent> p = a().where(isA).timesOrMore(2).until(IS_C);
            assertEquals(isA, p.condition());
            assertEquals(IS_C, p.untilCondition());
        }
    }

    @Nested
    class Greedy {

        @Test
        void greedyNeedsAQuantifier() {
            assertRejected(() -> a().greedy(), "stage 'a'", "greedy() needs a quantifier");
            assertRejected(() -> a().optional().greedy(), "stage 'a'", "greedy() needs a quantifier");
        }

        @Test
        void greedyIsNotForGroups() {
            assertRejected(() -> xyGroup().oneOrMore().greedy(), "stage 'group(x,y)'", "greedy()", "group");
        }

        @Test
        void greedyCanBeAppliedOnlyOnce() {
            assertRejected(() -> a().oneOrMore().greedy().greedy(), "stage 'a'", "greedy() applied twice");
        }

        @Test
        void greedyCannotFollowAllowCombinationsButMayPrecedeIt() {
            // as in Flink 2.3: greedy() refuses a stage whose inner contiguity is already non-deterministic, while
            // allowCombinations() on a greedy stage is accepted (and matches as Flink's CepOperator does)
            assertRejected(() -> a().oneOrMore().allowCombinations().greedy(), "stage 'a'", "greedy()",
                    "allowCombinations()");
            Quantifier q = a().oneOrMore().greedy().allowCombinations().quantifier();
            assertTrue(q.greedy());
            assertEquals(Contiguity.NON_DETERMINISTIC_RELAXED, q.inner());
            assertTrue(a().times(2, 3).greedy().allowCombinations().quantifier().greedy());
        }

        @Test
        void greedyIsAcceptedOnLoopsAndBoundedTimes() {
            assertTrue(a().oneOrMore().greedy().quantifier().greedy());
            assertTrue(a().times(2, 4).greedy().quantifier().greedy());
            assertTrue(a().oneOrMore().consecutive().greedy().quantifier().greedy());
            assertTrue(a().oneOrMore().optional().greedy().quantifier().greedy(),
                    "an optional stage may itself be greedy; only the stage after it may not be optional");
        }
    }

    @Nested
    class InnerContiguity {

        @Test
        void consecutiveAndAllowCombinationsNeedAQuantifier() {
            assertRejected(() -> a().consecutive(), "stage 'a'", "consecutive()", "only to quantified stages");
            assertRejected(() -> a().allowCombinations(), "stage 'a'", "allowCombinations()",
                    "only to quantified stages");
            assertRejected(() -> a().optional().consecutive(), "stage 'a'", "consecutive()", "quantified");
        }

        @Test
        void theInnerContiguityIsSetOnce() {
            assertRejected(() -> a().times(3).consecutive().consecutive(), "stage 'a'", "consecutive()",
                    "already set to STRICT");
            assertRejected(() -> a().times(3).consecutive().allowCombinations(), "stage 'a'",
                    "allowCombinations()", "already set to STRICT");
            assertRejected(() -> a().times(3).allowCombinations().consecutive(), "stage 'a'", "consecutive()",
                    "already set to NON_DETERMINISTIC_RELAXED");
        }

        @Test
        void innerContiguityIsRecordedOnQuantifiedStagesAndGroups() {
            assertEquals(Contiguity.STRICT, a().times(3).consecutive().quantifier().inner());
            assertEquals(Contiguity.NON_DETERMINISTIC_RELAXED, a().oneOrMore().allowCombinations().quantifier().inner());
            assertEquals(Contiguity.STRICT, xyGroup().times(2).consecutive().quantifier().inner());
        }
    }

    @Nested
    class OptionalStages {

        @Test
        void optionalCanBeAppliedOnlyOnce() {
            assertRejected(() -> a().optional().optional(), "stage 'a'", "optional() applied twice");
            assertRejected(() -> a().oneOrMore().optional().optional(), "stage 'a'", "optional() applied twice");
        }

        @Test
        void anOptionalStageCannotFollowAGreedyStage() {
            Pattern<TestEvent> afterGreedy = a().oneOrMore().greedy().next("b");
            assertRejected(afterGreedy::optional, "stage 'b'", "cannot be preceded by greedy", "'a' is greedy");
            assertRejected(() -> afterGreedy.times(2).optional(), "stage 'b'", "greedy");
        }

        @Test
        void anOptionalStageMayFollowANonGreedyLoop() {
            assertTrue(a().oneOrMore().next("b").optional().quantifier().optional());
            assertTrue(a().optional().followedBy("b").optional().quantifier().optional());
        }
    }

    @Nested
    class NotStages {

        private Pattern<TestEvent> notNext() {
            return a().notNext("n");
        }

        private Pattern<TestEvent> notFollowedBy() {
            return a().notFollowedBy("n");
        }

        @ParameterizedTest
        @ValueSource(strings = {"notNext", "notFollowedBy"})
        void aNotStageCannotFollowAnOptionalStage(String kind) {
            Function<Pattern<TestEvent>, Pattern<TestEvent>> appendNot =
                    kind.equals("notNext") ? p -> p.notNext("n") : p -> p.notFollowedBy("n");

            assertRejected(() -> appendNot.apply(a().optional()), "stage 'n'", "NOT stage",
                    "optional stage 'a'");
            assertRejected(() -> appendNot.apply(a().times(0, 2)), "stage 'n'", "optional stage 'a'");
            assertRejected(() -> appendNot.apply(a().timesOrMore(0)), "stage 'n'", "optional stage 'a'");
            assertRejected(() -> appendNot.apply(xyGroup().optional()), "stage 'n'",
                    "optional stage 'group(x,y)'");
        }

        @Test
        void aNotStageMayFollowAQuantifiedStage() {
            assertTrue(a().times(2).notNext("n").isNot());
            assertTrue(a().oneOrMore().greedy().notFollowedBy("n").isNot());
        }

        @Test
        void aNotStageTakesNoQuantifier() {
            for (Pattern<TestEvent> not : List.of(notNext(), notFollowedBy())) {
                assertRejected(() -> not.times(2), "stage 'n'", "times()", "NOT stage");
                assertRejected(() -> not.times(1, 3), "stage 'n'", "times()", "NOT stage");
                assertRejected(() -> not.timesOrMore(2), "stage 'n'", "timesOrMore()", "NOT stage");
                assertRejected(not::oneOrMore, "stage 'n'", "NOT stage");
            }
        }

        @Test
        void aNotStageTakesNoOptions() {
            for (Pattern<TestEvent> not : List.of(notNext(), notFollowedBy())) {
                assertRejected(not::optional, "stage 'n'", "optional()", "NOT stage");
                assertRejected(not::greedy, "stage 'n'", "greedy()", "NOT stage");
                assertRejected(not::consecutive, "stage 'n'", "consecutive()", "NOT stage");
                assertRejected(not::allowCombinations, "stage 'n'", "allowCombinations()", "NOT stage");
                assertRejected(() -> not.until(IS_C), "stage 'n'", "until()", "NOT stage");
            }
        }

        @Test
        void aNotStageTakesAConditionAndAWindow() {
            Pattern<TestEvent> not = notFollowedBy().where(IS_C).within(Duration.ofMinutes(5));
            assertEquals(IS_C, not.condition());
            assertEquals(Duration.ofMinutes(5), not.window(WithinType.FIRST_AND_LAST).orElseThrow());
        }
    }

    @Nested
    class StageNames {

        @Test
        void everyWayOfAppendingRejectsADuplicateName() {
            Pattern<TestEvent> ab = a().next("b");
            assertRejected(() -> ab.next("a"), "stage 'a'", "Duplicate pattern name");
            assertRejected(() -> ab.followedBy("b"), "stage 'b'", "Duplicate pattern name");
            assertRejected(() -> ab.followedByAny("a"), "stage 'a'", "Duplicate pattern name");
            assertRejected(() -> ab.notNext("b"), "stage 'b'", "Duplicate pattern name");
            assertRejected(() -> ab.notFollowedBy("a"), "stage 'a'", "Duplicate pattern name");
        }

        @Test
        void namesInsideAnEarlierGroupCount() {
            assertRejected(() -> xyGroup().next("y"), "stage 'y'", "Duplicate pattern name");
            assertRejected(() -> a().followedBy(Pattern.<TestEvent>begin("x")).followedBy("x"), "stage 'x'",
                    "Duplicate pattern name");
        }

        @Test
        void aNotStageNameCounts() {
            assertRejected(() -> a().notNext("n").followedBy("n"), "stage 'n'", "Duplicate pattern name");
        }

        @ParameterizedTest
        @ValueSource(strings = {"", " ", "\t", " \n "})
        void blankNamesAreRejectedEverywhere(String blank) {
            assertRejected(() -> Pattern.<TestEvent>begin(blank), "stage name must not be blank");
            assertRejected(() -> Pattern.<TestEvent>begin(blank, AfterMatchSkipStrategy.skipToNext()),
                    "stage name must not be blank");
            assertRejected(() -> a().next(blank), "stage name must not be blank");
            assertRejected(() -> a().followedBy(blank), "stage name must not be blank");
            assertRejected(() -> a().followedByAny(blank), "stage name must not be blank");
            assertRejected(() -> a().notNext(blank), "stage name must not be blank");
            assertRejected(() -> a().notFollowedBy(blank), "stage name must not be blank");
        }

        @Test
        void nullNamesAndGroupsAreNullPointerErrors() {
            assertThrows(NullPointerException.class, () -> Pattern.<TestEvent>begin((String) null));
            assertThrows(NullPointerException.class, () -> a().next((String) null));
            assertThrows(NullPointerException.class, () -> a().followedBy((Pattern<TestEvent>) null));
            assertThrows(NullPointerException.class, () -> Pattern.<TestEvent>begin((Pattern<TestEvent>) null));
        }

        @Test
        void namesAreKeptAsGiven() {
            assertEquals(" a b ", Pattern.<TestEvent>begin(" a b ").name(), "only blank names are rejected");
        }
    }

    @Nested
    class Windows {

        @Test
        void nonPositiveWindowsAreRejected() {
            assertRejected(() -> a().within(Duration.ZERO), "stage 'a'", "within(PT0S)", "at least 1 ms");
            assertRejected(() -> a().within(Duration.ofMillis(-1)), "stage 'a'", "at least 1 ms");
            assertRejected(() -> a().next("b").within(Duration.ofSeconds(-5), WithinType.PREVIOUS_AND_CURRENT),
                    "stage 'b'", "at least 1 ms");
            assertRejected(() -> xyGroup().within(Duration.ZERO), "stage 'group(x,y)'", "at least 1 ms");
        }

        @Test
        void windowsBetweenTheEventsOfAStageAreCheckedAndKeptThroughLaterCalls() {
            assertRejected(() -> a().times(3, Duration.ZERO), "stage 'a'", "times(3, PT0S)", "at least 1 ms");
            assertRejected(() -> a().timesOrMore(2, Duration.ofNanos(1)), "stage 'a'", "at least 1 ms");
            assertRejected(() -> a().oneOrMore(Duration.ofMillis(-1)), "stage 'a'", "oneOrMore(", "at least 1 ms");
            assertRejected(() -> a().times(2).times(1, 3, Duration.ofMillis(5)), "stage 'a'",
                    "a quantifier was already applied");
            assertRejected(() -> a().notNext("n").times(2, Duration.ofMillis(5)), "stage 'n'",
                    "not applicable to a NOT stage");
            Pattern<TestEvent> p = a().times(0, 3, Duration.ofMillis(5)).greedy().consecutive()
                    .within(Duration.ofSeconds(1));
            assertEquals(java.util.Optional.of(Duration.ofMillis(5)), p.timesWindow());
            assertEquals(new Quantifier(Quantifier.Kind.TIMES, 1, 3, true, true, Contiguity.STRICT), p.quantifier());
            assertEquals(java.util.Optional.empty(), a().times(3).timesWindow());
        }

        @Test
        void windowsBelowOneMillisecondAreRejected() {
            assertRejected(() -> a().within(Duration.ofNanos(999_999)), "stage 'a'", "at least 1 ms");
            assertRejected(() -> a().within(Duration.ofNanos(1), WithinType.PREVIOUS_AND_CURRENT), "stage 'a'",
                    "at least 1 ms");
        }

        @Test
        void theTwoWindowTypesAreKeptApart() {
            Pattern<TestEvent> p = a().within(Duration.ofMillis(1))
                    .within(Duration.ofSeconds(3), WithinType.PREVIOUS_AND_CURRENT);
            assertEquals(Duration.ofMillis(1), p.window(WithinType.FIRST_AND_LAST).orElseThrow());
            assertEquals(Duration.ofSeconds(3), p.window(WithinType.PREVIOUS_AND_CURRENT).orElseThrow());
        }

        @Test
        void nullWindowOrTypeIsANullPointerError() {
            assertThrows(NullPointerException.class, () -> a().within(null));
            assertThrows(NullPointerException.class, () -> a().within(Duration.ofSeconds(1), null));
        }
    }

    @Nested
    class Groups {

        @Test
        void conditionsApplyToSingleStagesOnly() {
            assertRejected(() -> xyGroup().where(IS_C), "stage 'group(x,y)'", "where()", "not to a group");
            assertRejected(() -> xyGroup().where((e, ctx) -> true), "stage 'group(x,y)'", "where()");
            assertRejected(() -> xyGroup().or(IS_C), "stage 'group(x,y)'", "or()", "not to a group");
            assertRejected(() -> xyGroup().subtype(TestEvent.class), "stage 'group(x,y)'", "where()");
        }

        @Test
        void nestedGroupsAreNamedInMessages() {
            Pattern<TestEvent> nested = Pattern.begin(Pattern.<TestEvent>begin("p").followedBy(
                    Pattern.<TestEvent>begin("q").next("r")));
            assertEquals("group(p,group(q,r))", nested.displayName());
            assertRejected(nested::greedy, "stage 'group(p,group(q,r))'");
        }

        @Test
        void aLoopingGroupMustTakeAnEventInEachRound() {
            Pattern<TestEvent> optionalOnly = Pattern.<TestEvent>begin("g").optional();
            assertRejected(() -> a().followedBy(optionalOnly).oneOrMore(), "stage 'group(g)'", "oneOrMore()",
                    "a loop that can take no event", "every stage of the group is optional");
            assertRejected(() -> a().followedBy(optionalOnly).timesOrMore(2), "stage 'group(g)'",
                    "timesOrMore()", "a loop that can take no event");
            assertRejected(() -> a().next(optionalOnly).timesOrMore(0), "a loop that can take no event");
            assertRejected(() -> Pattern.begin(optionalOnly).oneOrMore(), "a loop that can take no event");
            Pattern<TestEvent> twoOptional = Pattern.<TestEvent>begin("x").times(0, 2).followedBy("y").optional();
            assertRejected(() -> a().followedByAny(twoOptional).oneOrMore(), "stage 'group(x,y)'",
                    "a loop that can take no event");
            Pattern<TestEvent> nested = Pattern.<TestEvent>begin("x").optional()
                    .followedBy(Pattern.<TestEvent>begin("y").oneOrMore().optional());
            assertRejected(() -> a().followedBy(nested).oneOrMore(), "stage 'group(x,group(y))'",
                    "a loop that can take no event");
            Pattern<TestEvent> optionalGroupInside = Pattern.<TestEvent>begin("x").optional()
                    .followedBy(Pattern.<TestEvent>begin("y").next("z")).optional();
            assertRejected(() -> a().followedBy(optionalGroupInside).oneOrMore(), "a loop that can take no event");
        }

        @Test
        void aLoopingGroupWithAMandatoryStageIsAccepted() {
            Pattern<TestEvent> oneMandatory = Pattern.<TestEvent>begin("x").optional().followedBy("y");
            assertTrue(a().followedBy(oneMandatory).oneOrMore().quantifier().isLooping());
            assertTrue(a().followedBy(oneMandatory).timesOrMore(0).quantifier().optional());
            Pattern<TestEvent> mandatoryInNested = Pattern.<TestEvent>begin("x").optional()
                    .followedBy(Pattern.<TestEvent>begin("y").oneOrMore());
            assertTrue(a().followedBy(mandatoryInNested).oneOrMore().quantifier().isLooping());
            // a loop around a mandatory group may itself be optional; a bounded count of an optional-only group
            // has no loop
            assertTrue(xyGroup().oneOrMore().optional().quantifier().optional());
            assertEquals(2, a().followedBy(Pattern.<TestEvent>begin("g").optional()).times(2).quantifier().to());
        }

        @Test
        void aGroupHasNoNameAndNoCondition() {
            Pattern<TestEvent> g = xyGroup();
            assertTrue(g.isGroup());
            assertEquals(null, g.name());
            assertEquals(null, g.condition());
            assertFalse(a().isGroup());
        }
    }
}
