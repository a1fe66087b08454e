package io.cepheus.nfa;

import static io.cepheus.nfa.TestEvent.kind;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.pattern.Pattern;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code greedy().allowCombinations()}, which Flink 2.3 accepts (only the other order is refused): the
 * matches expected here are those of Flink's CepOperator for the same patterns and events.
 */
class GreedyCombinationsTest {

    @Test
    void aGreedyLoopWithCombinationsEndsOnlyAfterTheLastEventItAccepts() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a')).oneOrMore().greedy()
                .allowCombinations().followedBy("b").where(kind('b'));
        assertEquals(List.of("a1 a2 a3 b1", "a1 a3 b1", "a2 a3 b1", "a3 b1"), Run.of(p, "a1 a2 c1 a3 b1").matches);
        assertEquals(List.of("a1 b1", "a1 a2 b2", "a2 b2"), Run.of(p, "c1 a1 b1 a2 b2 b3").matches);
    }

    @Test
    void boundedGreedyTimesWithCombinations() {
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("s").where(kind('c'))
                .followedBy("a").where(kind('a')).times(2, 3).greedy().allowCombinations()
                .followedBy("b").where(e -> e.kind() == 'a' || e.kind() == 'b');
        assertEquals(List.of("c1 a1 a2 a3 b1", "c1 a1 a3 b1", "c2 a2 a3 b1"),
                Run.of(p, "c1 a1 c2 a2 a3 b1").matches);
        assertEquals(List.of("c1 a1 a2 b2"), Run.of(p, "c1 a1 b1 a2 b2 b3").matches);
    }
}
