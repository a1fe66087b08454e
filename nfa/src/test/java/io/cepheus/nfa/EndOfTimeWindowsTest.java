package io.cepheus.nfa;

import static io.cepheus.nfa.TestEvent.kind;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.WithinType;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Windows and gaps at the edges of the {@code long} range: a window is open while {@code time - first < window}, as
 * in Flink, even where {@code first + window} would pass {@code Long.MAX_VALUE}; a timeout is reported at a time
 * that saturates there, never at a wrapped, negative one.
 */
class EndOfTimeWindowsTest {

    private static Run run(Pattern<TestEvent> pattern, TestEvent... events) {
        NfaMatcher<TestEvent> matcher = NfaCompiler.compile(pattern).newMatcher();
        NfaState state = matcher.newState("k");
        Run run = new Run();
        for (TestEvent e : events) {
            matcher.process(state, e, e.ts(), run);
        }
        matcher.advanceTime(state, Long.MAX_VALUE, run);
        return run;
    }

    @Test
    void aMatchInsideAWindowThatEndsAfterTheEndOfTimeIsFound() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a'))
                .followedBy("b").where(kind('b')).within(Duration.ofMillis(10));
        Run r = run(p, new TestEvent("a", Long.MAX_VALUE - 5), new TestEvent("b", Long.MAX_VALUE));
        assertEquals(List.of("a b"), r.matches);
        assertEquals(List.of(), r.timeouts);
    }

    @Test
    void aGapThatEndsAfterTheEndOfTimeStaysOpen() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a'))
                .followedBy("b").where(kind('b')).within(Duration.ofMillis(10), WithinType.PREVIOUS_AND_CURRENT);
        Run r = run(p, new TestEvent("a", Long.MAX_VALUE - 3), new TestEvent("b", Long.MAX_VALUE));
        assertEquals(List.of("a b"), r.matches);
        assertEquals(List.of(), r.timeouts);
    }

    @Test
    void aTimeoutNearTheEndOfTimeIsReportedAtItsTimeNotAWrappedOne() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a'))
                .followedBy("b").where(kind('b')).within(Duration.ofMillis(10));
        Run r = run(p, new TestEvent("a", Long.MAX_VALUE - 20), new TestEvent("x", Long.MAX_VALUE));
        assertEquals(List.of(), r.matches);
        assertEquals(List.of("a @" + (Long.MAX_VALUE - 10)), r.timeouts);
    }

    @Test
    void windowsFromTheStartOfTimeCloseOnTheirDifferenceNotAWrappedSum() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a'))
                .followedBy("b").where(kind('b')).within(Duration.ofMillis(10));
        Run r = run(p, new TestEvent("a", Long.MIN_VALUE), new TestEvent("b", Long.MIN_VALUE + 9),
                new TestEvent("a", Long.MIN_VALUE + 100), new TestEvent("b", 0));
        assertEquals(List.of("a b"), r.matches, "the second a is 9,223,372,036,854,775,708 ms before its b");
        assertEquals(List.of("a @" + (Long.MIN_VALUE + 110)), r.timeouts);
    }
}
