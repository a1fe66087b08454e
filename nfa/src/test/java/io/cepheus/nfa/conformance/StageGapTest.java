package io.cepheus.nfa.conformance;

import static io.cepheus.nfa.conformance.InlineCases.assertOutput;

import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.WithinType;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code within(gap, PREVIOUS_AND_CURRENT)} on a stage: Flink CEP 2.3 applies it to the states of a stage
 * without a quantifier (single or optional) and ignores it on a {@code times} / {@code oneOrMore} /
 * {@code timesOrMore} stage and on a looping group; a state Flink copies while compiling (after an optional
 * stage that NOT stages reach through) has no gap either. Expected outputs are Flink's.
 */
class StageGapTest {

    /** The auditor's example: the 8 ms pause inside the loop neither times out nor stops the loop. */
    @Test
    void aLoopIgnoresTheGap() {
        assertOutput("""
                case: gap-on-oneOrMore
                pattern: begin a where type=C ; followedBy b where type=B oneOrMore withinPrev 3
                    ; followedBy c where type=A
                events: C1@1 B1@2 B2@10 A1@11
                """, """
                == gap-on-oneOrMore
                MATCH {a=[C1@1], b=[B1@2,B2@10], c=[A1@11]}
                MATCH {a=[C1@1], b=[B1@2], c=[A1@11]}
                """);
    }

    @Test
    void timesIgnoresTheGapEvenBeforeItsFirstEvent() {
        assertOutput("""
                case: gap-on-times
                pattern: begin a where type=C ; followedBy b where type=B times 2 withinPrev 3 ; followedBy c where type=A
                events: C1@1 B1@10 B2@11 A1@12
                """, """
                == gap-on-times
                MATCH {a=[C1@1], b=[B1@10,B2@11], c=[A1@12]}
                """);
    }

    @Test
    void anOptionalLoopIgnoresTheGap() {
        assertOutput("""
                case: gap-on-optional-oneOrMore
                pattern: begin a where type=C ; followedBy b where type=B oneOrMore optional withinPrev 3
                    ; followedBy c where type=A
                events: C1@1 B1@10 A1@20
                """, """
                == gap-on-optional-oneOrMore
                MATCH {a=[C1@1], b=[B1@10], c=[A1@20]}
                MATCH {a=[C1@1], c=[A1@20]}
                """);
    }

    /** An optional stage without a quantifier keeps its gap: waiting in it longer ends the run, skipping too. */
    @Test
    void anOptionalSingleStageKeepsTheGap() {
        assertOutput("""
                case: gap-on-optional-late
                pattern: begin a where type=C ; followedBy b where type=B optional withinPrev 3 ; followedBy c where type=A
                events: C1@1 B1@10 A1@20
                """, """
                == gap-on-optional-late
                TIMEOUT@4 {a=[C1@1]}
                """);
        assertOutput("""
                case: gap-on-optional-in-time
                pattern: begin a where type=C ; followedBy b where type=B optional withinPrev 3 ; followedBy c where type=A
                events: C1@1 B1@3 A1@20
                """, """
                == gap-on-optional-in-time
                MATCH {a=[C1@1], b=[B1@3], c=[A1@20]}
                MATCH {a=[C1@1], c=[A1@20]}
                """);
    }

    @Test
    void aLoopingGroupIgnoresTheGap() {
        Pattern<Ev> group = Pattern.<Ev>begin("b").where(ConditionParser.parse("type=B"))
                .followedBy("d").where(ConditionParser.parse("type=A"));
        Pattern<Ev> p = Pattern.<Ev>begin("a").where(ConditionParser.parse("type=C"))
                .followedBy(group).oneOrMore().within(Duration.ofMillis(3), WithinType.PREVIOUS_AND_CURRENT);
        assertOutput("gap-on-looping-group", p, "C1@1 B1@10 A1@20 B2@30 A2@40", """
                == gap-on-looping-group
                MATCH {a=[C1@1], b=[B1@10], d=[A1@20]}
                MATCH {a=[C1@1], b=[B1@10,B2@30], d=[A1@20,A2@40]}
                """);
    }

    /**
     * After taking c (optional, reached by the NOT stage n), the run waits in Flink's copy of d's state, which
     * has no gap: it matches d ten ms later. The run that skipped c waits in d's own state and times out.
     */
    @Test
    void aCopiedStateHasNoGap() {
        assertOutput("""
                case: gap-on-copied-state
                pattern: begin a where type=A ; notFollowedBy n where type=N ; followedBy c where type=C optional
                    ; followedBy d where type=D withinPrev 2
                events: A1@1 C1@2 D1@10
                """, """
                == gap-on-copied-state
                TIMEOUT@3 {a=[A1@1]}
                MATCH {a=[A1@1], c=[C1@2], d=[D1@10]}
                """);
    }

    /**
     * A greedy loop reaches the next stage through Flink's copy of its state when the until condition holds;
     * the copy has no gap, the original keeps it.
     */
    @Test
    void theStateAGreedyUntilCopiesHasNoGap() {
        assertOutput("""
                case: gap-after-greedy-until
                pattern: begin a where type=A oneOrMore greedy until type=U ; followedBy b where type=B withinPrev 2
                events: A1@1 A2@2 U1@3 B1@10
                """, """
                == gap-after-greedy-until
                MATCH {a=[A1@1,A2@2], b=[B1@10]}
                MATCH {a=[A2@2], b=[B1@10]}
                """);
        assertOutput("""
                case: gap-after-greedy
                pattern: begin a where type=A oneOrMore greedy until type=U ; followedBy b where type=B withinPrev 2
                events: A1@1 A2@2 C1@3 B1@10
                """, """
                == gap-after-greedy
                TIMEOUT@4 {a=[A1@1,A2@2]}
                TIMEOUT@4 {a=[A2@2]}
                """);
    }
}
