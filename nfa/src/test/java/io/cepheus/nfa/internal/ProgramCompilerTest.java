package io.cepheus.nfa.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.SimpleCondition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shape of the state graphs the compiler builds, pass by pass. */
class ProgramCompilerTest {

    private static final SimpleCondition<String> A = "a"::equals;
    private static final SimpleCondition<String> B = "b"::equals;

    /** One line per edge: "stage -ACTION-> stage [condition]". */
    private static List<String> edges(Program<?> p) {
        List<String> out = new ArrayList<>();
        for (int s = 0; s < p.stateCount(); s++) {
            for (int e = p.edgeStart[s]; e < p.edgeStart[s + 1]; e++) {
                String action = switch (p.edgeAction[e]) {
                    case Program.TAKE -> "TAKE";
                    case Program.IGNORE -> "IGNORE";
                    default -> "PROCEED";
                };
                out.add(p.stateLabel[s] + " -" + action + "-> " + p.stateLabel[p.edgeTarget[e]] + " ["
                        + p.edgeCondition[e].describe(p.atomLabels) + "]");
            }
        }
        return out;
    }

    @Test
    void strictContiguityHasNoIgnoreEdge() {
        Program<String> p = ProgramCompiler.compile(Pattern.<String>begin("a").where(A).next("b").where(B));
        assertEquals(List.of("a -TAKE-> b [a.cond0]", "a -IGNORE-> a [!a.cond0]", "b -TAKE-> end [b.cond1]"),
                edges(p));
    }

    @Test
    void relaxedContiguityIgnoresWhatDoesNotMatch() {
        Program<String> p = ProgramCompiler.compile(Pattern.<String>begin("a").where(A).followedBy("b").where(B));
        assertTrue(edges(p).contains("b -IGNORE-> b [!b.cond1]"), edges(p).toString());
    }

    @Test
    void nonDeterministicRelaxedContiguityIgnoresEverything() {
        Program<String> p = ProgramCompiler.compile(Pattern.<String>begin("a").where(A).followedByAny("b").where(B));
        assertTrue(edges(p).contains("b -IGNORE-> b [true]"), edges(p).toString());
    }

    @Test
    void timesBecomesAChainOfStates() {
        Program<String> p = ProgramCompiler.compile(Pattern.<String>begin("a").where(A).times(3).consecutive());
        // the first state ignores (it waits for the first a); consecutive() gives the others no IGNORE
        assertEquals(List.of("a -TAKE-> a [a.cond0]", "a -IGNORE-> a [!a.cond0]", "a -TAKE-> a [a.cond0]",
                "a -TAKE-> end [a.cond0]"), edges(p));
        assertEquals(4, p.stateCount());
    }

    @Test
    void aLoopTakesIntoItselfAndProceedsOnce() {
        Program<String> p = ProgramCompiler.compile(Pattern.<String>begin("s").followedBy("a").where(A).oneOrMore()
                .followedBy("b").where(B));
        List<String> e = edges(p);
        assertTrue(e.contains("a -PROCEED-> b [true]"), e.toString());
        assertTrue(e.contains("a -TAKE-> a [a.cond0]"), e.toString());
        // the twin state reached by IGNORE has no PROCEED edge, so a branch proceeds once
        long proceeds = e.stream().filter(x -> x.startsWith("a -PROCEED->")).count();
        assertEquals(1, proceeds, e.toString());
    }

    @Test
    void greedyLoopsGuardTheNextStageWithTheLoopCondition() {
        Program<String> p = ProgramCompiler.compile(Pattern.<String>begin("a").where(A).oneOrMore().greedy()
                .next("b").where(B));
        assertTrue(edges(p).contains("b -TAKE-> end [(b.cond1 & !a.cond0)]"), edges(p).toString());
    }

    @Test
    void notStagesBecomeStopStates() {
        Program<String> p = ProgramCompiler.compile(Pattern.<String>begin("a").where(A).notNext("n").where(B)
                .followedBy("c"));
        assertTrue(edges(p).contains("n -PROCEED-> n STOP [b.cond1]")
                || edges(p).stream().anyMatch(x -> x.contains("-PROCEED-> n STOP")), edges(p).toString());
    }

    @Test
    void aTrailingNotFollowedByWithAWindowIsPending() {
        Program<String> p = ProgramCompiler.compile(Pattern.<String>begin("a").where(A).notFollowedBy("n").where(B)
                .within(Duration.ofMillis(10)));
        assertTrue(edges(p).contains("a -TAKE-> n PENDING [a.cond0]"), edges(p).toString());
        assertTrue(edges(p).contains("n PENDING -IGNORE-> n PENDING [!n.cond1]"), edges(p).toString());
        assertEquals(10, p.window());
    }

    @Test
    void simpleConditionsAreNotIterativeAndAreInternedOnce() {
        Program<String> p = ProgramCompiler.compile(Pattern.<String>begin("a").where(A).followedBy("b").where(A)
                .followedBy("c").where((e, ctx) -> true));
        assertEquals(2, p.atoms.length);
        assertEquals(false, p.atomIterative[0]);
        assertEquals(true, p.atomIterative[1]);
    }
}
