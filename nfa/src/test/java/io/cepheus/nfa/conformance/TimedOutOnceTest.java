package io.cepheus.nfa.conformance;

import static io.cepheus.nfa.conformance.InlineCases.assertOutput;

import org.junit.jupiter.api.Test;

/**
 * A partial match held by several internal states that time out in the same advance: Flink CEP 2.3 reports
 * it once per state, each with that state's time; Cepheus reports it once (README, "Where Cepheus
 * deliberately differs"), with the earliest of those times, whatever the order of the states.
 */
class TimedOutOnceTest {

    /**
     * {@code a=[B0@3]} waits in c's state (gap 1: out at 4) and in a's second state (window 2: out at 5); both
     * are seen when time jumps to the end. Flink prints {@code TIMEOUT@4} and {@code TIMEOUT@5} for it; the
     * one report carries 4, although the state that times out at 5 comes first.
     */
    @Test
    void reportedOnceAtTheEarliestTime() {
        assertOutput("""
                case: timeout-once-earliest
                pattern: begin a where type in B times 1..2 ; next b where type in C & gt-last(b) times 1 optional
                    ; followedByAny c where type in A & value>0 withinPrev 1
                within: 2
                events: C1@1 B1@2 A2@3 B0@3 C1@4
                """, """
                == timeout-once-earliest
                MATCH {a=[B1@2], c=[A2@3]}
                TIMEOUT@3 {a=[B1@2]}
                TIMEOUT@4 {a=[B1@2,B0@3]}
                TIMEOUT@4 {a=[B0@3]}
                TIMEOUT@5 {a=[B0@3], b=[C1@4]}
                """);
    }
}
