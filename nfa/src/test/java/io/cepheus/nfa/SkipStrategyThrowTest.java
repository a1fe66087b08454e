package io.cepheus.nfa;

import static io.cepheus.nfa.TestEvent.kind;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Pattern;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code skipToFirst}/{@code skipToLast} with {@code throwExceptionOnMiss()}: when the errors are raised (as
 * in Flink 2.3: the match has no event in the target stage, or the target is the match's first event) and
 * that the key is left consistent and leak-free afterwards.
 */
class SkipStrategyThrowTest {

    /** {@code a followedBy b? followedBy c} within 10, skipping to b: a match without b misses the target. */
    private static Pattern<TestEvent> optionalTarget(AfterMatchSkipStrategy skip) {
        return Pattern.<TestEvent>begin("a", skip).where(kind('a'))
                .followedBy("b").where(kind('b')).optional()
                .followedBy("c").where(kind('c')).within(Duration.ofMillis(10));
    }

    private static void feed(NfaMatcher<TestEvent> m, NfaState s, Run run, String events, long from) {
        long ts = from;
        for (String word : events.split(" ")) {
            m.process(s, new TestEvent(word, ts), ts, run);
            ts++;
        }
    }

    @Test
    void aMissedTargetThrowsDropsTheMatchAndLeaksNothing() {
        NfaMatcher<TestEvent> m = NfaCompiler.compile(optionalTarget(
                AfterMatchSkipStrategy.skipToFirst("b").throwExceptionOnMiss())).newMatcher();
        NfaState s = m.newState("k7");
        Run run = new Run();
        feed(m, s, run, "a1 a2", 1);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> m.process(s, new TestEvent("c1", 3), 3, run));
        assertTrue(e.getMessage().contains("Could not skip to stage 'b'") && e.getMessage().contains("k7")
                && e.getMessage().contains("SKIP_TO_FIRST"), e.getMessage());
        assertEquals(List.of(), run.matches, "the offending match a1 c1 is not emitted");
        assertEquals(s.partialMatchCount(), m.livePartialMatches());
        // the key goes on: the runs of a1 and a2 still wait for b and c
        m.process(s, new TestEvent("b1", 4), 4, run);
        m.process(s, new TestEvent("c2", 5), 5, run);
        assertEquals(List.of("a1 b1 c2"), run.matches, "skipping to b1 pruned the run of a2");
        m.advanceTime(s, Long.MAX_VALUE, run);
        assertTrue(s.isEmpty(), s.toString());
        assertEquals(0, m.livePartialMatches());
        assertEquals(0, m.bufferedEntries(), "entries of the dropped match are released");
        assertEquals(0, m.bufferedEvents(), "events of the dropped match are released");
    }

    @Test
    void aMissedTargetWithNothingElseLiveLeavesAnEmptyBuffer() {
        // the audit's reproduction: after the throw and an advance to the end nothing may stay buffered
        NfaMatcher<TestEvent> m = NfaCompiler.compile(optionalTarget(
                AfterMatchSkipStrategy.skipToLast("b").throwExceptionOnMiss())).newMatcher();
        NfaState s = m.newState("k");
        Run run = new Run();
        m.process(s, new TestEvent("a1", 1), 1, run);
        assertThrows(IllegalStateException.class, () -> m.process(s, new TestEvent("c1", 2), 2, run));
        m.advanceTime(s, Long.MAX_VALUE, run);
        assertEquals(List.of(), run.matches);
        assertTrue(s.isEmpty(), s.toString());
        assertEquals(0, m.bufferedEntries());
        assertEquals(0, m.bufferedEvents());
    }

    @Test
    void skippingToTheFirstEventOfTheMatchThrowsAsFlinkDoes() {
        for (AfterMatchSkipStrategy skip : List.of(AfterMatchSkipStrategy.skipToFirst("a").throwExceptionOnMiss(),
                AfterMatchSkipStrategy.skipToLast("a").throwExceptionOnMiss())) {
            Pattern<TestEvent> p = Pattern.<TestEvent>begin("a", skip).where(kind('a'))
                    .followedBy("b").where(kind('b'));
            NfaMatcher<TestEvent> m = NfaCompiler.compile(p).newMatcher();
            NfaState s = m.newState("k");
            Run run = new Run();
            m.process(s, new TestEvent("a1", 1), 1, run);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> m.process(s, new TestEvent("b1", 2), 2, run));
            assertTrue(e.getMessage().contains("Could not skip to first element of a match")
                    && e.getMessage().contains("stage 'a'") && e.getMessage().contains(skip.kind().name()),
                    e.getMessage());
            assertEquals(List.of(), run.matches, skip + ": Flink emits nothing either");
            m.advanceTime(s, Long.MAX_VALUE, run);
            assertTrue(s.isEmpty(), s.toString());
            assertEquals(0, m.bufferedEntries());
            assertEquals(0, m.bufferedEvents());
        }
    }

    @Test
    void aTargetAfterTheFirstEventOrWithoutTheThrowOptionIsFine() {
        Pattern<TestEvent> toB = Pattern.<TestEvent>begin("a", AfterMatchSkipStrategy.skipToFirst("b")
                .throwExceptionOnMiss()).where(kind('a')).followedBy("b").where(kind('b'));
        assertEquals(List.of("a1 b1", "a2 b2"), Run.of(toB, "a1 b1 a2 b2").matches);
        Pattern<TestEvent> toA = Pattern.<TestEvent>begin("a", AfterMatchSkipStrategy.skipToFirst("a"))
                .where(kind('a')).followedBy("b").where(kind('b'));
        assertEquals(List.of("a1 b1", "a2 b2"), Run.of(toA, "a1 b1 a2 b2").matches);
        // skipping to the last a of a1 a2 b1 is not the first event: no error
        Pattern<TestEvent> loop = Pattern.<TestEvent>begin("a", AfterMatchSkipStrategy.skipToLast("a")
                .throwExceptionOnMiss()).where(kind('a')).times(2).followedBy("b").where(kind('b'));
        assertEquals(List.of("a1 a2 b1"), Run.of(loop, "a1 a2 b1").matches);
    }

    @Test
    void aFailureWhileTimeWentOnStillReportsTimeoutsAndReleasesEverything() {
        // a b, then no n for 10 ms: the match completes when time passes; its skip target a is its first event
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a", AfterMatchSkipStrategy.skipToFirst("a")
                .throwExceptionOnMiss()).where(kind('a')).followedBy("b").where(kind('b'))
                .notFollowedBy("n").where(kind('n')).within(Duration.ofMillis(10));
        NfaMatcher<TestEvent> m = NfaCompiler.compile(p).newMatcher();
        NfaState s = m.newState("k");
        Run run = new Run();
        feed(m, s, run, "a1 b1 a2", 1);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> m.advanceTime(s, Long.MAX_VALUE, run));
        assertTrue(e.getMessage().contains("Could not skip to first element of a match"), e.getMessage());
        assertEquals(List.of(), run.matches);
        assertEquals(List.of("a2 @13"), run.timeouts, "the timeout of the same advance is still reported");
        assertTrue(s.isEmpty(), s.toString());
        assertEquals(0, m.bufferedEntries());
        assertEquals(0, m.bufferedEvents());
    }

    @Test
    void anEventWhoseAdvanceFailedIsStillMatched() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a", AfterMatchSkipStrategy.skipToFirst("a")
                .throwExceptionOnMiss()).where(kind('a')).followedBy("b").where(kind('b'))
                .notFollowedBy("n").where(kind('n')).within(Duration.ofMillis(10));
        NfaMatcher<TestEvent> m = NfaCompiler.compile(p).newMatcher();
        NfaState s = m.newState("k");
        Run run = new Run();
        feed(m, s, run, "a1 b1", 1);
        // at 20 the window of a1 b1 has closed (a match that cannot be skipped): the a3 of that time still counts
        assertThrows(IllegalStateException.class, () -> m.process(s, new TestEvent("a3", 20), 20, run));
        assertEquals(1, s.partialMatchCount(), "a3 started a partial match");
        m.process(s, new TestEvent("n1", 21), 21, run);
        m.advanceTime(s, Long.MAX_VALUE, run);
        assertEquals(List.of(), run.matches);
        assertEquals(0, m.bufferedEntries());
        assertEquals(0, m.bufferedEvents());
    }
}
