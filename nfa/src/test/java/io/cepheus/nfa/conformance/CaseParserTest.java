package io.cepheus.nfa.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class CaseParserTest {

    @Test
    void readsAllFieldsCommentsContinuationsAndSeveralCases() {
        String text = """
                # a file comment
                case: first          # trailing comment
                note: ignored, even with a: colon
                pattern: begin a where type=A ;
                  next b where type=B
                within: 10
                skip: skipToFirst b
                end-watermark: 42
                events: A1@1, B2@2 wm@5
                   watermark@7,C-3@9

                case: second
                deviation: unknown keys are ignored
                  and so are their continuation lines
                pattern: begin x
                end-watermark: none
                events:
                """;
        List<ConformanceCase> cases = CaseParser.parse(text, "t.case");
        assertEquals(2, cases.size());
        ConformanceCase first = cases.get(0);
        assertEquals("first", first.name());
        assertEquals("begin a where type=A ; next b where type=B", first.pattern());
        assertEquals(OptionalLong.of(10), first.withinMillis());
        assertEquals("skipToFirst b", first.skip());
        assertEquals(OptionalLong.of(42), first.endWatermark());
        assertEquals(List.of(
                new InputToken.Event(new Ev('A', 1, 1, "A1@1")),
                new InputToken.Event(new Ev('B', 2, 2, "B2@2")),
                new InputToken.Watermark(5),
                new InputToken.Watermark(7),
                new InputToken.Event(new Ev('C', -3, 9, "C-3@9"))), first.input());

        ConformanceCase second = cases.get(1);
        assertEquals("second", second.name());
        assertEquals("begin x", second.pattern());
        assertEquals(OptionalLong.empty(), second.withinMillis());
        assertEquals("noSkip", second.skip());
        assertEquals(OptionalLong.empty(), second.endWatermark());
        assertTrue(second.input().isEmpty());
    }

    @Test
    void endWatermarkDefaultsToMax() {
        ConformanceCase c = CaseParser.parse("case: c\npattern: begin a\nevents: A1@1\n", "t").get(0);
        assertEquals(OptionalLong.of(Long.MAX_VALUE), c.endWatermark());
        ConformanceCase max = CaseParser.parse("case: c\npattern: begin a\nend-watermark: max\nevents: A1@1\n",
                "t").get(0);
        assertEquals(OptionalLong.of(Long.MAX_VALUE), max.endWatermark());
    }

    @Test
    void tokenKeepsTheSpellingOfTheInput() {
        List<InputToken> tokens = CaseParser.parseEvents("x007@010");
        assertEquals(List.of(new InputToken.Event(new Ev('x', 7, 10, "x007@010"))), tokens);
    }

    @Test
    void rejectsMalformedInput() {
        assertThrows(CaseSyntaxException.class, () -> CaseParser.parseEvents("AB1@2"));
        assertThrows(CaseSyntaxException.class, () -> CaseParser.parseEvents("A1"));
        assertThrows(CaseSyntaxException.class, () -> CaseParser.parseEvents("wm@"));
        assertThrows(CaseSyntaxException.class, () -> CaseParser.parse("pattern: begin a\n", "t"));
        assertThrows(CaseSyntaxException.class, () -> CaseParser.parse("case: c\nevents: A1@1\n", "t"));
        assertThrows(CaseSyntaxException.class, () -> CaseParser.parse("case: c\npattern: begin a\n", "t"));
        assertThrows(CaseSyntaxException.class,
                () -> CaseParser.parse("case: c\npattern: begin a\npattern: begin b\nevents:\n", "t"));
        assertThrows(CaseSyntaxException.class,
                () -> CaseParser.parse("case: c\npattern: begin a\nwithin: ten\nevents:\n", "t"));
        assertThrows(CaseSyntaxException.class,
                () -> CaseParser.parse("case: c\npattern: begin a\nno colon here\nevents:\n", "t"));
        assertThrows(CaseSyntaxException.class, () -> CaseParser.parse("  continuation first\n", "t"));
    }
}
