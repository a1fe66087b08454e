package io.cepheus.nfa;

import static io.cepheus.nfa.TestEvent.kind;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.SimpleCondition;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link NfaMatcher#ignoredByNewState}: which events a key without state may skip, and that asking does not make
 * a condition run twice. The property that skipping them changes no output is
 * {@code reference.SkippingIdleKeysTest}.
 */
class IgnoredByNewStateTest {

    private static final Pattern<TestEvent> AB = Pattern.<TestEvent>begin("a").where(kind('a'))
            .followedBy("b").where(kind('b')).within(Duration.ofMillis(100));

    @Test
    void anEventTheFirstStageDoesNotTakeIsIgnoredAndOneItTakesIsNot() {
        NfaMatcher<TestEvent> m = NfaCompiler.compile(AB).newMatcher();
        assertTrue(m.ignoredByNewState(new TestEvent("b1", 1)), "b cannot start a partial match");
        assertTrue(m.ignoredByNewState(new TestEvent("x1", 1)));
        assertFalse(m.ignoredByNewState(new TestEvent("a1", 1)));
    }

    @Test
    void pastAnOptionalFirstStageTheNextStageCanStartAMatchToo() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a')).optional()
                .followedBy("b").where(kind('b'));
        NfaMatcher<TestEvent> m = NfaCompiler.compile(p).newMatcher();
        assertFalse(m.ignoredByNewState(new TestEvent("a1", 1)));
        assertFalse(m.ignoredByNewState(new TestEvent("b1", 1)), "b alone is a match");
        assertTrue(m.ignoredByNewState(new TestEvent("c1", 1)));
        assertEquals(List.of("b1"), Run.of(p, "c1 b1").matches);
    }

    @Test
    void anIterativeConditionAtTheStartIsNeverAnsweredTrue() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where((e, ctx) -> e.kind() == 'a')
                .followedBy("b").where(kind('b'));
        NfaMatcher<TestEvent> m = NfaCompiler.compile(p).newMatcher();
        assertFalse(m.ignoredByNewState(new TestEvent("x1", 1)), "it needs a context: left to the step");
    }

    @Test
    void aThrowingConditionAnswersFalseAndTheStepReportsIt() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(e -> {
            if (e.name().equals("bad")) {
                throw new IllegalStateException("boom");
            }
            return e.kind() == 'a';
        }).followedBy("b").where(kind('b'));
        NfaMatcher<TestEvent> m = NfaCompiler.compile(p).newMatcher();
        TestEvent bad = new TestEvent("bad", 1);
        assertFalse(m.ignoredByNewState(bad));
        NfaState s = m.newState("k");
        ConditionException e = assertThrows(ConditionException.class, () -> m.process(s, bad, 1, new Run()));
        assertEquals("a", e.stage());
        assertTrue(s.isEmpty());
    }

    @Test
    void eachSimpleConditionStillRunsOncePerEvent() {
        AtomicInteger calls = new AtomicInteger();
        SimpleCondition<TestEvent> countedA = e -> {
            calls.incrementAndGet();
            return e.kind() == 'a';
        };
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(countedA).followedBy("b").where(kind('b'));
        NfaMatcher<TestEvent> m = NfaCompiler.compile(p).newMatcher();
        NfaState s = m.newState("k");
        Run run = new Run();

        TestEvent a1 = new TestEvent("a1", 1);
        assertFalse(m.ignoredByNewState(a1));
        m.process(s, a1, 1, run);
        assertEquals(1, calls.get(), "the step reuses what the question evaluated");

        TestEvent x1 = new TestEvent("x1", 2);
        assertTrue(m.ignoredByNewState(x1));
        assertEquals(2, calls.get());

        TestEvent a2 = new TestEvent("a2", 3);
        assertFalse(m.ignoredByNewState(a2));
        m.process(s, new TestEvent("a3", 3), 3, run); // another instance: its own evaluation
        assertEquals(4, calls.get());
        m.process(s, a2, 3, run); // the answer was consumed by the step between: evaluated again
        assertEquals(5, calls.get());

        m.process(s, new TestEvent("b1", 4), 4, run);
        assertEquals(List.of("a1 b1", "a3 b1", "a2 b1"), run.matches);
    }
}
