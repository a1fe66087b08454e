package io.cepheus.nfa.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner's judging, on cases whose patterns the builder rejects (so no NFA runs): what passes, what
 * fails, and what the failure report shows.
 */
class CaseFileRunnerTest {

    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void judgesEachCaseAgainstItsSection() throws IOException {
        Path cases = write("01-x.case", """
                case: rejected
                pattern: begin a ; next a          # duplicate stage name: rejected while building
                events: A1@1
                case: wrongly-expected-match
                pattern: begin a ; next a
                events: A1@1
                case: no-section
                pattern: begin a ; next a
                events: A1@1
                case: bad-syntax
                pattern: begin a frob
                events: A1@1
                """);
        write("01-x.expected", """
                == rejected
                ERROR MalformedPatternException: any wording
                == wrongly-expected-match
                MATCH {a=[A1@1]}
                == bad-syntax
                == orphan
                """);
        List<CaseVerdict> v = CaseFileRunner.run(cases);
        assertEquals(List.of("rejected", "wrongly-expected-match", "no-section", "bad-syntax", "orphan"),
                v.stream().map(CaseVerdict::name).toList());
        assertEquals(List.of(true, false, false, false, false), v.stream().map(CaseVerdict::passed).toList());
        String diff = v.get(1).report();
        assertTrue(diff.contains("-MATCH {a=[A1@1]}\n"), diff);
        assertTrue(diff.contains("+ERROR MalformedPatternException: "), diff);
        assertTrue(v.get(2).report().contains("no '== no-section' section"), v.get(2).report());
        assertTrue(v.get(3).report().contains("+CRASH CaseSyntaxException: "), v.get(3).report());
        assertTrue(v.get(4).report().contains("no such case"), v.get(4).report());
    }

    @Test
    void missingExpectedFileFailsEveryCase() throws IOException {
        Path cases = write("02-y.case", "case: a\npattern: begin a ; next a\nevents:\n");
        List<CaseVerdict> v = CaseFileRunner.run(cases);
        assertEquals(1, v.size());
        assertFalse(v.get(0).passed());
        assertTrue(v.get(0).report().contains("02-y.expected"), v.get(0).report());
    }

    @Test
    void unparsableCaseFileFailsAsAWhole() throws IOException {
        Path cases = write("03-z.case", "pattern: before any case\n");
        write("03-z.expected", "");
        List<CaseVerdict> v = CaseFileRunner.run(cases);
        assertEquals(1, v.size());
        assertFalse(v.get(0).passed());
    }
}
