package io.cepheus.nfa.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConformanceComparatorTest {

    @Test
    void runsOfMatchesAndOfTimeoutsAreUnordered() {
        List<String> expected = List.of("== c", "MATCH {a=[A1@1]}", "MATCH {a=[A2@2]}", "TIMEOUT@5 {a=[A3@3]}",
                "TIMEOUT@6 {a=[A4@4]}", "LATE B1@1", "MATCH {a=[A5@5]}");
        List<String> actual = List.of("== c", "MATCH {a=[A2@2]}", "MATCH {a=[A1@1]}", "TIMEOUT@6 {a=[A4@4]}",
                "TIMEOUT@5 {a=[A3@3]}", "LATE B1@1", "MATCH {a=[A5@5]}");
        assertTrue(ConformanceComparator.matches(expected, actual));
    }

    @Test
    void orderAcrossRunsAndOtherLinesMatters() {
        List<String> expected = List.of("MATCH {a=[A1@1]}", "LATE B1@1", "MATCH {a=[A2@2]}");
        assertFalse(ConformanceComparator.matches(expected,
                List.of("MATCH {a=[A1@1]}", "MATCH {a=[A2@2]}", "LATE B1@1")));
        assertFalse(ConformanceComparator.matches(List.of("MATCH {a=[A1@1]}", "TIMEOUT@5 {a=[A3@3]}"),
                List.of("TIMEOUT@5 {a=[A3@3]}", "MATCH {a=[A1@1]}")));
        assertFalse(ConformanceComparator.matches(List.of("LATE A1@1", "LATE B2@2"),
                List.of("LATE B2@2", "LATE A1@1")));
    }

    @Test
    void runsCompareAsMultisets() {
        assertFalse(ConformanceComparator.matches(List.of("MATCH {a=[A1@1]}", "MATCH {a=[A1@1]}"),
                List.of("MATCH {a=[A1@1]}")));
        assertFalse(ConformanceComparator.matches(List.of("MATCH {a=[A1@1]}", "MATCH {a=[A1@1]}"),
                List.of("MATCH {a=[A1@1]}", "MATCH {a=[A2@2]}")));
        assertFalse(ConformanceComparator.matches(List.of("TIMEOUT@5 {a=[A1@1]}"), List.of("TIMEOUT@6 {a=[A1@1]}")));
    }

    @Test
    void errorLinesAgreeWhateverTheirMessage() {
        assertTrue(ConformanceComparator.matches(List.of("== e", "ERROR UnsupportedOperationException: Flink says"),
                List.of("== e", "ERROR MalformedPatternException: stage 'n': we say")));
        assertFalse(ConformanceComparator.matches(List.of("== e", "ERROR MalformedPatternException: x"),
                List.of("== e")));
        assertFalse(ConformanceComparator.matches(List.of("== e", "ERROR MalformedPatternException: x"),
                List.of("== e", "MATCH {a=[A1@1]}")));
    }

    @Test
    void canonicalFormSortsEachRun() {
        assertEquals(List.of("== c", "MATCH 1", "MATCH 2", "LATE x", "TIMEOUT@1 a", "TIMEOUT@2 b", "MATCH 0"),
                ConformanceComparator.canonical(List.of("== c", "MATCH 2", "MATCH 1", "LATE x", "TIMEOUT@2 b",
                        "TIMEOUT@1 a", "MATCH 0")));
    }
}
