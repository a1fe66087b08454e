package io.cepheus.pattern;

import static io.cepheus.pattern.Rejections.assertRejected;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

/** Build-time rules that were once bypassable: regression tests for the gaps found in review. */
class PatternRuleGapsTest {

    /**
     * {@code optional()} refuses to follow a greedy stage, but {@code times(0, n)} and {@code timesOrMore(0)}
     * make the stage optional without going through {@code optional()}, so the rule is bypassed.
     */
    @Test
    void zeroLowerBoundAfterAGreedyStageIsRejectedLikeOptional() {
        Pattern<TestEvent> afterGreedy = Pattern.<TestEvent>begin("a").oneOrMore().greedy().next("b");
        assertRejected(() -> afterGreedy.times(0, 2), "stage 'b'", "greedy");
        assertRejected(() -> afterGreedy.timesOrMore(0), "stage 'b'", "greedy");
    }

    /**
     * {@code throwExceptionOnMiss()} refuses strategies without a stage, but the public record constructor
     * accepts the same combination.
     */
    @Test
    void theConstructorRejectsThrowOnAbsentWithoutAStage() {
        assertRejected(() -> new AfterMatchSkipStrategy(AfterMatchSkipStrategy.Kind.SKIP_TO_NEXT, null, true),
                "SKIP_TO_NEXT");
    }

    /**
     * A window too large for milliseconds escapes as ArithmeticException from {@code Duration.toMillis()};
     * accepting it or rejecting it as malformed would both be fine.
     */
    @Test
    void aHugeWindowIsAcceptedOrRejectedAsMalformedButDoesNotOverflow() {
        for (Duration huge : new Duration[] {ChronoUnit.FOREVER.getDuration(), Duration.ofSeconds(Long.MAX_VALUE)}) {
            try {
                Pattern.<TestEvent>begin("a").within(huge);
            } catch (MalformedPatternException acceptable) {
                // rejecting is fine; any other exception fails the test
            }
        }
    }
}
