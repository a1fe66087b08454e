package io.cepheus.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@code cepheus explain} over the failed-logins sample: the three reasons the sample's near misses do not match are
 * in their timelines, as a user reads them.
 */
class ExplainCommandTest {

    private static CepheusTest.Result run(String... args) {
        return CepheusTest.runWithInput("", args);
    }

    private static final String SAMPLE = "src/main/resources/samples/failed-logins.csv";

    @Test
    void eachNearMissSaysWhyItDidNotMatch() {
        CepheusTest.Result r = run("explain", "--rules", "rules/failed-logins", "--input", SAMPLE, "--key",
                "user=bob,erin,alice", "--time", "time", "--rule", "failed-logins-strict");
        assertEquals(0, r.status(), r.err());
        String bob = section(r.out(), "trace of key bob for rule failed-logins-strict v1");
        // bob's success at 08:01:20 broke the run of failures
        assertTrue(bob.contains("2025-03-01T08:01:20Z    #1 ended, condition false at stage 'failed': strict"
                + " contiguity broken"), bob);
        assertTrue(bob.contains("(success = true)"), bob);
        String erin = section(r.out(), "trace of key erin for rule failed-logins-strict v1");
        // erin failed every three minutes: the first attempts' 10-minute windows closed before the fifth
        assertTrue(erin.contains("2025-03-01T08:16:00Z    #1 ended, timed out at stage 'failed': the pattern's"
                + " window of 10 min closed"), erin);
        String alice = section(r.out(), "trace of key alice for rule failed-logins-strict v1");
        assertTrue(alice.contains("#1 completed a match"), alice);
        assertTrue(!r.out().contains("failed-logins-relaxed"), "--rule explains that rule only");
    }

    private static String section(String out, String heading) {
        int at = out.indexOf(heading);
        assertTrue(at >= 0, "no '" + heading + "' in\n" + out);
        int end = out.indexOf("\ntrace of key ", at + 1);
        return out.substring(at, end < 0 ? out.length() : end);
    }

    @Test
    void badArgumentsAreNamed() {
        var noKey = run("explain", "--rules", "rules/failed-logins", "--input", SAMPLE, "--time", "time");
        assertEquals(Cepheus.USAGE, noKey.status());
        assertTrue(noKey.err().contains("--key FIELD=VALUE is needed"), noKey.err());
        var badKey = run("explain", "--rules", "rules/failed-logins", "--input", SAMPLE, "--key", "bob", "--time",
                "time");
        assertEquals(Cepheus.USAGE, badKey.status());
        assertTrue(badKey.err().contains("--key takes FIELD=VALUE"), badKey.err());
        var noRule = run("explain", "--rules", "rules/failed-logins", "--input", SAMPLE, "--key", "user=bob",
                "--time", "time", "--rule", "nope");
        assertEquals(Cepheus.USAGE, noRule.status());
        assertTrue(noRule.err().contains("no rule 'nope' among"), noRule.err());
        assertEquals(0, run("explain", "--help").status());
    }
}
