package io.cepheus.nfa.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class LineDiffTest {

    private static String diff(List<String> a, List<String> b) {
        return LineDiff.unified("exp", "act", a, b, String::equals);
    }

    @Test
    void equalListsGiveNoDiff() {
        assertEquals("", diff(List.of("x", "y"), List.of("x", "y")));
        assertEquals("", diff(List.of(), List.of()));
    }

    @Test
    void changeInTheMiddleWithContext() {
        assertEquals("""
                --- exp
                +++ act
                @@ -1,3 +1,3 @@
                 == c
                -MATCH {a=[A1@1]}
                +MATCH {a=[A2@2]}
                 LATE B3@3
                """, diff(List.of("== c", "MATCH {a=[A1@1]}", "LATE B3@3"),
                List.of("== c", "MATCH {a=[A2@2]}", "LATE B3@3")));
    }

    @Test
    void insertionAndDeletionRanges() {
        assertEquals("""
                --- exp
                +++ act
                @@ -1 +1,2 @@
                 == c
                +MATCH m
                """, diff(List.of("== c"), List.of("== c", "MATCH m")));
        assertEquals("""
                --- exp
                +++ act
                @@ -1,2 +1 @@
                 == c
                -MATCH m
                """, diff(List.of("== c", "MATCH m"), List.of("== c")));
        assertEquals("""
                --- exp
                +++ act
                @@ -0,0 +1 @@
                +x
                """, diff(List.of(), List.of("x")));
    }

    @Test
    void distantChangesMakeSeparateHunks() {
        List<String> a = List.of("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11");
        List<String> b = List.of("0x", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11x");
        assertEquals("""
                --- exp
                +++ act
                @@ -1,4 +1,4 @@
                -0
                +0x
                 1
                 2
                 3
                @@ -9,4 +9,4 @@
                 8
                 9
                 10
                -11
                +11x
                """, diff(a, b));
    }

    @Test
    void equivalenceDecidesWhatCountsAsEqual() {
        assertEquals("", LineDiff.unified("e", "a", List.of("ERROR X: one"), List.of("ERROR Y: two"),
                ConformanceComparator::equivalent));
    }
}
