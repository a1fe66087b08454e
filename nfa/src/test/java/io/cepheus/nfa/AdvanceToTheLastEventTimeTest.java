package io.cepheus.nfa;

import static io.cepheus.nfa.TestEvent.kind;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.WithinType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Advancing a key to the time of its last event still expires what that event left behind: an event at {@code t}
 * can leave a partial match in a gap ({@code PREVIOUS_AND_CURRENT}) that closed at or before {@code t}, and
 * Flink's operator, which advances every key to the watermark after the events up to it, releases or times it out
 * then, not at the key's next advance. Found by a randomized comparison of the engine with Flink 2.3's CepOperator.
 */
class AdvanceToTheLastEventTimeTest {

    @Test
    void aMatchWhoseGapClosedAtTheLastEventIsReleasedByAnAdvanceToThatTime() {
        // a, then no c right after, then no b: released once 1 ms passes after a; a2 at 7 ends a1's gap (5 + 1 <= 7)
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a'))
                .notNext("b").where(kind('c'))
                .notFollowedBy("d").where(kind('b'))
                .within(Duration.ofMillis(1), WithinType.PREVIOUS_AND_CURRENT);
        NfaMatcher<TestEvent> matcher = NfaCompiler.compile(p).newMatcher();
        NfaState state = matcher.newState("k");
        List<String> out = new ArrayList<>();
        MatchSink<TestEvent> sink = new MatchSink<>() {
            @Override
            public void onMatch(Match<TestEvent> match) {
                out.add(match.allEvents().toString());
            }

            @Override
            public void onTimeout(Match<TestEvent> partialMatch, long timeoutTimestamp) {
                out.add("timeout " + partialMatch.allEvents() + " @" + timeoutTimestamp);
            }
        };
        matcher.process(state, new TestEvent("a1", 5), 5, sink);
        matcher.process(state, new TestEvent("a2", 7), 7, sink);
        List<String> afterEvents = new ArrayList<>(out);
        matcher.advanceTime(state, 7, sink);
        List<String> released = new ArrayList<>(out);
        released.removeAll(afterEvents);
        assertEquals(List.of("[a1]"), released, "released by the advance to 7 (after the events: " + afterEvents + ")");
        matcher.advanceTime(state, Long.MAX_VALUE, sink);
        assertEquals(List.of("[a1]"), out, "a2 still waits for the event that notNext needs (as in Flink)");
    }
}
