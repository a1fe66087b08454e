package io.cepheus.nfa;

import static io.cepheus.nfa.TestEvent.kind;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.AfterMatchSkipStrategy;
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
        assertThrowingForA2sRunRollsBack(new IllegalStateException("boom"), ConditionException.class);
    }

    /** An Error (not an exception) from a condition passes through unwrapped, and still rolls the step back. */
    @Test
    void aConditionThrowingAnErrorLeavesTheStateAsItWas() {
        AssertionError e = assertThrowingForA2sRunRollsBack(new AssertionError("broken invariant"),
                AssertionError.class);
        assertEquals("broken invariant", e.getMessage());
    }

    /**
     * a1 and a2 both wait for b; on bx the b condition succeeds for a1's run (which moves on, creating an entry),
     * then throws {@code failure} for a2's run. The step must be rolled back whole: buffer and partial matches as
     * before bx, and the next events matched as if bx had not come.
     *
     * @return what {@code process} threw
     */
    private static <X extends Throwable> X assertThrowingForA2sRunRollsBack(Throwable failure, Class<X> thrown) {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a'))
                .followedBy("b").where((e, ctx) -> {
                    if (e.name().equals("bx") && ctx.eventsForPattern("a").get(0).name().equals("a2")) {
                        if (failure instanceof Error error) {
                            throw error;
                        }
                        throw (RuntimeException) failure;
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
        X e = assertThrows(thrown, () -> m.process(s, new TestEvent("bx", 3), 3, run));
        assertEquals(entries, m.bufferedEntries(), "a1's run had moved on to bx: that entry is rolled back");
        assertEquals(events, m.bufferedEvents());
        assertEquals(2, s.partialMatchCount());
        m.process(s, new TestEvent("b1", 4), 4, run);
        assertEquals(List.of("a1 b1", "a2 b1"), run.matches);
        m.advanceTime(s, Long.MAX_VALUE, run);
        assertEquals(0, m.bufferedEntries());
        assertEquals(0, m.bufferedEvents());
        return e;
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
        Run run = new Run();
        long ts = 1;
        for (TestEvent e : TestEvent.stream("a1 b1 b2 b3 b4 b5 b6 c1")) {
            m.process(s, e, ts++, run);
            assertTrue(s.partialMatchCount() <= 5);
        }
        // From b3 on the five partial matches of a1 branch into eleven: each keeps its continuation (its first
        // successor: the loop taking the b, or the run waiting for c) and every branch is dropped. So the runs
        // a1 b1 b2.., a1 b1 b3.., a1 b1 (waiting for c), a1 b2 b3.. and a1 b3.. survive to c1.
        // (c1 completes all five at once: they start at a1 alike, so they come out in the order of Flink's queue
        // of completed matches, which is not what this test is about)
        assertEquals(List.of("a1 b1 b2 b3 b4 b5 b6 c1", "a1 b1 b3 b4 b5 b6 c1", "a1 b1 c1",
                "a1 b2 b3 b4 b5 b6 c1", "a1 b3 b4 b5 b6 c1"), run.matches.stream().sorted().toList());
        // b3: 11 successors, 6 dropped; b4 .. b6: the four loop runs branch in three each (13), 8 dropped
        assertEquals(6 + 3 * 8, m.rejectedPartialMatches());
    }

    @Test
    void theEntryBoundKeepsAHotKeysBufferSmallUnderRejectNew() {
        // every b extends each of the key's partial matches and forks each again: without the entry bound the
        // thousand runs the partial-match bound leaves grow by a thousand entries per event, without end
        NfaMatcher<TestEvent> m = NfaCompiler.compile(explosive())
                .newMatcher(NfaOptions.defaults().withMaxPartialMatchesPerKey(1000));
        NfaState s = m.newState("hot");
        Run run = new Run();
        m.process(s, new TestEvent("a1", 1), 1, run);
        int bound = 10 * 1000;
        for (int i = 1; i <= 5000; i++) {
            m.process(s, new TestEvent("b" + i, 1 + i), 1 + i, run);
            assertTrue(s.bufferEntryCount() <= bound, "entries " + s.bufferEntryCount() + " after b" + i);
            assertTrue(s.partialMatchCount() <= 1000);
            assertEquals(m.bufferedEntries(), s.bufferEntryCount(), "the key's count is the matcher's");
        }
        assertTrue(m.bufferedEvents() <= bound);
        assertTrue(s.partialMatchCount() > 0, "the earliest runs are kept");
        m.process(s, new TestEvent("c1", 6000), 6000, run);
        assertEquals(s.partialMatchCount() == 0 ? 0 : s.bufferEntryCount(), m.bufferedEntries());
        assertTrue(run.matches.size() > 0 && run.matches.stream().allMatch(x -> x.startsWith("a1 b1 ")),
                "the kept runs are the earliest ones and complete");
    }

    @Test
    void theEntryBoundDropsTheLatestStartingRunsFirst() {
        // each a starts a run that takes every later x; both runs hold 4 entries at x2 (a, x1, x2 each), 8 at x3:
        // the bound of 6 drops the runs of a2, the later start, and keeps a1's whole
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a')).followedBy("x").where(kind('x'))
                .oneOrMore().followedBy("c").where(kind('c'));
        NfaMatcher<TestEvent> m = NfaCompiler.compile(p).newMatcher(NfaOptions.defaults()
                .withMaxBufferEntriesPerKey(6));
        NfaState s = m.newState("k");
        Run run = new Run();
        long ts = 1;
        for (TestEvent e : TestEvent.stream("a1 a2 x1 x2 x3 c1")) {
            m.process(s, e, ts++, run);
            assertTrue(s.bufferEntryCount() <= 6, "entries " + s.bufferEntryCount() + " after " + e);
        }
        assertEquals(List.of("a1 x1 c1", "a1 x1 x2 c1", "a1 x1 x2 x3 c1"), run.matches.stream().sorted().toList());
        assertEquals(3, m.rejectedPartialMatches(), "runs of a2 dropped at x3 until the key was within 6 entries");
        assertEquals(4, s.bufferEntryCount(), "a1 x1 x2 x3 still loops, waiting for more x (no window)");
        assertEquals(4, m.bufferedEntries());
    }

    @Test
    void theEntryBoundFailsTheEventUnderFailAndLeavesTheStateAsItWas() {
        NfaMatcher<TestEvent> m = NfaCompiler.compile(explosive()).newMatcher(NfaOptions.defaults()
                .withMaxBufferEntriesPerKey(5).withOverflowPolicy(OverflowPolicy.FAIL));
        NfaState s = m.newState("hot");
        Run run = new Run();
        long ts = 1;
        for (TestEvent e : TestEvent.stream("a1 b1 b2")) {
            m.process(s, e, ts++, run);
        }
        int entries = s.bufferEntryCount();
        int partials = s.partialMatchCount();
        PartialMatchLimitException e = assertThrows(PartialMatchLimitException.class,
                () -> m.process(s, new TestEvent("b3", 4), 4, run));
        assertTrue(e.getMessage().startsWith("key hot would keep ") && e.getMessage().contains(
                "shared-buffer entries at event time 4, more than the bound of 5 (NfaOptions.maxBufferEntriesPerKey)"),
                e.getMessage());
        assertEquals(entries, s.bufferEntryCount());
        assertEquals(entries, m.bufferedEntries());
        assertEquals(partials, s.partialMatchCount());
    }

    @Test
    void rejectNewKeepsOlderRunsOverBranchesOfTheEvent() {
        // the audit's example: at b2 the five successors exceed the bound of 3; the runs a1 b1, a1 and a2 each
        // keep their continuation (a1 b1, a1 b2, a2 b2: the first successor of each), the runs of a1 and a2 that
        // go on waiting for another b are the new branches and are dropped. Without a bound Flink emits the same.
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a')).followedByAny("b").where(kind('b'))
                .followedBy("c").where(kind('c'));
        NfaMatcher<TestEvent> m = NfaCompiler.compile(p).newMatcher(NfaOptions.defaults()
                .withMaxPartialMatchesPerKey(3));
        NfaState s = m.newState("k");
        Run run = new Run();
        long ts = 1;
        for (TestEvent e : TestEvent.stream("a1 b1 a2 b2 c1")) {
            m.process(s, e, ts++, run);
            assertTrue(s.partialMatchCount() <= 3);
        }
        assertEquals(List.of("a1 b1 c1", "a1 b2 c1", "a2 b2 c1"), run.matches);
        assertEquals(2, m.rejectedPartialMatches());
        assertEquals(0, s.partialMatchCount(), "every kept run completed");
        assertEquals(0, m.bufferedEntries(), "the dropped branches released their references");
        assertEquals(0, m.bufferedEvents());
    }

    @Test
    void rejectNewStartsNoRunWhenTheBoundIsFull() {
        NfaMatcher<TestEvent> m = NfaCompiler.compile(AB).newMatcher(NfaOptions.defaults()
                .withMaxPartialMatchesPerKey(2));
        NfaState s = m.newState("k");
        Run run = new Run();
        long ts = 1;
        for (TestEvent e : TestEvent.stream("a1 a2 a3 b1")) {
            m.process(s, e, ts++, run);
        }
        assertEquals(List.of("a1 b1", "a2 b1"), run.matches, "the run a3 would start is the new one");
        assertEquals(1, m.rejectedPartialMatches());
        m.advanceTime(s, Long.MAX_VALUE, run);
        assertEquals(0, m.bufferedEntries());
        assertEquals(0, m.bufferedEvents());
    }

    @Test
    void aStateRestoredUnderASmallerBoundKeepsItsEarliestRunsAndLeaksNothing() throws Exception {
        EventCodec<TestEvent> codec = new EventCodec<>() {
            @Override
            public void write(TestEvent e, java.io.DataOutput out) throws java.io.IOException {
                out.writeUTF(e.name());
                out.writeLong(e.ts());
            }

            @Override
            public TestEvent read(java.io.DataInput in) throws java.io.IOException {
                return new TestEvent(in.readUTF(), in.readLong());
            }
        };
        NfaMatcher<TestEvent> wide = NfaCompiler.compile(AB).newMatcher();
        NfaState before = wide.newState("k");
        for (TestEvent e : TestEvent.stream("a1 a2 a3")) {
            wide.process(before, e, e.ts(), MatchSink.discarding());
        }
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        wide.writeState(before, codec, new java.io.DataOutputStream(bytes));
        NfaMatcher<TestEvent> narrow = NfaCompiler.compile(AB).newMatcher(NfaOptions.defaults()
                .withMaxPartialMatchesPerKey(2));
        NfaState s = narrow.readState("k", codec, new java.io.DataInputStream(
                new java.io.ByteArrayInputStream(bytes.toByteArray())));
        assertEquals(3, s.partialMatchCount());
        Run run = new Run();
        // x1 is ignored by the three runs, which are all continuations: only two fit, the earliest are kept
        narrow.process(s, new TestEvent("x1", 4), 4, run);
        assertEquals(2, s.partialMatchCount());
        assertEquals(1, narrow.rejectedPartialMatches());
        narrow.process(s, new TestEvent("b1", 5), 5, run);
        assertEquals(List.of("a1 b1", "a2 b1"), run.matches);
        narrow.advanceTime(s, Long.MAX_VALUE, run);
        assertEquals(0, narrow.bufferedEntries(), "the dropped run a3 released its reference");
        assertEquals(0, narrow.bufferedEvents());
    }

    /**
     * Starts with {@code a} or {@code z}; {@code b} completes only runs that started with an {@code a}, so a
     * {@code z} run blocks the matches of every later run from being released by the skip strategy.
     */
    private static Pattern<TestEvent> blockedBy(boolean any) {
        Pattern<TestEvent> first = Pattern.<TestEvent>begin("a", AfterMatchSkipStrategy.skipToNext())
                .where(kind('a')).or(kind('z'));
        IterativeCondition<TestEvent> bAfterA = (e, ctx) -> e.kind() == 'b'
                && ctx.eventsForPattern("a").get(0).kind() == 'a';
        return (any ? first.followedByAny("b") : first.followedBy("b")).where(bAfterA)
                .within(Duration.ofMillis(100));
    }

    @Test
    void heldMatchesCountTowardTheBoundUnderFail() {
        NfaMatcher<TestEvent> m = NfaCompiler.compile(blockedBy(false)).newMatcher(NfaOptions.defaults()
                .withMaxPartialMatchesPerKey(3).withOverflowPolicy(OverflowPolicy.FAIL));
        NfaState s = m.newState("hot");
        Run run = new Run();
        long ts = 1;
        for (TestEvent e : TestEvent.stream("z0 a1 b1 a2 b2")) {
            m.process(s, e, ts++, run);
        }
        assertEquals(2, s.heldMatchCount(), "a1 b1 and a2 b2 wait for the run of z0");
        assertEquals(1, s.partialMatchCount());
        // a3 would make two partial matches beside the two held ones
        PartialMatchLimitException e = assertThrows(PartialMatchLimitException.class,
                () -> m.process(s, new TestEvent("a3", 6), 6, run));
        assertEquals("key hot would hold 2 partial matches and 2 held matches at event time 6, more than the bound of"
                + " 3 (NfaOptions.maxPartialMatchesPerKey); the event was not applied", e.getMessage(),
                "the counts of the step that broke the bound, read before the rollback");
        assertEquals(2, s.heldMatchCount());
        assertEquals(1, s.partialMatchCount());
        m.advanceTime(s, Long.MAX_VALUE, run);
        assertEquals(List.of("a1 b1", "a2 b2"), run.matches);
        assertEquals(0, m.bufferedEntries());
    }

    @Test
    void heldMatchesCountTowardTheBoundUnderRejectNew() {
        NfaMatcher<TestEvent> m = NfaCompiler.compile(blockedBy(false)).newMatcher(NfaOptions.defaults()
                .withMaxPartialMatchesPerKey(3));
        NfaState s = m.newState("hot");
        Run run = new Run();
        long ts = 1;
        for (TestEvent e : TestEvent.stream("z0 a1 b1 a2 b2 a3 b3 a4 b4")) {
            m.process(s, e, ts++, run);
            assertTrue(s.partialMatchCount() + s.heldMatchCount() <= 3, s.toString());
        }
        assertEquals(2, m.rejectedPartialMatches(), "the runs a3 and a4 would start");
        m.advanceTime(s, Long.MAX_VALUE, run);
        assertEquals(List.of("a1 b1", "a2 b2"), run.matches);
        assertEquals(0, m.bufferedEntries());
        assertEquals(0, m.bufferedEvents());
    }

    @Test
    void rejectNewDropsNewlyHeldMatchesBeyondTheBound() {
        // the run of a1 stays (followedByAny) and completes a match with every b, each held behind z0's run
        NfaMatcher<TestEvent> m = NfaCompiler.compile(blockedBy(true)).newMatcher(NfaOptions.defaults()
                .withMaxPartialMatchesPerKey(3));
        NfaState s = m.newState("hot");
        Run run = new Run();
        long ts = 1;
        for (TestEvent e : TestEvent.stream("z0 a1 b1 b2 b3")) {
            m.process(s, e, ts++, run);
            assertTrue(s.partialMatchCount() + s.heldMatchCount() <= 3, s.toString());
        }
        assertEquals(1, s.heldMatchCount());
        assertEquals(2, m.rejectedPartialMatches(), "a1 b2 and a1 b3 are new and would pass the bound");
        m.advanceTime(s, Long.MAX_VALUE, run);
        assertEquals(List.of("a1 b1"), run.matches);
        assertEquals(0, m.bufferedEntries());
        assertEquals(0, m.bufferedEvents());
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
