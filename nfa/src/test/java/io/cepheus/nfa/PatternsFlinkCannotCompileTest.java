package io.cepheus.nfa;

import static io.cepheus.nfa.TestEvent.kind;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.pattern.Pattern;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Patterns Apache Flink 2.3's compiler fails on with a {@code NullPointerException} (found by the randomized
 * agreement tests with Flink, which count such cases apart), while Cepheus compiles and runs them (README).
 */
class PatternsFlinkCannotCompileTest {

    /** A NOT stage, then an optional {@code allowCombinations} stage, then an optional greedy loop with until. */
    @Test
    void notFollowedByThenAnOptionalStageThenAnOptionalGreedyLoopWithUntil() {
        Pattern<TestEvent> pattern = Pattern.<TestEvent>begin("a").where(kind('a'))
                .notFollowedBy("b").where(kind('b'))
                .followedBy("c").where(kind('c')).times(1).optional().allowCombinations()
                .followedBy("d").where(kind('d')).oneOrMore().optional().greedy().consecutive().until(kind('x'));

        Run run = Run.of(pattern, "a c d1 d2 x");

        // no skip strategy: every match, each as soon as it is complete (c and d are optional); x ends the loop
        assertEquals(List.of("a", "a c", "a c d1", "a d1", "a c d1 d2", "a d1 d2"), run.matches);
    }
}
