package io.cepheus.nfa;

import static io.cepheus.nfa.TestEvent.kind;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.IterativeCondition;
import io.cepheus.pattern.Pattern;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the step API promises about bad input, bounds, conditions and memory. */
class NfaMatcherContractTest {

    private static final Pattern<TestEvent> AB = Pattern.<TestEvent>begin("a").where(kind('a'))
            .followedBy("b").where(kind('b')).within(Duration.ofMillis(100));

    @Test
    void nullEventIsRejectedWithTheKeyAndTime() {
        NfaMatcher<TestEvent> m = NfaCompiler.compile(AB).newMatcher();
        NfaState s = m.newState("user-7");
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> m.process(s, null, 5, MatchSink.discarding()));
        assertTrue(e.getMessage().contains("user-7") && e.getMessage().contains("5"), e.getMessage());
    }

    @Test
    void timeGoingBackwardsIsRejectedAndNamesBothTimes() {
        NfaMatcher<TestEvent> m = NfaCompiler.compile(AB).newMatcher();
        NfaState s = m.newState("k");
        m.process(s, new TestEvent("a1", 10), 10, MatchSink.discarding());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> m.process(s, new TestEvent("b1", 9), 9, MatchSink.discarding()));
        assertTrue(e.getMessage().contains("9") && e.getMessage().contains("10"), e.getMessage());
        assertEquals(1, s.partialMatchCount(), "the rejected event changed nothing");
    }

    @Test
    void equalTimestampsAreAccepted() {
        Run run = new Run();
        NfaMatcher<TestEvent> m = NfaCompiler.compile(AB).newMatcher();
        NfaState s = m.newState("k");
        m.process(s, new TestEvent("a1", 10), 10, run);
        m.process(s, new TestEvent("b1", 10), 10, run);
        assertEquals(List.of("a1 b1"), run.matches);
    }

    @Test
    void aStateOfAnotherMatcherIsRejected() {
        CompiledPattern<TestEvent> cp = NfaCompiler.compile(AB);
        NfaState foreign = cp.newMatcher().newState("k");
        assertThrows(IllegalArgumentException.class,
                () -> cp.newMatcher().process(foreign, new TestEvent("a", 1), 1, MatchSink.discarding()));
    }

    @Test
    void aThrowingConditionNamesTheStageAndLeavesTheStateConsistent() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a'))
                .followedByAny("b").where(e -> {
                    if (e.name().equals("bad")) {
                        throw new IllegalStateException("boom");
                    }
                    return e.kind() == 'b';
                });
        NfaMatcher<TestEvent> m = NfaCompiler.compile(p).newMatcher();
        NfaState s = m.newState("k");
        Run run = new Run();
        m.process(s, new TestEvent("a1", 1), 1, run);
        m.process(s, new TestEvent("b1", 2), 2, run);
        int partialsBefore = s.partialMatchCount();
        int entriesBefore = m.bufferedEntries();
        ConditionException e = assertThrows(ConditionException.class,
                () -> m.process(s, new TestEvent("bad", 3), 3, run));
        assertEquals("b", e.stage());
        assertTrue(e.getMessage().contains("'b'") && e.getCause() instanceof IllegalStateException, e.getMessage());
        assertEquals(partialsBefore, s.partialMatchCount());
        assertEquals(entriesBefore, m.bufferedEntries());
        m.process(s, new TestEvent("b2", 4), 4, run);
        assertEquals(List.of("a1 b1", "a1 b2"), run.matches);
    }

    @Test
    void aConditionThrowingAfterAnotherRunMovedOnLeavesTheBufferIntact() {
        // a1 and a2 both wait for b; the b condition succeeds for a1's run, then throws for a2's run
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a'))
                .followedBy("b").where((e, ctx) -> {
                    if (e.name().equals("bx") && ctx.eventsForPattern("a").get(0).name().equals("a2")) {
                        throw new IllegalStateException("boom");
                    }
                    return e.kind() == 'b';
                }).within(Duration.ofMillis(100));
        NfaMatcher<TestEvent> m = NfaCompiler.compile(p).newMatcher();
        NfaState s = m.newState("k");
        Run run = new Run();
        m.process(s, new TestEvent("a1", 1), 1, run);
        m.process(s, new TestEvent("a2", 2), 2, run);
        int entries = m.bufferedEntries();
        int events = m.bufferedEvents();
        assertThrows(ConditionException.class, () -> m.process(s, new TestEvent("bx", 3), 3, run));
        assertEquals(entries, m.bufferedEntries());
        assertEquals(events, m.bufferedEvents());
        assertEquals(2, s.partialMatchCount());
        m.process(s, new TestEvent("b1", 4), 4, run);
        assertEquals(List.of("a1 b1", "a2 b1"), run.matches);
        m.advanceTime(s, Long.MAX_VALUE, run);
        assertEquals(0, m.bufferedEntries());
        assertEquals(0, m.bufferedEvents());
    }

    @Test
    void releasedStatesAreReusedAndCannotBeUsedAfterRelease() {
        NfaMatcher<TestEvent> m = NfaCompiler.compile(AB).newMatcher();
        NfaState s = m.newState("k1");
        m.process(s, new TestEvent("a1", 5), 5, MatchSink.discarding());
        assertThrows(IllegalArgumentException.class, () -> m.release(s), "not empty yet");
        m.advanceTime(s, Long.MAX_VALUE, MatchSink.discarding());
        m.release(s);
        assertThrows(IllegalStateException.class, () -> m.process(s, new TestEvent("a2", 1), 1, MatchSink.discarding()));
        NfaState again = m.newState("k2");
        assertEquals("k2", again.key());
        assertEquals(Long.MIN_VALUE, again.currentTime(), "a reused state starts over: any time is accepted");
        Run run = new Run();
        m.process(again, new TestEvent("a3", 1), 1, run);
        m.process(again, new TestEvent("b3", 2), 2, run);
        assertEquals(List.of("a3 b3"), run.matches);
    }

    @Test
    void advancingTimeBackwardsIsIgnored() {
        NfaMatcher<TestEvent> m = NfaCompiler.compile(AB).newMatcher();
        NfaState s = m.newState("k");
        m.process(s, new TestEvent("a1", 50), 50, MatchSink.discarding());
        m.advanceTime(s, 10, MatchSink.discarding());
        assertEquals(50, s.currentTime());
        assertEquals(1, s.partialMatchCount());
    }

    private static Pattern<TestEvent> explosive() {
        return Pattern.<TestEvent>begin("a").where(kind('a')).followedByAny("b").where(kind('b')).oneOrMore()
                .allowCombinations().followedBy("c").where(kind('c'));
    }

    @Test
    void rejectNewKeepsTheBoundAndCounts() {
        NfaMatcher<TestEvent> m = NfaCompiler.compile(explosive())
                .newMatcher(NfaOptions.defaults().withMaxPartialMatchesPerKey(5));
        NfaState s = m.newState("hot");
        long ts = 1;
        for (TestEvent e : TestEvent.stream("a1 b1 b2 b3 b4 b5 b6")) {
            m.process(s, e, ts++, MatchSink.discarding());
            assertTrue(s.partialMatchCount() <= 5);
        }
        assertTrue(m.rejectedPartialMatches() > 0);
    }

    @Test
    void failPolicyThrowsAndLeavesTheStateAsItWas() {
        NfaMatcher<TestEvent> m = NfaCompiler.compile(explosive()).newMatcher(
                NfaOptions.defaults().withMaxPartialMatchesPerKey(5).withOverflowPolicy(OverflowPolicy.FAIL));
        NfaState s = m.newState("hot");
        long ts = 1;
        int before = 0;
        PartialMatchLimitException thrown = null;
        for (TestEvent e : TestEvent.stream("a1 b1 b2 b3 b4 b5 b6")) {
            before = s.partialMatchCount();
            try {
                m.process(s, e, ts++, MatchSink.discarding());
            } catch (PartialMatchLimitException ex) {
                thrown = ex;
                break;
            }
        }
        assertTrue(thrown != null && thrown.getMessage().contains("hot"));
        assertEquals(before, s.partialMatchCount());
        // what was kept is intact: the same events still complete the same runs, and nothing leaks after
        Run after = new Run();
        m.process(s, new TestEvent("c1", ts), ts, after);
        assertTrue(after.matches.size() > 0);
        m.advanceTime(s, Long.MAX_VALUE, after);
    }

    @Test
    void iterativeConditionsSeeThePartialMatchTimeAndInjectedClock() {
        List<String> seen = new ArrayList<>();
        IterativeCondition<TestEvent> spy = (e, ctx) -> {
            seen.add(e.name() + " a=" + ctx.eventsForPattern("a") + " t=" + ctx.timestamp() + " p="
                    + ctx.currentProcessingTime());
            return e.kind() == 'b';
        };
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a')).followedBy("b").where(spy);
        NfaMatcher<TestEvent> m = NfaCompiler.compile(p).newMatcher(NfaOptions.defaults().withProcessingTime(() -> 42));
        NfaState s = m.newState("k");
        m.process(s, new TestEvent("a1", 7), 7, MatchSink.discarding());
        m.process(s, new TestEvent("b1", 9), 9, MatchSink.discarding());
        assertEquals(List.of("b1 a=[a1] t=9 p=42"), seen);
    }

    @Test
    void askingForAnUnknownStageIsAClearError() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a'))
                .followedBy("b").where((e, ctx) -> ctx.eventsForPattern("nope").isEmpty());
        NfaMatcher<TestEvent> m = NfaCompiler.compile(p).newMatcher();
        NfaState s = m.newState("k");
        m.process(s, new TestEvent("a1", 1), 1, MatchSink.discarding());
        ConditionException e = assertThrows(ConditionException.class,
                () -> m.process(s, new TestEvent("b1", 2), 2, MatchSink.discarding()));
        assertTrue(e.getCause().getMessage().contains("nope"), e.getCause().getMessage());
    }

    @Test
    void theBufferIsEmptyOnceEveryWindowHasClosed() {
        NfaMatcher<TestEvent> m = NfaCompiler.compile(explosive().within(Duration.ofMillis(5))).newMatcher();
        NfaState s = m.newState("k");
        long ts = 1;
        for (TestEvent e : TestEvent.stream("a1 b1 a2 b2 c1 b3 a3 b4 c2 b5")) {
            m.process(s, e, ts++, MatchSink.discarding());
        }
        assertTrue(m.bufferedEntries() > 0);
        assertEquals(s.partialMatchCount(), m.livePartialMatches());
        m.advanceTime(s, Long.MAX_VALUE, MatchSink.discarding());
        assertEquals(0, m.livePartialMatches());
        assertEquals(0, m.bufferedEntries());
        assertEquals(0, m.bufferedEvents());
        assertTrue(s.isEmpty());
    }

    @Test
    void eachEventIsStoredOnceHoweverManyPartialMatchesHoldIt() {
        NfaMatcher<TestEvent> m = NfaCompiler.compile(explosive()).newMatcher();
        NfaState s = m.newState("k");
        long ts = 1;
        for (TestEvent e : TestEvent.stream("a1 b1 b2 b3")) {
            m.process(s, e, ts++, MatchSink.discarding());
        }
        assertTrue(s.partialMatchCount() > 4, "several partial matches share the events");
        assertEquals(4, m.bufferedEvents());
    }

    @Test
    void expiryTimeSaysWhenAdvancingTimeHasAnEffect() {
        NfaMatcher<TestEvent> m = NfaCompiler.compile(AB).newMatcher();
        NfaState s = m.newState("k");
        assertEquals(Long.MAX_VALUE, s.expiryTime());
        m.process(s, new TestEvent("a1", 10), 10, MatchSink.discarding());
        m.process(s, new TestEvent("a2", 30), 30, MatchSink.discarding());
        assertEquals(110, s.expiryTime());
        Run run = new Run();
        m.advanceTime(s, 109, run);
        assertEquals(List.of(), run.timeouts);
        m.advanceTime(s, 110, run);
        assertEquals(List.of("a1 @110"), run.timeouts);
        assertEquals(130, s.expiryTime());
    }

    @Test
    void negativeEventTimesExpireAtTheEndOfInput() {
        NfaMatcher<TestEvent> m = NfaCompiler.compile(AB).newMatcher();
        NfaState s = m.newState("k");
        Run run = new Run();
        m.process(s, new TestEvent("a1", -500), -500, run);
        m.advanceTime(s, Long.MAX_VALUE, run);
        assertEquals(List.of("a1 @-400"), run.timeouts);
        assertTrue(s.isEmpty());
    }

    @Test
    void timedOutPartialMatchesAreReportedOnceWithStartPlusWindow() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a')).followedBy("b").where(kind('b'))
                .times(1, 2).followedBy("c").where(kind('c')).within(Duration.ofMillis(10));
        Run run = Run.of(p, "a1 b1");
        assertEquals(List.of("a1 b1 @11"), run.timeouts);
    }

    @Test
    void diagramsShowEveryStateAndEdge() {
        CompiledPattern<TestEvent> cp = NfaCompiler.compile(Pattern.<TestEvent>begin("a").where(kind('a'))
                .notNext("n").where(kind('x')).followedBy("b").where(kind('b')).oneOrMore());
        String dot = cp.toDot();
        String mermaid = cp.toMermaid();
        assertTrue(dot.startsWith("digraph nfa {") && dot.trim().endsWith("}"), dot);
        assertTrue(mermaid.startsWith("flowchart LR"), mermaid);
        for (int s = 0; s < cp.stateCount(); s++) {
            assertTrue(dot.contains("s" + s + " [label="), dot);
            assertTrue(mermaid.contains("  s" + s + "(") || mermaid.contains("  s" + s + "{{"), mermaid);
        }
        for (String text : List.of(dot, mermaid)) {
            assertTrue(text.contains("TAKE") && text.contains("IGNORE") && text.contains("PROCEED")
                    && text.contains("STOP"), text);
        }
    }
}
