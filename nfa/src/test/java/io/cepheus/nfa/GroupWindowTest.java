package io.cepheus.nfa;

import static io.cepheus.nfa.TestEvent.kind;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.pattern.Pattern;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A {@code within} inside a group pattern counts like one on any other stage: the pattern's window is the smallest
 * of them. Flink 2.3 ignores a window set on a group's stage other than its first; the README lists this among the
 * deliberate differences.
 */
class GroupWindowTest {

    /** Events a, b, c at times 1, 2, 3: a match spans 2 ms, so a 2 ms window ({@code time - first >= 2}) ends it. */
    private static final String EVENTS = "a b c";

    @Test
    void aWindowOnAGroupsLaterStageBoundsTheWholeMatch() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a'))
                .followedBy(Pattern.<TestEvent>begin("g1").where(kind('b'))
                        .followedBy("g2").where(kind('c')).within(Duration.ofMillis(2)));
        Run run = Run.of(p, EVENTS);
        assertEquals(List.of(), run.matches);
        assertEquals(List.of("a b @3"), run.timeouts);
    }

    @Test
    void theSameGroupWithAWideEnoughWindowMatches() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a'))
                .followedBy(Pattern.<TestEvent>begin("g1").where(kind('b'))
                        .followedBy("g2").where(kind('c')).within(Duration.ofMillis(3)));
        assertEquals(List.of("a b c"), Run.of(p, EVENTS).matches);
    }
}
