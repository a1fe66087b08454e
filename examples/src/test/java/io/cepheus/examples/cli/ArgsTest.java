package io.cepheus.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The command-line parser: every accepted form, and a clear error naming the argument for the rest. */
class ArgsTest {

    private static Args parse(String... tokens) {
        return Args.parse("run", List.of(tokens), Set.of("input", "out", "max-delay", "shards"),
                Set.of("explain", "help"), 1);
    }

    private static String error(String... tokens) {
        return assertThrows(UsageException.class, () -> parse(tokens)).getMessage();
    }

    @Test
    void valuesFlagsAndPositionals() {
        Args args = parse("card-testing", "--input", "a.csv", "--out=-", "--explain");
        assertEquals(List.of("card-testing"), args.positionals());
        assertEquals("a.csv", args.value("input"));
        assertEquals("-", args.value("out"));
        assertTrue(args.has("explain"));
        assertFalse(args.has("help"));
        assertNull(args.value("shards"));
        assertEquals("x", args.value("shards", "x"));
    }

    @Test
    void aLoneDashIsAValueAndDoubleDashEndsOptions() {
        assertEquals("-", parse("--input", "-").value("input"));
        assertEquals(List.of("--explain"), parse("--", "--explain").positionals());
    }

    @Test
    void badArgumentsAreNamed() {
        assertEquals("unknown option '--bogus' for 'run'", error("--bogus"));
        assertEquals("unknown option '-x' (options start with --)", error("-x"));
        assertEquals("--input needs a value", error("--input"));
        assertEquals("--input needs a value", error("--input", "--explain"));
        assertEquals("--input needs a value", error("--input="));
        assertEquals("--explain takes no value", error("--explain=yes"));
        assertEquals("--input given twice", error("--input", "a", "--input", "b"));
        assertEquals("--explain given twice", error("--explain", "--explain"));
        assertEquals("unexpected argument 'extra'", error("app", "extra"));
        assertEquals("'demo' takes no argument, got 'x'",
                assertThrows(UsageException.class, () -> Args.parse("demo", List.of("x"), Set.of(), Set.of(), 0))
                        .getMessage());
    }

    @Test
    void numbersAndChoicesAreChecked() {
        assertEquals(4, parse("--shards", "4").intValue("shards", 1, 1, 64));
        assertEquals(1, parse().intValue("shards", 1, 1, 64));
        assertEquals("--shards must be between 1 and 64, got 0",
                assertThrows(UsageException.class, () -> parse("--shards", "0").intValue("shards", 1, 1, 64))
                        .getMessage());
        assertEquals("--shards needs a whole number, got 'two'",
                assertThrows(UsageException.class, () -> parse("--shards", "two").intValue("shards", 1, 1, 64))
                        .getMessage());
        assertEquals("--out must be one of a, b, got 'C'",
                assertThrows(UsageException.class, () -> parse("--out", "C").choice("out", "a", List.of("a", "b")))
                        .getMessage());
        assertEquals("b", parse("--out", "B").choice("out", "a", List.of("a", "b")));
    }

    @Test
    void durations() {
        assertEquals(Duration.ofMillis(500), parse("--max-delay", "500ms").duration("max-delay", null));
        assertEquals(Duration.ofSeconds(5), parse("--max-delay", "5s").duration("max-delay", null));
        assertEquals(Duration.ofMinutes(2), parse("--max-delay", "2m").duration("max-delay", null));
        assertEquals(Duration.ofHours(1), parse("--max-delay", "1h").duration("max-delay", null));
        assertEquals(Duration.ofSeconds(90), parse("--max-delay", "PT1M30S").duration("max-delay", null));
        assertEquals(Duration.ZERO, parse("--max-delay", "0s").duration("max-delay", null));
        for (String bad : List.of("soon", "5", "5 parsecs", "s", "-5s", "PT-5S")) {
            assertThrows(UsageException.class, () -> parse("--max-delay", bad).duration("max-delay", null), bad);
        }
    }
}
