package io.cepheus.nfa.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExpectedOutputTest {

    @Test
    void splitsByCaseHeaders() {
        Map<String, List<String>> m = ExpectedOutput.parse("== one\nMATCH {a=[A1@1]}  \n\n== two\n== three\n"
                + "LATE B2@2\n", "x.expected");
        assertEquals(List.of("one", "two", "three"), List.copyOf(m.keySet()));
        assertEquals(List.of("== one", "MATCH {a=[A1@1]}"), m.get("one"));
        assertEquals(List.of("== two"), m.get("two"));
        assertEquals(List.of("== three", "LATE B2@2"), m.get("three"));
    }

    @Test
    void rejectsOutputBeforeTheFirstHeaderAndRepeatedCases() {
        assertThrows(CaseSyntaxException.class, () -> ExpectedOutput.parse("MATCH {}\n== a\n", "x"));
        assertThrows(CaseSyntaxException.class, () -> ExpectedOutput.parse("== a\n== a\n", "x"));
    }
}
