package io.cepheus.nfa;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.MalformedPatternException;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.WithinType;
import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Whole-pattern rules the compiler shares with Flink 2.3's NFACompiler; each accepted or rejected pattern here
 * was compiled by Flink too, with the same outcome.
 */
class CompileRulesParityTest {

    private static Duration ms(long m) {
        return Duration.ofMillis(m);
    }

    private static MalformedPatternException rejected(Supplier<Pattern<TestEvent>> p, String... fragments) {
        MalformedPatternException e = assertThrows(MalformedPatternException.class,
                () -> NfaCompiler.compile(p.get()));
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), () -> "\"" + e.getMessage() + "\" lacks \"" + f + "\"");
        }
        return e;
    }

    private static void accepted(Supplier<Pattern<TestEvent>> p) {
        assertDoesNotThrow(() -> NfaCompiler.compile(p.get()));
    }

    private static Pattern<TestEvent> group() {
        return Pattern.<TestEvent>begin("g1").followedBy("g2");
    }

    /** Only where Flink gives a times window to a state is it checked against the pattern's window. */
    @Test
    void aWindowBetweenEventsMayNotExceedTheFirstAndLastWindowWhereItApplies() {
        String rule = "cannot be larger than the window length between the first and last event";
        rejected(() -> Pattern.<TestEvent>begin("b").followedBy("a").times(3, ms(20)).within(ms(10)), "stage 'a'",
                "window between events (20 ms)", "FIRST_AND_LAST window (10 ms)", rule);
        rejected(() -> Pattern.<TestEvent>begin("a").times(2, ms(20)).within(ms(10)), "stage 'a'", rule);
        rejected(() -> Pattern.<TestEvent>begin("a").oneOrMore(ms(20)).followedBy("b").within(ms(10)), "stage 'a'",
                rule);
        accepted(() -> Pattern.<TestEvent>begin("a").times(1, ms(20)).within(ms(10))); // no state of it has one
        accepted(() -> Pattern.<TestEvent>begin("b").followedBy("a").times(3, ms(10)).within(ms(10)));
    }

    @Test
    void aPreviousAndCurrentWindowMayNotExceedTheFirstAndLastWindow() {
        String rule = "cannot be larger than the window length between the first and last event";
        rejected(() -> Pattern.<TestEvent>begin("a").followedBy("b").within(ms(10), WithinType.PREVIOUS_AND_CURRENT)
                .within(ms(5)), "stage 'b'", "PREVIOUS_AND_CURRENT window (10 ms)", "FIRST_AND_LAST window (5 ms)",
                rule);
        rejected(() -> Pattern.<TestEvent>begin("a").within(ms(5))
                .followedBy("b").within(ms(10), WithinType.PREVIOUS_AND_CURRENT), "stage 'b'", rule);
        rejected(() -> Pattern.<TestEvent>begin("a").within(ms(10), WithinType.PREVIOUS_AND_CURRENT)
                .followedBy("b").within(ms(5)), "stage 'a'", rule);
        rejected(() -> Pattern.<TestEvent>begin("a").followedBy("b").optional()
                .within(ms(10), WithinType.PREVIOUS_AND_CURRENT).followedBy("c").within(ms(5)), "stage 'b'");
        rejected(() -> Pattern.<TestEvent>begin("a").within(ms(5)).notNext("n")
                .within(ms(10), WithinType.PREVIOUS_AND_CURRENT).followedBy("c"), "stage 'n'");
        rejected(() -> Pattern.<TestEvent>begin("a").within(ms(5)).notFollowedBy("n")
                .within(ms(10), WithinType.PREVIOUS_AND_CURRENT), "stage 'n'");
        rejected(() -> Pattern.<TestEvent>begin("a").followedBy(Pattern.<TestEvent>begin("g1").followedBy("g2")
                .within(ms(10), WithinType.PREVIOUS_AND_CURRENT)).within(ms(5)), "stage 'g2'");
    }

    @Test
    void previousAndCurrentWindowsFlinkDoesNotCompareAreAccepted() {
        accepted(() -> Pattern.<TestEvent>begin("a").followedBy("b")
                .within(ms(5), WithinType.PREVIOUS_AND_CURRENT).within(ms(5)));
        accepted(() -> Pattern.<TestEvent>begin("a").followedBy("b").within(ms(10), WithinType.PREVIOUS_AND_CURRENT));
        // Flink keeps no such window for quantified stages, groups and a notFollowedBy in the middle
        accepted(() -> Pattern.<TestEvent>begin("a").within(ms(5)).followedBy("b").oneOrMore()
                .within(ms(10), WithinType.PREVIOUS_AND_CURRENT).followedBy("c"));
        accepted(() -> Pattern.<TestEvent>begin("a").within(ms(5)).followedBy("b").times(2)
                .within(ms(10), WithinType.PREVIOUS_AND_CURRENT));
        accepted(() -> Pattern.<TestEvent>begin("a").followedBy(group())
                .within(ms(10), WithinType.PREVIOUS_AND_CURRENT).followedBy("c").within(ms(5)));
        accepted(() -> Pattern.<TestEvent>begin("a").notFollowedBy("n")
                .within(ms(10), WithinType.PREVIOUS_AND_CURRENT).followedBy("c").within(ms(5)));
    }

    @Test
    void aSkipTargetMustBeAStageOutsideGroups() {
        String rule = "can not be found in the given Pattern";
        rejected(() -> Pattern.<TestEvent>begin("a", AfterMatchSkipStrategy.skipToFirst("g1")).followedBy(group()),
                "stage 'g1'", "SKIP_TO_FIRST", rule, "inside a group");
        rejected(() -> Pattern.<TestEvent>begin("a", AfterMatchSkipStrategy.skipToLast("g2")).followedBy(group())
                .oneOrMore(), "stage 'g2'", "SKIP_TO_LAST", "inside a group");
        rejected(() -> Pattern.begin(group(), AfterMatchSkipStrategy.skipToFirst("g1")).followedBy("c"),
                "stage 'g1'", "inside a group");
        accepted(() -> Pattern.<TestEvent>begin("a", AfterMatchSkipStrategy.skipToFirst("a")).followedBy(group()));
        accepted(() -> Pattern.begin(group(), AfterMatchSkipStrategy.skipToLast("c")).followedBy("c"));
        accepted(() -> Pattern.<TestEvent>begin("a", AfterMatchSkipStrategy.skipToFirst("n")).notFollowedBy("n")
                .followedBy("c"));
    }
}
