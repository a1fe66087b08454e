package io.cepheus.nfa;

import static io.cepheus.nfa.TestEvent.kind;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.pattern.Pattern;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Looping groups with optional stages: the builder rejects a loop whose group can take no event (it would
 * never end), and this checks that the legitimate neighbours, groups with at least one mandatory stage,
 * still compile and match as Flink 2.3's CepOperator does (expected matches taken from it).
 */
class GroupLoopTest {

    private static List<String> sorted(List<String> matches) {
        List<String> copy = new ArrayList<>(matches);
        Collections.sort(copy);
        return copy;
    }

    @Test
    void aLoopOverAGroupWithAnOptionalHeadMatches() {
        // a, then one or more rounds of (b? c), then a
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a'))
                .followedBy(Pattern.<TestEvent>begin("g1").where(kind('b')).optional()
                        .followedBy("g2").where(kind('c')))
                .oneOrMore().followedBy("z").where(kind('a'));
        assertEquals(sorted(List.of("a1 b1 c1 b2 c2 a2", "a1 c1 c2 a2", "a1 c1 a2", "a1 c1 b2 c2 a2",
                "a1 b1 c1 c2 a2", "a1 b1 c1 a2")), sorted(Run.of(p, "a1 b1 c1 b2 c2 a2").matches));
        assertEquals(sorted(List.of("a1 c1 a2", "a1 c1 c2 a2")), sorted(Run.of(p, "a1 c1 c2 b1 a2").matches));
    }

    @Test
    void aLoopOverAGroupWithAnOptionalTailMatches() {
        // a, then one or more rounds of (b c?), then a
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a").where(kind('a'))
                .followedBy(Pattern.<TestEvent>begin("g1").where(kind('b'))
                        .followedBy("g2").where(kind('c')).optional())
                .oneOrMore().followedBy("z").where(kind('a'));
        assertEquals(sorted(List.of("a1 b1 c1 a2", "a1 b1 a2", "a1 b1 b2 a2", "a1 b1 b2 a2", "a1 b1 b2 c1 a2")),
                sorted(Run.of(p, "a1 b1 b2 c1 a2").matches));
    }
}
